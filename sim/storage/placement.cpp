#include "sim/storage/placement.hpp"

namespace ckptsim {

std::vector<Holder> remote_holders(const std::string& model, NodeId node, const FederationLayout& layout, int servers) {
  if (model == "servers") return {server_holder(node % servers)};
  if (model == "buddy") {
    const ClusterLayout& c = layout.cluster(layout.cluster_of(node));
    if (c.size < 2) return {};
    return {c.first + (node - c.first + 1) % c.size};
  }
  return {};
}

} // namespace ckptsim
