/* Stable storage as a service of the run: the checkpoint store, where the copies of a checkpoint
 * go (the cluster's storage model, sim/storage/model.hpp), which holders are up, the recovery line
 * a global restart asks for (the newest line every node can still load), the models' checks once
 * the platform exists and what they add to the results. Nodes reach it through StoragePort
 * (sim/node/ports.hpp). When no copy of a checkpoint survives, it hands the run the reason and the
 * run ends (Unrecoverable). */
#pragma once

#include "sim/config/topology.hpp"
#include "sim/engine/ending.hpp"
#include "sim/engine/endpoints.hpp"
#include "sim/engine/observation.hpp"
#include "sim/engine/recovery_tracker.hpp"
#include "sim/engine/wire_service.hpp"
#include "sim/node/ports.hpp"
#include "sim/platform/platform.hpp"
#include "sim/storage/checkpoint_store.hpp"
#include "sim/storage/model.hpp"

#include <any>
#include <functional>
#include <map>
#include <string>

namespace ckptsim {

class StorageService final : public StoragePort {
 public:
  /** @brief What ends the run when a checkpoint is lost for good: why, and the fields recorded. */
  using Unrecoverable = std::function<void(const std::string& why, nlohmann::ordered_json fields)>;

  struct Parts {
    const Topology& topology;
    const Platform& platform;
    const Endpoints& endpoints;
    WireService& wire; // where each process runs
    Observation& observe;
    Ending& ending;
    const RecoveryTracker& recoveries; // which nodes failed, for the recovery line's report
  };
  StorageService(Parts parts, Unrecoverable unrecoverable)
      : parts_(parts)
      , unrecoverable_(std::move(unrecoverable)) {}

  /** @brief The protocol's default storage model (for clusters whose topology names none), then
   *  each cluster's model checked on the platform (InputError). */
  void check(std::string default_model);
  /** @brief Each model in use checked against how protocol @p protocol uses storage (InputError). */
  void check_protocol(StorageUse use, const std::string& protocol);
  /** @brief The storage model of @p node's cluster. */
  const StorageModelInfo& model(NodeId node) const;
  /** @brief Adds what the storage models in use say to the results. */
  void add_results(nlohmann::ordered_json& results) const;

  // ---- StoragePort ----
  CheckpointStore& store() override { return store_; }
  std::vector<Holder> remote_holders(NodeId node, std::uint64_t number) const override;
  sg4::Host* holder_host(Holder h) const override;
  std::string holder_name(Holder h) const override;
  bool holder_up(Holder h) const override { return is_server(h) || parts_.endpoints.up[h]; }
  void unrecoverable(NodeId node, std::uint64_t number) override;
  bool replans_lines() const override { return use_ == StorageUse::NewestLine; }
  bool multi_level(NodeId node) const override { return static_cast<bool>(model(node).save_plan); }
  SavePlan save_plan(NodeId node, std::uint64_t number, double bytes) const override;
  std::optional<LoadPlan> load_plan(NodeId node, std::uint64_t number) const override;
  std::optional<std::uint64_t> recovery_line(NodeId asker, const std::vector<std::uint64_t>& numbers) override;
  void replica_started() override { parts_.ending.termination.replica_started(); }
  void replica_finished() override { parts_.ending.termination.replica_finished(); }

 private:
  /** @brief What model @p info (none: any) sees of the run. */
  StorageContext context(const StorageModelInfo* info = nullptr) const;

  Parts parts_;
  Unrecoverable unrecoverable_;
  std::string default_model_;
  CheckpointStore store_;
  std::map<const StorageModelInfo*, std::any> states_; // what each model's prepare() made
  StorageUse use_ = StorageUse::Chosen;                // the protocol's
};

} // namespace ckptsim
