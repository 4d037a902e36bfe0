#include "sim/storage/model.hpp"

namespace ckptsim {

const StorageModelInfo& storage_model_of(const Topology& topology, ClusterId cluster,
                                         const std::string& default_model) {
  const std::string& own = topology.clusters[static_cast<std::size_t>(cluster)].storage;
  const std::string& all = topology.storage.model.empty() ? default_model : topology.storage.model;
  return StorageModelRegistry::instance().get(own.empty() ? all : own);
}

} // namespace ckptsim
