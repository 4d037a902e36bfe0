/* The storage layer's answers to what the contract lets a protocol ask of the placement
 * (sim/protocol/storage.hpp): here rather than in sim/protocol, so that the contract depends on
 * no storage code (the checkpoint store, in turn, stores the contract's Snapshot). */
#include "sim/protocol/storage.hpp"

#include "sim/storage/model.hpp"
#include "sim/storage/placement.hpp"

namespace ckptsim {

int storage_depth(const ProtocolSetup& setup, const std::string& default_model) {
  return storage_depth(*setup.topology, default_model);
}

std::vector<NodeId> storage_holder_nodes(const ProtocolSetup& setup, const std::string& model, NodeId node,
                                         std::uint64_t number) {
  const StorageModelInfo& info = StorageModelRegistry::instance().get(model);
  // A model whose copies go to checkpoint servers puts none on a node (and its placement needs
  // the platform's servers, which a protocol's setup does not see).
  if (info.needs_servers || !info.holders) return {};
  const StorageContext context{*setup.topology, *setup.layout, 0};
  std::vector<NodeId> nodes;
  for (Holder h : info.holders(node, number, context))
    if (!is_server(h)) nodes.push_back(h);
  return nodes;
}

} // namespace ckptsim
