/* A NodeContext without SimGrid, for agent-level unit tests of the protocols: the test plays the
 * engine. It owns a clock the test sets, records everything the agent asks (control messages
 * sent, application sends and deliveries, timers, checkpoints saved / loaded / discarded,
 * restores, restart completion, recovery reports, trace events) and answers the agent's
 * questions from fields the test fills in. Nothing is simulated: a save is complete when the test
 * calls the agent's on_saved, a message arrives when the test calls on_control. FakeFederation
 * does those calls for a whole protocol: a wire, completions, the application's steps, failures. */
#pragma once

#include "sim/protocol/protocol.hpp"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim::test_support {

/** @brief An application state with nothing beyond the common fields. */
class PlainAppState : public AppState {
 public:
  std::unique_ptr<AppState> clone() const override { return std::make_unique<PlainAppState>(*this); }
};

/** @brief A message a fake node put on the wire: a control message, or an application message
 *  sent or re-sent (with its piggyback). */
struct WireMessage {
  enum class Kind { Control, App, Resent };
  Kind kind = Kind::Control;
  NodeId from = -1;
  NodeId to = -1;
  ControlMessage control; // Kind::Control
  AppMessage app;         // Kind::App and Kind::Resent
  PayloadPtr piggyback;
  /** @brief The control message's type, or "app" / "resent". */
  std::string type() const;
};

class FakeNode : public NodeContext {
  Stats own_stats_; // first: `statistics` may refer to it

 public:
  /** @brief Node @p self of @p layout (a computing node when self < num_nodes(), else a service).
   *  Its statistics are @p shared_stats when given (a federation's nodes share them, as the
   *  engine's nodes share the run's), else its own. */
  FakeNode(const FederationLayout& layout, NodeId self, Incarnation incarnation = 0, Stats* shared_stats = nullptr);

  // ---- what the test sets ----
  double clock = 0;
  double overhead = 0;                   // restart_overhead()
  double ckpt_bytes = 1e6;               // checkpoint_bytes()
  std::map<std::string, double> periods; // timer_period(name); absent: inf
  bool step_under_way = false;           // stop_app_between_steps() answers !step_under_way
  /** The application: when set, deliveries go through Workload::deliver and the initial state
   *  (initial_snapshot, a fresh process' app) is the workload's for this node and @c seed. */
  const Workload* workload = nullptr;
  std::uint64_t seed = 1;
  AppStateValue app{std::make_unique<PlainAppState>()};
  /** recovery_line(numbers): by default the newest of them (every copy alive). */
  std::function<std::optional<std::uint64_t>(const std::vector<std::uint64_t>&)> line;

  // ---- what the agent did ----
  struct Control {
    NodeId to;
    ControlMessage msg;
  };
  struct Restore {
    Snapshot snapshot;
    std::string reason;
  };
  std::vector<Control> controls; // every control message sent, in order
  std::vector<std::pair<AppMessage, PayloadPtr>> app_sent, app_resent, delivered;
  std::vector<AppMessage> redelivered, recorded_sends;
  std::vector<std::pair<NodeId, std::uint64_t>> promises;
  std::map<int, double> timers;
  std::map<std::uint64_t, Snapshot> saved; // save_checkpoint: number -> content
  std::vector<std::uint64_t> saves, loads, replications, discards;
  std::vector<Restore> restores;
  std::vector<FailureId> reported; // recovered(id)
  int restarts_completed = 0;
  std::vector<std::string> lost;             // unrecoverable(): what the agent said was lost
  std::function<void()> on_restart_complete; // what the engine would read at that moment
  bool paused = false;
  bool stopped = false;
  std::vector<std::string> events; // trace_event names, in order
  Stats& statistics;
  /** Every message sent (control and application) that the federation's router has not taken
   *  yet, in the order sent. */
  std::vector<WireMessage> outbox;

  /** @brief Names of the control messages sent (ControlMessage::type), in order. */
  std::vector<std::string> control_names() const;
  /** @brief The application is stopped (paused, or stopped between steps). */
  bool app_paused() const { return paused || stopped; }
  /** @brief The date of timer @p id, or -1 when it is not set. */
  double timer(int id) const;
  /** @brief The state of a fresh process: the workload's initial state, or a PlainAppState. */
  AppStateValue fresh_app() const;

