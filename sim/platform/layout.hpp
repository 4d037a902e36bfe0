/* Who is where: clusters, their nodes (global ids in cluster order) and host names. Built from a
 * topology, or from the zones of a SimGrid platform XML. Plain data, no SimGrid. */
#pragma once

#include "sim/config/topology.hpp"
#include "sim/net/ids.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace ckptsim {

struct ClusterLayout {
  std::string name;
  NodeId first = 0; // global id of its first node
  int size = 0;
  double speed = 1e9; // of its first node: a platform XML may give its nodes different speeds
};

class FederationLayout {
 public:
  FederationLayout() = default;
  /** @brief Host names "<cluster>-<i>" for a topology with its own clusters. */
  explicit FederationLayout(const Topology& topology);
  /** @brief Explicit host names and speeds (flop/s) per cluster (platform XML). */
  FederationLayout(const Topology& topology, const std::vector<std::vector<std::string>>& hosts,
                   const std::vector<std::vector<double>>& speeds);

  int num_nodes() const { return static_cast<int>(cluster_of_.size()); }
  int num_clusters() const { return static_cast<int>(clusters_.size()); }
  const ClusterLayout& cluster(ClusterId c) const { return clusters_[c]; }
  ClusterId cluster_of(NodeId n) const { return cluster_of_[n]; }
  const std::string& host_name(NodeId n) const { return hosts_[n]; }
  /** @brief The node's speed in flop/s. */
  double speed(NodeId n) const { return speeds_[n]; }
  /** @brief A node by host name or by global index given as text; -1 when unknown. */
  NodeId resolve(const std::string& ref) const;

 private:
  void add_cluster(const std::string& name, const std::vector<std::string>& hosts, const std::vector<double>& speeds);
  std::vector<ClusterLayout> clusters_;
  std::vector<ClusterId> cluster_of_;
  std::vector<std::string> hosts_;
  std::vector<double> speeds_;
  std::unordered_map<std::string, NodeId> by_name_;
};

} // namespace ckptsim
