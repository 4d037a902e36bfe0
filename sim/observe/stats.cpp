#include "sim/observe/stats.hpp"

#include <algorithm>

namespace ckptsim {

void Stats::level(const std::string& name, int node, double value) {
  double& mine = levels_[name][node];
  counters_[name] += value - mine;
  mine = value;
  max(name + "_max", counters_[name]);
  max(name + "_node_max", value);
}

double Stats::level_of(const std::string& name, int node) const {
  auto it = levels_.find(name);
  if (it == levels_.end()) return 0.0;
  auto n = it->second.find(node);
  return n == it->second.end() ? 0.0 : n->second;
}

void Stats::max(const std::string& name, double value) {
  auto [it, inserted] = counters_.try_emplace(name, value);
  if (!inserted) it->second = std::max(it->second, value);
}

double Stats::get(const std::string& name) const {
  auto it = counters_.find(name);
  return it == counters_.end() ? 0.0 : it->second;
}

void Stats::add_cluster(const std::string& name, int cluster, double value) {
  auto& v = per_cluster_[name];
  v.resize(std::max<std::size_t>(v.size(), std::max(clusters_, cluster + 1)), 0.0);
  v[cluster] += value;
}

void Stats::max_cluster(const std::string& name, int cluster, double value) {
  auto& v = per_cluster_[name];
  v.resize(std::max<std::size_t>(v.size(), std::max(clusters_, cluster + 1)), 0.0);
  v[cluster] = std::max(v[cluster], value);
}

const std::vector<double>& Stats::cluster_values(const std::string& name) const {
  static const std::vector<double> empty;
  auto it = per_cluster_.find(name);
  return it == per_cluster_.end() ? empty : it->second;
}

void Stats::add_matrix(const std::string& name, int from, int to, double value) {
  auto& m = matrices_[name];
  auto n = static_cast<std::size_t>(std::max({clusters_, from + 1, to + 1}));
  if (m.size() < n) m.resize(n);
  for (auto& row : m) row.resize(std::max(row.size(), n), 0.0);
  m[from][to] += value;
}

const std::vector<std::vector<double>>& Stats::matrix(const std::string& name) const {
  static const std::vector<std::vector<double>> empty;
  auto it = matrices_.find(name);
  return it == matrices_.end() ? empty : it->second;
}

const std::vector<nlohmann::json>& Stats::series(const std::string& name) const {
  static const std::vector<nlohmann::json> empty;
  auto it = series_.find(name);
  return it == series_.end() ? empty : it->second;
}

nlohmann::json Stats::to_json() const {
  nlohmann::json j;
  j["counters"] = counters_;
  j["per_cluster"] = per_cluster_;
  j["matrices"] = matrices_;
  j["series"] = nlohmann::json::object();
  for (const auto& [name, entries] : series_) j["series"][name] = entries;
  return j;
}

} // namespace ckptsim