  // ---- NodeContext ----
  NodeId self() const override { return self_; }
  ClusterId cluster() const override { return cluster_; }
  Incarnation incarnation() const override { return incarnation_; }
  const FederationLayout& layout() const override { return layout_; }
  double now() const override { return clock; }
  void send_app(const AppMessage& msg, PayloadPtr piggyback) override;
  void resend_app(const AppMessage& msg, PayloadPtr piggyback) override;
  void deliver(const AppMessage& msg, const PayloadPtr& piggyback = nullptr) override;
  void redeliver(const AppMessage& msg) override { redelivered.push_back(msg); }
  void record_send(const AppMessage& msg) override { recorded_sends.push_back(msg); }
  void promise_send(NodeId dst, std::uint64_t seq) override { promises.emplace_back(dst, seq); }
  void pause_app() override { paused = true; }
  void resume_app() override { paused = stopped = false; }
  bool stop_app_between_steps() override;
  const AppState& app_state() const override { return *app; }
  bool app_finished() const override { return app->finished; }
  /** Counted in the statistics as the engine does (ctrl.total, ctrl.<type>). */
  void send_control(NodeId to, ControlMessage msg) override;
  void set_timer(int id, double date) override { timers[id] = date; }
  void cancel_timer(int id) override { timers.erase(id); }
  double timer_period(const std::string& name) const override;
  Snapshot snapshot(std::any protocol_state) override;
  Snapshot initial_snapshot() override;
  void restore(const Snapshot& s, const std::string& reason) override;
  void save_checkpoint(std::uint64_t number, Snapshot s) override;
  void load_checkpoint(std::uint64_t number) override { loads.push_back(number); }
  void replicate_checkpoint(std::uint64_t number) override { replications.push_back(number); }
  std::optional<std::uint64_t> recovery_line(const std::vector<std::uint64_t>& numbers) override;
  void discard_checkpoint(std::uint64_t number) override;
  double checkpoint_bytes() const override { return ckpt_bytes; }
  double restart_overhead() const override { return overhead; }
  void unrecoverable(const std::string& what) override { lost.push_back(what); }
  void restart_complete() override {
    restarts_completed++;
    if (on_restart_complete) on_restart_complete();
  }
  void recovered(FailureId id) override { reported.push_back(id); }
  Stats& stats() override { return statistics; }
  void trace_event(int level, const char* event, nlohmann::ordered_json fields = {}) override;

 private:
  const FederationLayout& layout_;
  NodeId self_;
  ClusterId cluster_;
  Incarnation incarnation_;
};

/** @brief Every endpoint of a protocol on fake nodes: the agents the module makes (computing
 *  nodes, then its services), each with its FakeNode, all sharing one Stats, and a fake wire that
 *  hands the messages they send (control and application) to their destinations instantly, in
 *  the order sent (FIFO per channel and overall). Tests script the rest (timers, saves and loads
 *  completing, the application's sends and steps, failures) by calling the federation or the
 *  agents. */
class FakeFederation {
 public:
  FakeFederation(const Topology& topology, const std::string& protocol, std::map<std::string, std::string> params = {},
                 const Workload* workload = nullptr);
  int endpoints() const { return static_cast<int>(agents_.size()); }
  FakeNode& node(NodeId e) { return *nodes_[e]; }
  Agent& agent(NodeId e) { return *agents_[e]; }
  const FederationLayout& layout() const { return layout_; }
  /** @brief The run's statistics, shared by every node. */
  Stats& stats() { return stats_; }
  struct Delivered {
    NodeId from, to;
    std::string type; // WireMessage::type()
  };
  /** @brief Sets every node's clock. */
  void at(double date);
  /** @brief Fires every timer due at or before @p date, in date order (ties in endpoint order),
   *  each at its own date, then sets every clock to @p date. Messages they send stay on the wire
   *  until route(). Returns the number fired. */
  int advance_to(double date);
  /** @brief Runs the timers due up to @p date one date at a time, each date's followed by
   *  settle(), then sets every clock to @p date; returns the messages delivered. */
  std::vector<Delivered> run_until(double date);
  /** @brief on_start on every endpoint. */
  void start();

