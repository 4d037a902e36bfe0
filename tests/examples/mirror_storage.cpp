/* The smallest storage model, the example of docs/ARCHITECTURE.md ("Add a storage model"): a
 * node's remote copy goes to the memory of the node at the same position in the next cluster
 * (cyclically), so that a copy survives the loss of a whole cluster's memories; none when that
 * cluster is smaller or the federation has one cluster. Registered by the tests only, as
 * "test-mirror": usable in a topology's "storage", never listed. */
#include "sim/storage/model.hpp"

namespace ckptsim::examples {
namespace {

std::vector<Holder> mirror_holders(NodeId node, const FederationLayout& layout) {
  const ClusterId own = layout.cluster_of(node);
  const ClusterLayout& next = layout.cluster((own + 1) % layout.num_clusters());
  const int position = node - layout.cluster(own).first;
  if (next.first == layout.cluster(own).first || position >= next.size) return {};
  return {next.first + position};
}

const StorageModelRegistration mirror_model{{
    .name = "test-mirror",
    .description = "the remote copy in the memory of the node at the same position in the next cluster",
    .rank = 100,
    .holders = [](NodeId node, std::uint64_t /*number*/,
                  const StorageContext& c) { return mirror_holders(node, c.layout); },
}};

} // namespace
} // namespace ckptsim::examples
