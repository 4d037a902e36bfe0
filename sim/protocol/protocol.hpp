/* The protocol interface. A protocol is a module registered by name (protocols/<name>/) that
 * creates one Agent per endpoint: one per computing node, plus the non-computing services it
 * asks for (a coordinator...). An agent sees its node only through NodeContext, which the engine
 * implements and unit tests fake, so protocol decisions are testable without SimGrid.
 *
 * The contract is this folder, and a protocol includes nothing else of sim/ (tests/check_layers.py):
 *   protocol.hpp  Agent, NodeContext, ProtocolModule, ProtocolSetup, the protocol registry;
 *   ids.hpp, messages.hpp, errors.hpp, layout.hpp  the engine's types a protocol names (NodeId...,
 *                 AppMessage / ControlMessage / Payload, InputError, FederationLayout), re-exported;
 *   dataflow.hpp  the task graph of a data-flow application (cck, taskgraph), any kind's;
 *   storage.hpp   what a protocol asks of the storage placement when it is set up. */
#pragma once

#include "sim/app/workload.hpp"
#include "sim/config/registry.hpp"
#include "sim/config/timers.hpp"
#include "sim/config/topology.hpp"
#include "sim/net/envelope.hpp"
#include "sim/observe/stats.hpp"
#include "sim/platform/layout.hpp"

#include <algorithm>
#include <any>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ckptsim {

struct HistoryMark; // the engine's (sim/observe/oracle.hpp)

/** @brief A copy of a node's state: what a checkpoint saves and a rollback restores. */
struct Snapshot {
  AppStateValue app; // the application state (empty for services)
  std::any protocol; // the protocol's own state, a value chosen by the protocol
  double date = 0;   // when it was taken
  // Engine bookkeeping: where the node's history stood (none: the initial state). While a copy
  // lives it keeps the consistency oracle from folding what a restore of it would undo.
  std::shared_ptr<const HistoryMark> history;
};

/** @brief A failure event as a node hears of it. One event may strike many nodes at once (a rack,
 *  a cluster, a site): they are struck at one date, restart together, and the whole event is
 *  one recovery (one notice to each survivor, one on_restart per victim, one "node back"). */
struct FailureNotice {
  FailureId id = 0;
  std::vector<NodeId> victims{}; // every node the failure struck, in increasing order
  double date = 0;               // when the failure struck
  FailureId latest = 0;          // on a restart: the newest failure the detector knows of (own included)
  std::vector<FailureId> down{}; // on a restart: other detected failures whose victims are not all back
  /** @brief @p n is one of the victims. */
  bool struck(NodeId n) const { return std::find(victims.begin(), victims.end(), n) != victims.end(); }
};

/** @brief What a protocol agent may do on its node. */
class NodeContext {
 public:
  virtual ~NodeContext() = default;
  virtual NodeId self() const = 0;
  virtual ClusterId cluster() const = 0; // -1 for a service
  virtual Incarnation incarnation() const = 0;
  virtual const FederationLayout& layout() const = 0;
  virtual double now() const = 0;

  // Application side. send_app puts a message of the application on the wire (the oracle records
  // the send); resend_app re-sends a message already sent (a replay from a log); deliver hands a
  // message to the application.
  virtual void send_app(const AppMessage& msg, PayloadPtr piggyback) = 0;
  virtual void resend_app(const AppMessage& msg, PayloadPtr piggyback) = 0;
  virtual void deliver(const AppMessage& msg, const PayloadPtr& piggyback = nullptr) = 0;
  /** @brief A re-executed receive (CCK's partial restart): the message was delivered to this
   *  process before and that delivery is kept; the application gets it again, the oracle checks it
   *  is the same message and records no second delivery. */
  virtual void redeliver(const AppMessage& msg) = 0;
  /** @brief A re-executed send whose message the receiver still holds (CCK's restarted process
   *  does not send again what a non-failed process received, thesis 4.3.3): recorded by the
   *  oracle as sent, nothing goes on the wire. */
  virtual void record_send(const AppMessage& msg) = 0;
  /** @brief This restored process will re-execute its send of message @p seq to @p dst (undone by
   *  the rollback, still delivered at its receiver): until then the oracle counts it as sent;
   *  record_send or send_app keeps the promise, and the final check requires it kept. */
  virtual void promise_send(NodeId dst, std::uint64_t seq) = 0;
  virtual void pause_app() = 0;
  virtual void resume_app() = 0;
  /** @brief Stops the application between two computation steps: at once (true) when no step is
   *  under way, else when the current one ends (false; Agent::on_app_stopped follows). */
  virtual bool stop_app_between_steps() = 0;
  /** @brief The application state (computing nodes only). */
  virtual const AppState& app_state() const = 0;
  virtual bool app_finished() const = 0;

