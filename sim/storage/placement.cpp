#include "sim/storage/placement.hpp"

#include <algorithm>

namespace ckptsim {

std::vector<Holder> remote_holders(const std::string& model, NodeId node, std::uint64_t number,
                                   const FederationLayout& layout, int servers, const replicated::Scheme& scheme) {
  if (model == "servers") return {server_holder(node % servers)};
  const ClusterLayout& c = layout.cluster(layout.cluster_of(node));
  if (model == "buddy") {
    if (c.size < 2) return {};
    return {c.first + (node - c.first + 1) % c.size};
  }
  if (model == "replicated") { // N and i are the cluster's: copies travel on its SAN, like buddy's
    std::vector<Holder> out;
    for (int r : replicated::receivers(node - c.first, number, scheme, c.size)) out.push_back(c.first + r);
    return out;
  }
  return {};
}

int storage_depth(const Topology& topology, const std::string& default_model) {
  const std::string& all = topology.storage.model.empty() ? default_model : topology.storage.model;
  int depth = all == "replicated" && topology.clusters.empty() ? topology.storage.depth : 1; // clusters from XML
  for (const auto& c : topology.clusters)
    if ((c.storage.empty() ? all : c.storage) == "replicated") depth = std::max(depth, topology.storage.depth);
  return depth;
}

} // namespace ckptsim
