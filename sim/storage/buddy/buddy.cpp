#include "sim/storage/buddy/buddy.hpp"

#include "sim/storage/model.hpp"

namespace ckptsim {

std::vector<Holder> buddy_holders(NodeId node, const FederationLayout& layout) {
  const ClusterLayout& c = layout.cluster(layout.cluster_of(node));
  if (c.size < 2) return {};
  return {c.first + (node - c.first + 1) % c.size};
}

namespace {
const StorageModelRegistration buddy_model{{
    .name = "buddy",
    .description = "the remote copy in the memory of the next node of the same cluster (one failure per buddy pair)",
    .rank = 1,
    .holders = [](NodeId node, std::uint64_t /*number*/,
                  const StorageContext& c) { return buddy_holders(node, c.layout); },
}};
} // namespace

} // namespace ckptsim
