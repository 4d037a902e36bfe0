/* The statistics registry: named counters, per-cluster counters and series. Protocols add their
 * own entries by name; the engine never needs to know them. Observers only: nothing reads the
 * registry to take a decision. */
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace ckptsim {

class Stats {
 public:
  explicit Stats(int clusters = 0)
      : clusters_(clusters) {}
  void set_clusters(int clusters) { clusters_ = clusters; }

  /** @brief Adds to a global counter ("app.messages"). */
  void add(const std::string& name, double value = 1) { counters_[name] += value; }
  void set(const std::string& name, double value) { counters_[name] = value; }
  void max(const std::string& name, double value);
  double get(const std::string& name) const;

  /** @brief Sets what node @p node holds now (its message log...): counter @p name is the sum over
   *  the nodes, @p name + "_max" its peak, @p name + "_node_max" the most one node held. A node's
   *  new level replaces its previous one, so a
   *  restarted node setting its level replaces what its dead incarnation held. */
  void level(const std::string& name, int node, double value);
  double level_of(const std::string& name, int node) const;

  /** @brief Adds to a per-cluster counter ("hc3i.forced_clc"[cluster]). */
  void add_cluster(const std::string& name, int cluster, double value = 1);
  void max_cluster(const std::string& name, int cluster, double value);
  const std::vector<double>& cluster_values(const std::string& name) const;

  /** @brief Adds to a matrix entry ("app.matrix"[from][to]). */
  void add_matrix(const std::string& name, int from, int to, double value = 1);
  const std::vector<std::vector<double>>& matrix(const std::string& name) const;

  /** @brief Appends a record to a series ("failures", "gc"). */
  void record(const std::string& series, nlohmann::json entry) { series_[series].push_back(std::move(entry)); }
  const std::vector<nlohmann::json>& series(const std::string& name) const;

  nlohmann::json to_json() const;

 private:
  int clusters_;
  std::map<std::string, double> counters_;
  std::map<std::string, std::vector<double>> per_cluster_;
  std::map<std::string, std::vector<std::vector<double>>> matrices_;
  std::map<std::string, std::vector<nlohmann::json>> series_;
  std::map<std::string, std::map<int, double>> levels_; // name -> node -> level (the counters hold the sums)
};

} // namespace ckptsim
