/* One simulation: the engine's shared infrastructure. It owns the platform, the workload, the
 * protocol module, the statistics, the trace and the oracle, and keeps the directory of node
 * incarnations. Its parts are plain bookkeeping, each with its own file and unit test: the
 * envelopes on the wire (WireRegistry, wire.hpp), the recoveries and when they move on
 * (RecoveryTracker), quiescence, termination and how the run ended (Termination, RunEnd). The
 * Run acts on what they decide with SimGrid: the failure lifecycle (run_failures.cpp), placement
 * (placement.cpp), the watchdog (run_watchdog.cpp), storage (run_storage.cpp), the results
 * document (run_results.cpp). Nodes (sim/node) reach each other only through simulated messages;
 * the Run is the engine, not a channel between protocols. */
#pragma once

#include "sim/engine/contexts.hpp"
#include "sim/engine/recovery_tracker.hpp"
#include "sim/engine/rendezvous.hpp"
#include "sim/engine/run_config.hpp"
#include "sim/engine/termination.hpp"
#include "sim/engine/wire.hpp"
#include "sim/failures/source.hpp"
#include "sim/net/comm_proxies.hpp"
#include "sim/observe/oracle.hpp"
#include "sim/observe/paje.hpp"
#include "sim/observe/trace.hpp"
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

class Run {
 public:
  /** @brief Parses and validates the inputs (InputError on bad input); nothing is simulated yet. */
  explicit Run(RunConfig config);
  ~Run();
  /** @brief Creates the SimGrid engine and platform, reads the inputs that depend on it and the
   *  protocol (InputError on bad input). @p simgrid_argv: program name + --cfg/--log options. */
  void prepare(std::vector<std::string> simgrid_argv);
  /** @brief Simulates (after prepare) and collects the results. */
  RunResult simulate();

  // ---- used by node runtimes ----
  const RunConfig& config() const { return config_; }
  const Topology& topology() const { return topology_; }
  const Application& application() const { return application_; }
  const Timers& timers() const { return timers_; }
  const FederationLayout& layout() const { return platform_.layout; }
  const Workload& workload() const { return *workload_; }
  const ProtocolModule& protocol() const { return *protocol_; }
  Stats& stats() { return stats_; }
  Trace& trace() { return trace_; }
  ConsistencyOracle& oracle() { return oracle_; }
  int num_nodes() const { return platform_.layout.num_nodes(); }
  int num_endpoints() const { return num_nodes() + static_cast<int>(services_.size()); }
  sg4::Host* host_of(NodeId endpoint) const;
  std::string endpoint_name(NodeId endpoint) const;

  sg4::Mailbox* mailbox(NodeId endpoint, Incarnation inc) const;
  Incarnation incarnation(NodeId endpoint) const { return incarnation_[endpoint]; }
  bool is_up(NodeId endpoint) const { return up_[endpoint]; }
  /** @brief Incarnation @p inc of @p endpoint still runs. A failure may strike a node while its
   *  actor is between two SimGrid calls (another actor struck it at the same date); the actor is
   *  killed at its next call, and until then nothing it does may reach the run. */
  bool alive(NodeId endpoint, Incarnation inc) const { return up_[endpoint] && incarnation_[endpoint] == inc; }

  /** @brief Puts an envelope on the wire to the current incarnation of its destination. Returns
   *  the comm, or null when the destination is down (the message is lost, as in a real crash);
   *  @p via receives the proxy the comm was started through (see CommProxies). */
  std::pair<std::uint64_t, sg4::CommPtr> post(std::unique_ptr<Envelope> env, CommProxies::ProxyPtr& via);
  /** @brief The receiver takes ownership of an envelope it got from the wire; null when the
   *  envelope was lost with its failed sender at the very date its transfer ended. */
  std::unique_ptr<Envelope> take(Envelope* env);
  /** @brief The sender saw its comm fail. */
  void drop(std::uint64_t wire_id);

  void register_runtime(NodeId endpoint, NodeRuntime* rt);
  void unregister_runtime(NodeId endpoint, NodeRuntime* rt);

