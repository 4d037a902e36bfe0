/* The "buddy" storage model (HC3I): a node's remote copy goes to the memory of the next node of
 * its cluster, cyclically (c0-3 keeps c0-2's copy, the first node the last's); a one-node cluster
 * has none. */
#include "sim/storage/model.hpp"

namespace ckptsim {

namespace {
std::vector<Holder> buddy_holders(NodeId node, const FederationLayout& layout) {
  const ClusterLayout& c = layout.cluster(layout.cluster_of(node));
  if (c.size < 2) return {};
  return {c.first + (node - c.first + 1) % c.size};
}

const StorageModelRegistration buddy_model{{
    .name = "buddy",
    .description = "the remote copy in the memory of the next node of the same cluster (one failure per buddy pair)",
    .rank = 1,
    .holders = [](NodeId node, std::uint64_t /*number*/,
                  const StorageContext& c) { return buddy_holders(node, c.layout); },
}};
} // namespace

} // namespace ckptsim
