/* The storage layer's answers to what the contract lets a protocol ask of the placement
 * (sim/protocol/storage.hpp): here rather than in sim/protocol, so that the contract depends on
 * no storage code (the checkpoint store, in turn, stores the contract's Snapshot). */
#include "sim/protocol/storage.hpp"

#include "sim/storage/model.hpp"
#include "sim/storage/placement.hpp"

#include <algorithm>
#include <functional>

namespace ckptsim {

int storage_depth(const ProtocolSetup& setup, const std::string& default_model) {
  return storage_depth(*setup.topology, default_model);
}

KeptSaves storage_kept(const ProtocolSetup& setup, const std::string& default_model) {
  const Topology& topology = *setup.topology;
  const std::string& all = topology.storage.model.empty() ? default_model : topology.storage.model;
  std::vector<const StorageModelInfo*> models{&StorageModelRegistry::instance().get(all)};
  for (const auto& c : topology.clusters)
    if (!c.storage.empty()) models.push_back(&StorageModelRegistry::instance().get(c.storage));
  std::sort(models.begin(), models.end());
  models.erase(std::unique(models.begin(), models.end()), models.end());
  const int depth = storage_depth(topology, default_model);
  const StorageSpec spec = topology.storage;
  // A common line needs every node's save of one number: what any model keeps is kept.
  return [models, depth, spec](std::uint64_t newest) {
    std::vector<std::uint64_t> kept;
    for (std::uint64_t k = newest; kept.size() < static_cast<std::size_t>(depth); k--) {
      kept.push_back(k);
      if (k == 0) break;
    }
    for (const StorageModelInfo* m : models)
      if (m->kept)
        for (std::uint64_t k : m->kept(spec, newest)) kept.push_back(k);
    std::sort(kept.begin(), kept.end(), std::greater<>());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    return kept;
  };
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