  /** @brief Hands the messages sent so far, and those their handling sends, to their destinations
   *  until none is left (at most @p limit); returns them in delivery order. Messages to an
   *  endpoint in @p cut or down (failed, not restarted) are dropped; messages @c hold selects are
   *  kept aside (take_held). */
  std::vector<Delivered> route(const std::set<NodeId>& cut = {}, int limit = 10000);
  /** Messages route() keeps aside instead of delivering (none when empty): to reorder them or to
   *  hold a channel. The engine keeps every channel FIFO: a test that holds a message holds the
   *  later ones of its channel too, or hands it back before anything else is sent on it. */
  std::function<bool(const WireMessage&)> hold;
  /** @brief The messages held so far, in the order sent; forgets them. */
  std::vector<WireMessage> take_held();
  /** @brief Gives @p m to its destination's agent now (its consequences wait for route()). */
  void hand(const WireMessage& m);
  /** @brief Completes every checkpoint save asked since the last call (Agent::on_saved), except
   *  on the endpoints in @p cut (crashed: their agent is gone). */
  void complete_saves(const std::set<NodeId>& cut = {});
  /** @brief Completes every checkpoint load asked since the last call (Agent::on_loaded, with the
   *  content saved under that number; std::logic_error if none was). */
  void complete_loads();
  /** @brief route(), complete_saves() and complete_loads() until nothing is left to do; returns
   *  the messages delivered. */
  std::vector<Delivered> settle();

  /** @brief The application of @p from sends a message of @p size bytes to @p to (its sequence
   *  number from the application state, as a process numbers its messages), through the agent. */
  AppMessage app_send(NodeId from, NodeId to, double size = 1000);
  /** @brief One step of @p p's application (needs the workload): unless it is paused, stopped or
   *  finished, Workload::advance, the agent's on_app_send for each message, then the step's work
   *  done at once (complete_step) and on_app_finished when it finishes. Program-order points are
   *  not announced. Returns whether anything happened. */
  bool run_app(NodeId p);

  /** @brief Node @p victim fails now (failure @p id): its memory, its messages on the wire and
   *  those to it are lost; a fresh agent on a fresh node (next incarnation, the workload's
   *  initial state) waits for restart(); every other endpoint gets the failure notice (detection
   *  is immediate). Stable storage survives: the fresh node keeps the checkpoints saved. */
  FailureNotice fail(NodeId victim, FailureId id) { return fail(std::vector<NodeId>{victim}, id); }
  /** @brief Nodes @p victims fail at once, one failure event (a rack, a cluster): the same for
   *  each, and only the endpoints that are not victims get the notice. */
  FailureNotice fail(const std::vector<NodeId>& victims, FailureId id);
  /** @brief The victims of @p notice restart: Agent::on_restart on each fresh agent. */
  void restart(const FailureNotice& notice);
  /** @brief The victims of @p notice are running again: Agent::on_node_back on every endpoint. */
  void node_back(const FailureNotice& notice);

 private:
  void deliver_message(const WireMessage& m);

  Topology topology_;
  FederationLayout layout_;
  Stats stats_;
  std::unique_ptr<ProtocolModule> module_;
  const Workload* workload_;
  std::vector<std::unique_ptr<FakeNode>> nodes_;
  std::vector<std::unique_ptr<Agent>> agents_;
  std::vector<std::size_t> saves_seen_, loads_seen_;
  std::set<NodeId> down_;
  std::vector<WireMessage> held_;
};

/** @brief The module of protocol @p name built as a run would (registry lookup, --param values). */
std::unique_ptr<ProtocolModule> make_module(const std::string& name, const FederationLayout& layout,
                                            const Topology& topology, std::map<std::string, std::string> params = {},
                                            const Workload* workload = nullptr);

} // namespace ckptsim::test_support
