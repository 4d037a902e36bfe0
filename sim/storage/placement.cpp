#include "sim/storage/placement.hpp"

#include "sim/storage/model.hpp"

#include <algorithm>

namespace ckptsim {

int storage_depth(const Topology& topology, const std::string& default_model) {
  const auto depth_of = [&](const std::string& name) {
    const StorageModelInfo& model = StorageModelRegistry::instance().get(name);
    return model.depth ? model.depth(topology.storage) : 1;
  };
  const std::string& all = topology.storage.model.empty() ? default_model : topology.storage.model;
  int depth = topology.clusters.empty() ? depth_of(all) : 1; // clusters from a platform XML, not known yet
  for (const auto& c : topology.clusters) depth = std::max(depth, depth_of(c.storage.empty() ? all : c.storage));
  return depth;
}

} // namespace ckptsim