  /** @brief Sends a protocol message to another endpoint (counted by type in the statistics). */
  virtual void send_control(NodeId to, ControlMessage msg) = 0;

  /** @brief One-shot local timers, by protocol-chosen id; setting an id again moves it. */
  virtual void set_timer(int id, double date) = 0;
  virtual void cancel_timer(int id) = 0;
  /** @brief A period from the timer file for this node (inf when never). */
  virtual double timer_period(const std::string& name) const = 0;

  /** @brief A copy of the current application state plus the protocol's @p protocol_state. */
  virtual Snapshot snapshot(std::any protocol_state) = 0;
  /** @brief The state of a fresh process (before any computation). */
  virtual Snapshot initial_snapshot() = 0;
  /** @brief Rolls the node back to @p s: lost work accounted, oracle history truncated, traced. */
  virtual void restore(const Snapshot& s, const std::string& reason) = 0;

  /** @brief Saves checkpoint @p number of this node: the copy in its own memory at once, the
   *  storage model's remote copies by transfers on the network; Agent::on_saved follows when
   *  every copy is complete. */
  virtual void save_checkpoint(std::uint64_t number, Snapshot s) = 0;
  /** @brief Loads checkpoint @p number: from this node's memory if it still has it, else from a
   *  surviving remote copy (a transfer); Agent::on_loaded follows. When no copy survives, the
   *  run ends as unrecoverable. */
  virtual void load_checkpoint(std::uint64_t number) = 0;
  /** @brief Brings checkpoint @p number back to full redundancy after a failure destroyed
   *  copies: the storage model's remote copies a restarted holder lost, sent from this node's
   *  memory, or, on a restarted node, its own copy fetched from a holder. Transfers, with no
   *  callback; nothing happens for copies that exist or holders that are down. */
  virtual void replicate_checkpoint(std::uint64_t number) = 0;
  /** @brief The recovery line of a global restart (RLFFN of the "replicated" storage model, valid
   *  under any): the newest of @p numbers such that every computing node's checkpoint of that
   *  number still has a complete copy on a live holder; 0 stands for the initial state, always
   *  there. When there is none the run ends as unrecoverable, naming the failed nodes and the
   *  numbers searched, and nullopt is returned. Traced ("recovery_line"). */
  virtual std::optional<std::uint64_t> recovery_line(const std::vector<std::uint64_t>& numbers) = 0;
  /** @brief Frees checkpoint @p number everywhere (garbage collection). */
  virtual void discard_checkpoint(std::uint64_t number) = 0;
  /** @brief Bytes of this node's checkpoint (its cluster's checkpoint size). */
  virtual double checkpoint_bytes() const = 0;

  /** @brief The failure model's restart overhead (seconds) paid by a restarted process. */
  virtual double restart_overhead() const = 0;
  /** @brief The run cannot recover: what it needs was lost with the victims of a failure (a
   *  log held in a failed node's memory...). Ends the run with status "unrecoverable", @p what
   *  naming what was lost. */
  virtual void unrecoverable(const std::string& what) = 0;
  /** @brief This restarted node is running again (after reloading its state). */
  virtual void restart_complete() = 0;
  /** @brief This node has done its part of the recovery of every failure up to @p id (rolled
   *  back, or decided not to). With ProtocolModule::nodes_report_recovery, a recovery ends when
   *  the victim has restarted and every node has reported. */
  virtual void recovered(FailureId id) = 0;

