/* One simulation. The Run owns its parts, each holding one concern: the inputs (RunInputs), the
 * SimGrid engine and platform, the workload, the protocol and its services, the observers
 * (Observation: statistics, event and Paje traces, oracle), the directory of endpoints
 * (Endpoints), three services the nodes are handed through the ports of sim/node/ports.hpp (the
 * wire: WireService; rendezvous sends: RendezvousService; stable storage: StorageService), the
 * execution contexts, how the run ends (Ending) and the failures and recoveries (FailureState).
 * The plain bookkeeping inside them has its own files and unit tests (wire.hpp, rendezvous.hpp,
 * recovery_tracker.hpp, termination.hpp). The Run itself is the lifecycle of processes (the
 * LifecyclePort nodes report to): it strikes, detects and restarts (run_failures.cpp), places
 * processes (placement.cpp), watches progress (run_watchdog.cpp), ends the run and writes the
 * results document (run_results.cpp), since these act on every part at once. Nodes (sim/node)
 * see none of this, and reach each other only through simulated messages. */
#pragma once

#include "sim/engine/contexts.hpp"
#include "sim/engine/ending.hpp"
#include "sim/engine/endpoints.hpp"
#include "sim/engine/failure_state.hpp"
#include "sim/engine/link_faults.hpp"
#include "sim/engine/observation.hpp"
#include "sim/engine/precision.hpp"
#include "sim/engine/rendezvous_service.hpp"
#include "sim/engine/run_config.hpp"
#include "sim/engine/storage_service.hpp"
#include "sim/engine/watchdog.hpp"
#include "sim/engine/wire_service.hpp"
#include "sim/node/ports.hpp"
#include "sim/platform/platform.hpp"
#include "sim/protocol/protocol.hpp"
#include "sim/storage/checkpoint_store.hpp"
#include "sim/storage/model.hpp"

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace ckptsim {

class NodeRuntime;

struct RunResult {
  nlohmann::ordered_json document; // the full results document (run parameters + statistics)
  std::string summary;             // the human-readable summary
  std::size_t violations = 0;
  std::string stuck; // non-empty: the watchdog ended a run that could not progress (what was pending)
};

class Run : public LifecyclePort {
 public:
  /** @brief Parses and validates the inputs (InputError on bad input); nothing is simulated yet. */
  explicit Run(RunConfig config);
  ~Run() override;
  /** @brief Creates the SimGrid engine and platform, reads the inputs that depend on it and the
   *  protocol (InputError on bad input). @p simgrid_argv: program name + --cfg/--log options. */
  void prepare(std::vector<std::string> simgrid_argv);
  /** @brief Simulates (after prepare) and collects the results. */
  RunResult simulate();

  // ---- LifecyclePort: what nodes tell of their processes (termination, recoveries) ----
  void register_runtime(NodeId endpoint, NodeRuntime* rt) override;
  void unregister_runtime(NodeId endpoint, NodeRuntime* rt) override;

  /** @brief A node's application finished (or was rolled back from finished). */
  void set_app_finished(NodeId node, bool finished) override;
  void set_result_digest(NodeId node, std::uint64_t digest) override;
  /** @brief A node's quiet status changed (application finished or service, protocol idle). */
  void set_quiet(NodeId endpoint, bool quiet) override;
  /** @brief What endpoint @p e's process does now ("computing", "waiting", "blocked",
   *  "recovering", "down", "finished": a static string): traced when it changes. */
  void set_state(NodeId e, const char* state) override { observe_.set_state(e, state); }
  /** @brief A node's application started or stopped computing (the watchdog's progress). */
  void set_computing(NodeId node, bool computing) override;
  /** @brief @p node's application stands at @p work done and @p delivered messages (the
   *  watchdog's measure of progress). */
  void note_progress(NodeId node, double work, std::uint64_t delivered) override {
    ending_.termination.note_progress(node, work, delivered, sg4::Engine::get_clock());
  }
  /** @brief A node's agent started or stopped doing its part of a recovery. */
  void set_recovering(NodeId endpoint, bool recovering) override;
  /** @brief Ends the recoveries that only waited for quiescence (recovery_needs_quiescence). */
  void recheck_recoveries() override;
  /** @brief Ends the run if every endpoint is quiet and nothing is on the wire or recovering. */
  bool try_terminate() override;
  bool over() const override { return ending_.end.over(); }

  // ---- failures ----
  void notice_processed(FailureId id, NodeId node) override;
  void restart_complete(FailureId id, NodeId node) override;
  void node_recovered(FailureId up_to, NodeId node) override;
  /** @brief @p node restored a state: counted in every recovery under way (processes rolled back
   *  per failure, the figure that tells global, hierarchical and logging protocols apart). */
  void node_rolled_back(NodeId node, double state_date) override;
  void unrecoverable(NodeId node, const std::string& what) override;

 private:
  // What the Run's own files read of its parts.
  int num_nodes() const { return platform_.layout.num_nodes(); }
  int num_endpoints() const { return num_nodes() + static_cast<int>(protocol_.services.size()); }
  sg4::Host* host_of(NodeId endpoint) const { return wire_.host_of(endpoint); }
  std::string endpoint_name(NodeId endpoint) const;

  /** @brief Tells the termination whether a failed node waits for its restart or detection. */
  void update_engine_waiting();
  /** @brief No protocol control message on the wire and no agent recovering. */
  bool quiescent() const { return ending_.termination.quiescent(wire_.control_messages()); }
  /** @brief A failure event striking @p victims (nodes, or hosts under shrink; one or many)
   *  arrives now (@p released: deferred until now); they stay down @p repair seconds once struck. */
  void failure_arrival(std::vector<NodeId> victims, double repair, bool released = false, bool fenced = false);
  /** @brief The work endpoint @p e had done when its last failure struck: what a restarted
   *  process loses at its first rollback; 0 for a service (it computes nothing, and the record is
   *  kept for computing processes only). */
  double death_work(NodeId e) const { return e < num_nodes() ? endpoints_.death_work[e] : 0.0; }

  // ---- placement of processes on hosts (failures.restart; sim/engine/placement.cpp) ----
  /** @brief Processes sharing @p node's host, @p node included (1 unless shrink doubled it up):
   *  each computes at the host's speed divided by this. */
  int cpu_share(NodeId node) const;

  void create_actors();
  /** @brief Warns when failures come, on average, before a recovery can end (the source's mean gap
   *  below downtime + detection + restart overhead). */
  void warn_of_failure_rate();
  /** @brief Warns that the failure log accounted for in @p log gave no failure to the run. */
  void warn_of_empty_log(const nlohmann::ordered_json& log);
  /** @brief Sizes SimGrid's contexts for this run's actors (run_contexts.cpp); InputError when
   *  they cannot fit. Before the first actor exists. */
  void plan_contexts_for_run();
  nlohmann::ordered_json contexts_json() const;
  /** @brief Chooses SimGrid's max-min precision for the platform (run_precision.cpp); InputError
   *  when none fits. Once the platform exists, before the simulation. */
  void plan_precision_for_run();
  nlohmann::ordered_json precision_json() const;
  // run_watchdog.cpp: a run that cannot progress ends as stuck (sim/engine/watchdog.hpp).
  void start_watchdog();
  /** @brief Whether the run is held open now (every process finished, no recovery, no deferred
   *  failure): the watchdog counts that time. */
  void update_held();
  void end_stuck(const ProgressVerdict& verdict);
  /** @brief What the watchdog's rules read now. */
  ProgressState progress_state() const;
  /** @brief Ends the run now for @p reason: every actor is killed. */
  void end_run(RunEnd::Reason reason, std::string why = {});
  std::string pending_report() const;
  void release_deferred();
  void report_progress();
  /** @brief Strikes @p victims (processes, increasing order) at once: one failure, one recovery. */
  void strike(const std::vector<NodeId>& victims, double repair, bool work_recorded = false, bool fenced = false);
  /** @brief Holds the failure event of @p victims (nodes, or hosts under shrink) while a recovery
   *  runs and the overlap policy says so; true when held. */
  bool defer(const std::vector<NodeId>& victims, double repair, bool fenced = false);
  // run_suspicions.cpp: heartbeat suspicion of the nodes a partition cuts off from the monitor.
  /** @brief After a link change or a restart: whose heartbeats stop or start getting through. */
  void check_routes();
  /** @brief The nodes silent for the timeout are suspected now: fenced (one failure event). */
  void suspect();
  /** @brief The fenced nodes of failure @p id are repaired: they restart once they reach the
   *  monitor again. */
  void restart_when_routed(FailureId id);
  bool routed_to_monitor(NodeId n) const;
  void detect(FailureId id);
  void restart(FailureId id);
  /** @brief Acts on what the tracker decides for recovery @p id now: "node back", its end. */
  void maybe_finish_recovery(FailureId id);
  void recovery_done(FailureId id);
  void send_signal(NodeId endpoint, Signal signal);
  /** @brief Starts the network faults: a link failure wakes the senders of transfers under way, a
   *  repair the nodes holding transfers for want of a route. */
  void start_link_faults();
  void start_node(NodeId endpoint, bool restarted, FailureNotice notice);
  /** @brief The energy the processes drew (docs/MODEL.md, "Energy"): total and per state, joules,
   *  and the process-seconds in each state. */
  nlohmann::ordered_json energy_json() const;
  RunResult collect(double wall_seconds);
  bool overlapping_allowed() const;
  void end_unrecoverable(const std::string& why, nlohmann::ordered_json fields);
  // placement.cpp
  bool shrinking() const { return inputs_.topology.failures.restart == RestartPlacement::Shrink; }
  void init_placement();
  void shrink_failure_arrival(const std::vector<int>& hosts, double repair);
  bool place_restart(NodeId victim);
  void share_host(int host);

  /** @brief The protocol of the run and the services (non-computing endpoints) it asked for. */
  struct ProtocolInstance {
    std::unique_ptr<ProtocolModule> module;
    std::vector<ServiceSpec> services;
  };
  /** @brief The plan of SimGrid's execution contexts for this run, and the factory in use. */
  struct ContextChoice {
    ContextPlan plan;
    std::string factory;
  };

  // The Run's parts, each owning one concern; the Run acts on them with SimGrid.
  RunInputs inputs_;
  std::unique_ptr<sg4::Engine> engine_;
  Platform platform_;
  std::unique_ptr<Workload> workload_;
  ProtocolInstance protocol_;
  Observation observe_;
  Endpoints endpoints_;
  LinkFaults links_{platform_, inputs_.topology, observe_};
  WireService wire_{platform_, endpoints_, observe_, ending_, links_};
  RendezvousService rendezvous_{endpoints_, wire_};
  ContextChoice contexts_;
  PrecisionPlan precision_;
  Ending ending_;
  FailureState failures_;
  StorageService storage_{
      {inputs_.topology, platform_, endpoints_, wire_, observe_, ending_, failures_.recoveries},
      [this](const std::string& why, nlohmann::ordered_json fields) { end_unrecoverable(why, std::move(fields)); }};
  std::unique_ptr<NodeEnv> node_env_; // what every node is given (after prepare)
};

} // namespace ckptsim
