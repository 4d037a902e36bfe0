/* Stable-storage models register themselves, like protocols: a model is one folder under
 * sim/storage/ (servers/, buddy/, replicated/) with one static StorageModelRegistration saying
 * where the remote copies of a checkpoint go, which fields of the topology's "storage" object it
 * reads and how it checks them, how many saves of a node it keeps, whether it needs checkpoint
 * servers and what it adds to the results. The topology reader and the engine ask the registry;
 * nothing else names a model. */
#pragma once

#include "sim/config/registry.hpp"
#include "sim/config/topology.hpp"
#include "sim/platform/layout.hpp"
#include "sim/storage/placement.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim {

/** @brief What a storage model sees of a run once its platform exists. */
struct StorageContext {
  const Topology& topology;       // the "storage" object (topology.storage), the cluster names, the file name
  const FederationLayout& layout; // clusters and nodes
  int servers = 0;                // checkpoint servers of the platform
};

// Members default-initialized ({}): a model lists only the ones it sets, without a warning.
struct StorageModelInfo {
  std::string name;        // the topology's "storage": {"model": name} or a cluster's "storage"
  std::string description; // one line, for `ckptsim list`
  int rank = 0;            // position in listings and in the message naming the valid models
  // The model's fields of the topology's "storage" object: name, description (with default).
  std::vector<std::pair<std::string, std::string>> fields{};
  /** Reads the model's fields from the "storage" object into @p spec. Every model reads its own,
   *  whichever model the topology uses: each field of the object is known everywhere. */
  std::function<void(ObjectReader& storage, StorageSpec& spec)> read{};
  /** Optional, once the whole topology is read: checks the fields against @p used (whether the
   *  topology or one of its clusters names the model); @p at is the topology's root. */
  std::function<void(const StorageSpec& spec, bool used, const Where& at)> check{};
  /** Optional, once the platform exists: an InputError when cluster @p cluster, which uses the
   *  model, cannot (the nodes of a platform XML are only known then). */
  std::function<void(ClusterId cluster, const StorageContext& context)> check_cluster{};
  /** The remote holders of checkpoint @p number of @p node (the local copy always exists too). */
  std::function<std::vector<Holder>(NodeId node, std::uint64_t number, const StorageContext& context)> holders{};
  /** Optional: saves kept per node (a protocol restoring a global line keeps that many); 1. */
  std::function<int(const StorageSpec& spec)> depth{};
  bool needs_servers = false; // its holders are checkpoint servers: a platform XML needs a "storage" zone
  // Optional: what the results say about the model, under results_key, given the clusters that
  // use it (none: no entry).
  std::string results_key{};
  std::function<nlohmann::ordered_json(const std::vector<ClusterId>& clusters, const StorageContext& context)>
      results{};
};

using StorageModelRegistry = Registry<StorageModelInfo>;
using StorageModelRegistration = Registration<StorageModelInfo>;

/** @brief The model cluster @p cluster uses: its own, else the topology's, else @p default_model
 *  (the protocol's). */
const StorageModelInfo& storage_model_of(const Topology& topology, ClusterId cluster, const std::string& default_model);

} // namespace ckptsim