  virtual Stats& stats() = 0;
  /** @brief Emits a trace event with the node and date filled in. */
  virtual void trace_event(int level, const char* event, nlohmann::ordered_json fields = {}) = 0;
};

/** @brief A protocol's behaviour on one endpoint. Default handlers pass messages straight through. */
class Agent {
 public:
  virtual ~Agent() = default;
  /** @brief The run starts (date 0). */
  virtual void on_start(NodeContext& /*ctx*/) {}
  /** @brief This node restarted after its own failure (a fresh process on a fresh incarnation). */
  virtual void on_restart(NodeContext& ctx, const FailureNotice& own) = 0;
  /** @brief The application emits a message. */
  virtual void on_app_send(NodeContext& ctx, const AppMessage& msg) { ctx.send_app(msg, nullptr); }
  /** @brief An application message arrives (channels are FIFO already). */
  virtual void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) { ctx.deliver(msg, pb); }
  virtual void on_control(NodeContext& /*ctx*/, NodeId /*from*/, const ControlMessage& /*msg*/) {}
  virtual void on_timer(NodeContext& /*ctx*/, int /*id*/) {}
  /** @brief The failure detector reports the failure of another node. */
  virtual void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) = 0;
  /** @brief A save_checkpoint is complete (every copy made, or as many as survived). */
  virtual void on_saved(NodeContext& /*ctx*/, std::uint64_t /*number*/) {}
  /** @brief A load_checkpoint is complete: @p s is the checkpoint's content. */
  virtual void on_loaded(NodeContext& /*ctx*/, std::uint64_t /*number*/, const Snapshot& /*s*/) {}
  /** @brief The victim of a failure this node was told of is running again (its restart is
   *  complete and the failure detected): every node, the victim included, gets this once. */
  virtual void on_node_back(NodeContext& /*ctx*/, const FailureNotice& /*notice*/) {}
  /** @brief The application stopped between two steps, as stop_app_between_steps asked. */
  virtual void on_app_stopped(NodeContext& /*ctx*/) {}
  /** @brief The application reached a program-order point (Workload::next_point), between two
   *  steps and before the next one starts: a stop_app_between_steps() or pause_app() here stops
   *  it exactly at the point. */
  virtual void on_app_point(NodeContext& /*ctx*/, const AppPoint& /*point*/) {}
  /** @brief The application has done all its work. */
  virtual void on_app_finished(NodeContext& /*ctx*/) {}
  /** @brief No protocol action is under way (the run may end when every endpoint is idle). */
  virtual bool idle() const { return true; }
  /** @brief What this agent waits for when it is not idle, in a few words naming the nodes
   *  ("GC round 3 waits for c1-0"): the engine's report when a run cannot progress. "" when
   *  it has nothing to name. */
  virtual std::string pending() const { return {}; }
  /** @brief This node is still doing its part of a recovery (see
   *  ProtocolModule::recovery_needs_quiescence). */
  virtual bool recovering() const { return false; }
};

/** @brief A non-computing endpoint a protocol asks for (it runs on the controller host). */
struct ServiceSpec {
  std::string name; // "coordinator"
};

struct ProtocolSetup {
  const FederationLayout* layout = nullptr;
  const Topology* topology = nullptr;
  std::map<std::string, std::string> params; // --param key=value
  std::string topology_file;                 // to name it in an InputError
  const Workload* workload = nullptr;        // the application's logic (data-flow protocols read its graph)
  std::string application_file;              // to name it in an InputError
};

