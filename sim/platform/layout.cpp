#include "sim/platform/layout.hpp"

#include <charconv>
#include <fmt/format.h>

namespace ckptsim {

FederationLayout::FederationLayout(const Topology& topology) {
  for (const auto& c : topology.clusters) {
    std::vector<std::string> hosts;
    for (int i = 0; i < c.nodes; i++) hosts.push_back(fmt::format("{}-{}", c.name, i));
    add_cluster(c.name, hosts, std::vector<double>(hosts.size(), c.speed));
  }
}

FederationLayout::FederationLayout(const Topology& topology, const std::vector<std::vector<std::string>>& hosts,
                                   const std::vector<std::vector<double>>& speeds) {
  for (std::size_t c = 0; c < topology.clusters.size(); c++)
    add_cluster(topology.clusters[c].name, hosts.at(c), speeds.at(c));
}

void FederationLayout::add_cluster(const std::string& name, const std::vector<std::string>& hosts,
                                   const std::vector<double>& speeds) {
  ClusterLayout cl{name, num_nodes(), static_cast<int>(hosts.size()), speeds.empty() ? 1e9 : speeds.front()};
  for (std::size_t i = 0; i < hosts.size(); i++) {
    by_name_[hosts[i]] = num_nodes();
    hosts_.push_back(hosts[i]);
    speeds_.push_back(speeds[i]);
    cluster_of_.push_back(num_clusters());
  }
  clusters_.push_back(cl);
}

NodeId FederationLayout::resolve(const std::string& ref) const {
  if (auto it = by_name_.find(ref); it != by_name_.end()) return it->second;
  int idx = -1;
  auto [end, ec] = std::from_chars(ref.data(), ref.data() + ref.size(), idx);
  if (ec == std::errc() && end == ref.data() + ref.size() && idx >= 0 && idx < num_nodes()) return idx;
  return -1;
}

} // namespace ckptsim