  // ---- rendezvous sends (Workload::rendezvous; run_rendezvous.cpp) ----
  /** @brief Whether the receiver of @p msg has posted the receive that takes it (false while the
   *  receiver is down). The engine stands for SMPI's mailbox here: matching is instantaneous. */
  bool receive_posted(const AppMessage& msg) const;
  /** @brief @p holder holds a message for @p receiver until its receive is posted. */
  void await_post(NodeId receiver, NodeId holder) { rendezvous_.await(receiver, holder); }
  /** @brief @p receiver moved (its application ran, or was restored): the holders whose messages
   *  it now takes are woken up to send them. */
  void posted_by(NodeId receiver);
  /** @brief A node's mailbox for wake-ups, apart from its messages: a node hands over its messages
   *  in the order they reached its mailbox, and a wake-up must not wait behind a long transfer. */
  sg4::Mailbox* bell(NodeId endpoint, Incarnation inc) const;
  /** @brief What a wake-up delivers to a node's bell (never owned, never on the wire). */
  static Envelope* wake_token();
  /** @brief @p holder got its wake-up. */
  void woken(NodeId holder) { rendezvous_.answered(holder); }

  /** @brief A node's application finished (or was rolled back from finished). */
  void set_app_finished(NodeId node, bool finished);
  void set_result_digest(NodeId node, std::uint64_t digest);
  /** @brief A node's quiet status changed (application finished or service, protocol idle). */
  void set_quiet(NodeId endpoint, bool quiet);
  /** @brief What endpoint @p e's process does now ("computing", "waiting", "blocked",
   *  "recovering", "down", "finished": a static string): traced when it changes. */
  void set_state(NodeId e, const char* state);
  /** @brief A node's application started or stopped computing (the watchdog's progress). */
  void set_computing(NodeId node, bool computing);
  /** @brief The application moved forward now: a message of it received, a computation step
   *  ended (the watchdog's progress). */
  /** @brief @p node's application stands at @p work done and @p delivered messages (the
   *  watchdog's measure of progress). */
  void note_progress(NodeId node, double work, std::uint64_t delivered) {
    termination_.note_progress(node, work, delivered, sg4::Engine::get_clock());
  }
  /** @brief Tells the termination whether a failed node waits for its restart or detection. */
  void update_engine_waiting();
  /** @brief Tells the termination whether application messages are on the wire. */
  void note_wire() { termination_.set_app_on_wire(wire_.app_messages() > 0, sg4::Engine::get_clock()); }
  /** @brief A node's agent started or stopped doing its part of a recovery. */
  void set_recovering(NodeId endpoint, bool recovering);
  /** @brief No protocol control message on the wire and no agent recovering. */
  bool quiescent() const { return termination_.quiescent(wire_.control_messages()); }
  /** @brief A transfer restoring a lost checkpoint copy started / ended: part of the recovery. */
  void replica_started() { termination_.replica_started(); }
  void replica_finished() { termination_.replica_finished(); }
  /** @brief Ends the recoveries that only waited for quiescence (recovery_needs_quiescence). */
  void recheck_recoveries();
  /** @brief Ends the run if every endpoint is quiet and nothing is on the wire or recovering. */
  bool try_terminate();
  bool over() const { return end_.over(); }

  // ---- stable storage ----
  CheckpointStore& store() { return store_; }
  std::vector<Holder> remote_holders(NodeId node, std::uint64_t number) const;
  sg4::Host* holder_host(Holder h) const;
  std::string holder_name(Holder h) const;
  bool holder_up(Holder h) const { return is_server(h) || up_[h]; }
  /** @brief No copy of checkpoint @p number of @p node survives: the run ends, and says so. */
  void unrecoverable(NodeId node, std::uint64_t number);
  const StorageModelInfo& storage_model(NodeId node) const;
  /** @brief NodeContext::recovery_line, asked by endpoint @p asker. */
  std::optional<std::uint64_t> recovery_line(NodeId asker, const std::vector<std::uint64_t>& numbers);

  // ---- failures ----
  void failure_arrival(NodeId victim);
  void notice_processed(FailureId id, NodeId node);
  void restart_complete(FailureId id, NodeId node);
  void node_recovered(FailureId up_to, NodeId node);
  /** @brief @p node restored a state: counted in every recovery under way (processes rolled back
   *  per failure, the figure that tells global, hierarchical and logging protocols apart). */
  void node_rolled_back(NodeId node);
  /** @brief The work @p node had done when its last failure struck: what a restarted process
   *  loses at its first rollback. */
  double death_work(NodeId node) const { return death_work_[node]; }