/** @brief How a protocol uses the stored checkpoints (what a multi-level storage model checks). */
enum class StorageUse {
  NewestLine,  // restores the newest line every node can load among the saves it keeps (coordinated)
  ClusterLine, // restores the checkpoint its own rules choose; a cluster's nodes save each number together
  Chosen,      // restores the checkpoint its own rules choose; each process saves on its own
  Fixed,       // relies on one remote copy per save, where its model puts it (cck, taskgraph)
};

class ProtocolModule {
 public:
  virtual ~ProtocolModule() = default;
  /** @brief Whether a failure may strike while a recovery runs (OverlapPolicy::Protocol). A
   *  protocol that does not tolerate it refuses "overlap": "allow" (an input error). */
  virtual bool tolerates_overlapping_failures() const { return true; }
  /** @brief false: a recovery ends when the victim has restarted and every node has processed the
   *  failure notice (enough when nodes roll back on the notice itself). true: it ends when, in
   *  addition, every computing node has called NodeContext::recovered (protocols whose rollback
   *  follows later messages, such as a coordinator's order). */
  virtual bool nodes_report_recovery() const { return false; }
  /** @brief true: a recovery also waits until no control message of the protocol is on the wire
   *  and no agent is recovering() (protocols whose recovery spreads by messages to a fixed
   *  point, such as HC3I's rollback alerts). */
  virtual bool recovery_needs_quiescence() const { return false; }
  virtual std::vector<ServiceSpec> services() const { return {}; }
  /** @brief The storage model used when the topology names none. */
  virtual std::string default_storage() const { return "servers"; }
  /** @brief How it uses the stored checkpoints. */
  virtual StorageUse storage_use() const { return StorageUse::Chosen; }
  /** @brief The agent of computing node @p node, or of service number @p node - N. */
  virtual std::unique_ptr<Agent> make_agent(NodeId node, bool service) const = 0;
  /** @brief Protocol-specific lines of the summary (after the engine's). */
  virtual void summarize(const Stats& /*stats*/, std::string& /*out*/) const {}
};

/** @brief A boolean --param (true/1/yes, false/0/no), @p fallback when absent; InputError otherwise. */
bool bool_param(const ProtocolSetup& setup, const std::string& key, bool fallback = false);

/** @brief Message logs in volatile memory, summed over the nodes, under names every protocol
 *  shares (counters log.entries, log.bytes and their maxima log.entries_max, log.bytes_max), so
 *  that protocols are compared on one figure: call with what node @p node's log holds now (a
 *  restarted node calls it with its restored log, which replaces its dead incarnation's). */
void count_logged(Stats& stats, NodeId node, double entries, double bytes);

using ProtocolFactory = std::function<std::unique_ptr<ProtocolModule>(const ProtocolSetup&)>;

// A protocol's registration: `const ProtocolRegistration r{{name, description, factory, params}};`
// in its folder (members after params default-initialized, so that registrations list only what
// they set).
struct ProtocolInfo {
  std::string name;
  std::string description;
  ProtocolFactory factory;
  std::vector<std::pair<std::string, std::string>> params; // name, description (with default)
  int rank = 0; // position in listings and in the message naming the valid protocols (then by name)
  /** @brief The protocol `ckptsim run` and `validate` use when none is named (one protocol only). */
  bool runs_by_default = false;
  /** @brief Whether `ckptsim compare` runs it when no --protocols list is given, and with which
   *  parameters ("KEY=VALUE[:KEY=VALUE...]", "" for its defaults). */
  std::optional<std::string> compared_by_default = std::nullopt;

  /** @brief What a run naming an unknown protocol is told (the registry's lookups). */
  static std::string unknown(const std::string& name, const std::vector<std::string>& valid);
};

/** @brief The protocols, filled by static registrations (sim/config/registry.hpp). */
using ProtocolRegistry = Registry<ProtocolInfo>;
using ProtocolRegistration = Registration<ProtocolInfo>;

} // namespace ckptsim
