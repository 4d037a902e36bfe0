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
#include "sim/protocol/protocol.hpp"
#include "sim/storage/placement.hpp"

#include <nlohmann/json.hpp>

#include <any>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim {

class CheckpointStore;
class Stats;

/** @brief What a storage model sees of a run once its platform exists. */
struct StorageContext {
  const Topology& topology;               // the "storage" object (topology.storage), the cluster names, the file name
  const FederationLayout& layout;         // clusters and nodes
  int servers = 0;                        // checkpoint servers of the platform
  const CheckpointStore* store = nullptr; // during a run: what is stored and where (load_plan)
  const Stats* stats = nullptr;           // during a run: the counters (results)
  const std::any* state = nullptr;        // during a run: what the model's prepare() made (if it has one)
};

/** @brief One step of writing a checkpoint under a multi-level model (StorageModelInfo::save_plan):
 *  a time on the node (a write to its local device, an encoding), then transfers to holders, all
 *  started together. The steps run in order. */
struct StorageStep {
  double delay = 0;                               // seconds on the node before the transfers
  double written = 0;                             // bytes the delay writes to the node's own device
  std::vector<std::pair<Holder, double>> sends{}; // holder, bytes
  bool parity = false;                            // the sends are the node's share of its erasure group's parity
                                                  // (CheckpointStore::encoded once all arrived); else each makes
                                                  // a complete copy on its holder
  bool reports = false;                           // the save is complete (Agent::on_saved) once this step is done
  std::string what{};                             // for the trace: "local", "partner", "xor", "flush"...
};

/** @brief How checkpoint @p number of a node is written: its level (an index of the model's, for
 *  the results), the erasure group whose parity covers it (none: size 0) and the steps. */
struct SavePlan {
  int level = 0;
  ErasureGroup group{};
  std::vector<StorageStep> steps{};
};

/** @brief How a node reads a checkpoint back: a time on the node before the transfers (reading its
 *  local device) and after them (decoding), the transfers from holders, the level serving it. */
struct LoadPlan {
  int level = 0;
  double delay_before = 0;
  std::vector<std::pair<Holder, double>> fetches{}; // holder, bytes
  double delay_after = 0;
};

/** @brief A level of a storage model as `ckptsim advise` sees it (StorageModelInfo::advised_levels). */
struct AdvisedLevel {
  std::string name;                  // "L2 partner"
  std::vector<std::string> survives; // failure scopes it survives: "node", a domain scope, "cluster", "site"; "*": all
  std::string every_field{};         // its "every" as a --set path under topology/ (a level written every n-th
                                     // checkpoint), "" for the first level or a model of one level
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
  /** Optional, once the platform exists and the clusters are checked: the model's state for the
   *  run (placements computed once), handed back in StorageContext::state. @p uses says, by
   *  cluster, which clusters use the model. InputError when the placement cannot be made. */
  std::function<std::any(const StorageContext& context, const std::vector<bool>& uses)> prepare{};
  /** Optional: saves kept per node (a protocol restoring a global line keeps that many); 1. */
  std::function<int(const StorageSpec& spec)> depth{};
  /** Optional, for a protocol restoring the newest line it can (StorageUse::NewestLine): the saves
   *  it keeps when @p newest is its newest complete one, newest first (0, the initial state, when
   *  reached). Default: the last depth() numbers. */
  std::function<std::vector<std::uint64_t>(const StorageSpec& spec, std::uint64_t newest)> kept{};
  /** Optional, once the topology and the protocol are known: an InputError when the model cannot
   *  serve a protocol that uses storage as @p use (@p protocol names it). */
  std::function<void(const StorageSpec& spec, StorageUse use, const std::string& protocol, const Where& at)>
      check_protocol{};
  /** Optional (multi-level models): how checkpoint @p number of @p node (@p bytes) is written. Without
   *  it a save keeps the local copy and sends one complete copy to each of holders(). */
  std::function<SavePlan(NodeId node, std::uint64_t number, double bytes, const StorageContext& context)> save_plan{};
  /** Optional (with save_plan): how @p node reads checkpoint @p number back from what survives
   *  (context.store), from the cheapest place that holds it; nullopt when nothing does. Without it
   *  a node reads its own copy at no cost, else fetches a surviving copy. */
  std::function<std::optional<LoadPlan>(NodeId node, std::uint64_t number, const StorageContext& context)> load_plan{};
  /** Optional: its levels for `ckptsim advise`, from the cheapest. Default: one level that
   *  survives a node's failure. */
  std::function<std::vector<AdvisedLevel>(const Topology& topology)> advised_levels{};
  /** Optional (with several advised levels): the topology's "storage" object @p storage changed
   *  so that every checkpoint is written at level @p level (0-based): advise measures its cost. */
  std::function<nlohmann::json(const nlohmann::json& storage, int level)> probe_storage{};
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