  // ---- placement of processes on hosts (failures.restart; sim/engine/placement.cpp) ----
  /** @brief Processes sharing @p node's host, @p node included (1 unless shrink doubled it up):
   *  each computes at the host's speed divided by this. */
  int cpu_share(NodeId node) const;
  std::uint64_t next_event_count() { return ++events_; }
  CommProxies& proxies() { return proxies_; }

 private:
  void create_actors();
  /** @brief Sizes SimGrid's contexts for this run's actors (run_contexts.cpp); InputError when
   *  they cannot fit. Before the first actor exists. */
  void plan_contexts_for_run();
  nlohmann::ordered_json contexts_json() const;
  // run_watchdog.cpp: a run that cannot progress ends as stuck (sim/engine/watchdog.hpp).
  void start_watchdog();
  /** @brief Whether the run is held open now (every process finished, no recovery, no deferred
   *  failure): the watchdog counts that time. */
  void update_held();
  void end_stuck(const std::string& why);
  /** @brief Ends the run now for @p reason: every actor is killed. */
  void end_run(RunEnd::Reason reason, std::string why = {});
  std::string pending_report() const;
  void release_deferred();
  void report_progress();
  void strike(NodeId victim, bool work_recorded = false);
  /** @brief Holds the failure of @p victim (a node, or a host under shrink) while a recovery runs
   *  and the overlap policy says so; true when held. */
  bool defer(int victim);
  void detect(FailureId id);
  void restart(FailureId id);
  void purge_wire(NodeId dead);
  /** @brief Acts on what the tracker decides for recovery @p id now: "node back", its end. */
  void maybe_finish_recovery(FailureId id);
  void recovery_done(FailureId id);
  void send_signal(NodeId endpoint, Signal signal);
  void start_node(NodeId endpoint, bool restarted, FailureNotice notice);
  void check_consistency(bool final, const std::string& context);
  RunResult collect(double wall_seconds);
  bool overlapping_allowed() const;
  void end_unrecoverable(const std::string& why, nlohmann::ordered_json fields);
  // run_storage.cpp
  StorageContext storage_context() const;
  /** @brief Checks each cluster's storage model on the platform (InputError). */
  void check_storage() const;
  /** @brief Adds what the storage models in use say to the results. */
  void add_storage_results(nlohmann::ordered_json& results) const;
  // placement.cpp
  bool shrinking() const { return topology_.failures.restart == RestartPlacement::Shrink; }
  void init_placement();
  void shrink_failure_arrival(int host);
  bool place_restart(NodeId victim);
  void share_host(int host);

  RunConfig config_;
  std::unique_ptr<sg4::Engine> engine_;
  std::unique_ptr<FailureSource> failures_;
  std::vector<std::uint64_t> digests_; // per node: Workload::result_digest when it last finished
  double wall_start_ = 0;
  double last_progress_ = 0;
  Topology topology_;
  Application application_;
  Timers timers_;
  Platform platform_;
  std::unique_ptr<Workload> workload_;
  std::unique_ptr<ProtocolModule> protocol_;
  std::vector<ServiceSpec> services_;
  Stats stats_;
  Trace trace_;
  PajeWriter paje_;
  std::vector<const char*> state_; // per endpoint: set_state's last value
  void open_paje();                // run_paje.cpp
  ConsistencyOracle oracle_;

  std::vector<int> host_index_; // per process: index of its host in platform_.hosts
  std::vector<bool> host_dead_; // per host: off for good (shrink)
  std::vector<Incarnation> incarnation_;
  std::vector<bool> up_;
  std::vector<NodeRuntime*> runtimes_;
  RendezvousBoard rendezvous_;
  CommProxies::Mode proxy_mode_ = CommProxies::Mode::Auto;
  ContextPlan contexts_;
  std::string context_factory_;
  CommProxies proxies_{[this](NodeId e) { return host_of(e); }, [this](NodeId e) { return bool(up_[e]); }};
  Termination termination_;
  double stall_limit_ = 3600;
  WireRegistry wire_;

  RecoveryTracker recoveries_;
  int nodes_down_ = 0;
  std::deque<NodeId> deferred_;
  std::vector<double> death_work_;

  CheckpointStore store_;
  RunEnd end_;
  std::uint64_t events_ = 0;
  std::size_t violations_ = 0;
  std::size_t checks_ = 0;
};

} // namespace ckptsim
