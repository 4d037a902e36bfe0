/* A NodeContext without SimGrid, for agent-level unit tests of the protocols: the test plays the
 * engine. It owns a clock the test sets, records everything the agent asks (control messages
 * sent, application sends and deliveries, timers, checkpoints saved / loaded / discarded,
 * restores, restart completion, recovery reports, trace events) and answers the agent's
 * questions from fields the test fills in. Nothing is simulated: a save is complete when the test
 * calls the agent's on_saved, a message arrives when the test calls on_control. */
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

class FakeNode : public NodeContext {
 public:
  /** @brief Node @p self of @p layout (a computing node when self < num_nodes(), else a service). */
  FakeNode(const FederationLayout& layout, NodeId self, Incarnation incarnation = 0);

  // ---- what the test sets ----
  double clock = 0;
  double overhead = 0;                   // restart_overhead()
  double ckpt_bytes = 1e6;               // checkpoint_bytes()
  std::map<std::string, double> periods; // timer_period(name); absent: inf
  bool step_under_way = false;           // stop_app_between_steps() answers !step_under_way
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
  std::vector<Control> controls;
  std::vector<std::pair<AppMessage, PayloadPtr>> app_sent, app_resent, delivered;
  std::vector<AppMessage> redelivered, recorded_sends;
  std::vector<std::pair<NodeId, std::uint64_t>> promises;
  std::map<int, double> timers;
  std::map<std::uint64_t, Snapshot> saved; // save_checkpoint: number -> content
  std::vector<std::uint64_t> saves, loads, replications, discards;
  std::vector<Restore> restores;
  std::vector<FailureId> reported; // recovered(id)
  int restarts_completed = 0;
  bool paused = false;
  bool stopped = false;
  std::vector<std::string> events; // trace_event names, in order
  Stats statistics;

  /** @brief The control messages sent since the last call, then forgets them. */
  std::vector<Control> take_controls() { return std::exchange(controls, {}); }
  /** @brief Names of the control messages sent (ControlMessage::type), in order. */
  std::vector<std::string> control_names() const;
  /** @brief The date of timer @p id, or -1 when it is not set. */
  double timer(int id) const;

  // ---- NodeContext ----
  NodeId self() const override { return self_; }
  ClusterId cluster() const override { return cluster_; }
  Incarnation incarnation() const override { return incarnation_; }
  const FederationLayout& layout() const override { return layout_; }
  double now() const override { return clock; }
  bool is_service() const override { return self_ >= layout_.num_nodes(); }
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
  bool app_paused() const override { return paused || stopped; }
  bool app_finished() const override { return app->finished; }
  double work_done() const override { return app->work_done; }
  void send_control(NodeId to, ControlMessage msg) override { controls.push_back({to, std::move(msg)}); }
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
  void restart_complete() override { restarts_completed++; }
  void recovered(FailureId id) override { reported.push_back(id); }
  Stats& stats() override { return statistics; }
  Trace& trace() override { return trace_; }
  void trace_event(int level, const char* event, nlohmann::ordered_json fields = {}) override;

 private:
  const FederationLayout& layout_;
  NodeId self_;
  ClusterId cluster_;
  Incarnation incarnation_;
  Trace trace_; // closed: agents that write to it directly write nothing
};

/** @brief Every endpoint of a protocol on fake nodes: the agents the module makes (computing
 *  nodes, then its services), each with its FakeNode, and a router that hands the control
 *  messages they send to their destinations in the order sent (FIFO per channel and overall),
 *  instantly. Tests script the rest (timers, saves completing, failures) by calling agents. */
class FakeFederation {
 public:
  FakeFederation(const Topology& topology, const std::string& protocol, std::map<std::string, std::string> params = {},
                 const Workload* workload = nullptr);
  int endpoints() const { return static_cast<int>(agents_.size()); }
  FakeNode& node(NodeId e) { return *nodes_[e]; }
  Agent& agent(NodeId e) { return *agents_[e]; }
  const FederationLayout& layout() const { return layout_; }
  /** @brief Sets every node's clock. */
  void at(double date);
  /** @brief on_start on every endpoint. */
  void start();
  struct Delivered {
    NodeId from, to;
    std::string type;
  };
  /** @brief Routes the control messages sent so far, and those their handling sends, until none
   *  is left (at most @p limit); returns them in delivery order. Messages to an endpoint in
   *  @p cut are dropped (a crashed node's). */
  std::vector<Delivered> route(const std::set<NodeId>& cut = {}, int limit = 10000);
  /** @brief Completes every checkpoint save asked since the last call (Agent::on_saved), except
   *  on the endpoints in @p cut (crashed: their agent is gone). */
  void complete_saves(const std::set<NodeId>& cut = {});

 private:
  Topology topology_;
  FederationLayout layout_;
  std::unique_ptr<ProtocolModule> module_;
  std::vector<std::unique_ptr<FakeNode>> nodes_;
  std::vector<std::unique_ptr<Agent>> agents_;
  std::vector<std::size_t> saves_seen_;
};

/** @brief The module of protocol @p name built as a run would (registry lookup, --param values). */
std::unique_ptr<ProtocolModule> make_module(const std::string& name, const FederationLayout& layout,
                                            const Topology& topology, std::map<std::string, std::string> params = {},
                                            const Workload* workload = nullptr);

} // namespace ckptsim::test_support
