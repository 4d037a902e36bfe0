/* One simulated node (or protocol service): a SimGrid actor running an event loop. It owns the
 * node's application (AppExecutor), its protocol agent, one pending receive on its mailbox, its
 * outgoing sends (Outbox), its checkpoint transfers (CheckpointTransfers) and a small agenda of
 * local deadlines (end of the current computation, protocol timers). Computation is simulated
 * time at the node's speed; a pause stops the work clock.
 * Files: node_runtime.cpp (the loop and dispatch), node_app.cpp (driving the application),
 * node_messages.cpp (messages out and in, with their statistics, trace and oracle records). */
#pragma once

#include "sim/net/comm_proxies.hpp"
#include "sim/node/app_executor.hpp"
#include "sim/node/checkpoint_transfers.hpp"
#include "sim/node/outbox.hpp"
#include "sim/node/ports.hpp"
#include "sim/protocol/protocol.hpp"

#include <simgrid/s4u.hpp>

#include <map>

namespace ckptsim {

namespace sg4 = simgrid::s4u;

/** @brief How a node's actor starts: which endpoint, after which failure, on what share of its
 *  host and with the work its process had done when it died (what its first rollback loses). */
struct NodeStart {
  NodeId id = -1;
  bool restarted = false;
  FailureNotice notice;
  int cpu_share = 1;
  double death_work = 0;
};

class NodeRuntime : public NodeContext {
 public:
  NodeRuntime(NodeEnv& env, const NodeStart& start);
  ~NodeRuntime() override;
  /** @brief The actor's body. */
  void operator()();

  // NodeContext
  NodeId self() const override { return id_; }
  ClusterId cluster() const override { return cluster_; }
  Incarnation incarnation() const override { return inc_; }
  const FederationLayout& layout() const override;
  double now() const override;
  void send_app(const AppMessage& msg, PayloadPtr piggyback) override;
  void resend_app(const AppMessage& msg, PayloadPtr piggyback) override;
  void deliver(const AppMessage& msg, const PayloadPtr& piggyback = nullptr) override;
  void redeliver(const AppMessage& msg) override;
  void record_send(const AppMessage& msg) override;
  void promise_send(NodeId dst, std::uint64_t seq) override;
  void pause_app() override;
  void resume_app() override;
  bool stop_app_between_steps() override;
  const AppState& app_state() const override { return *app_.state(); }
  bool app_finished() const override { return service_ || app_.finished(); }
  void send_control(NodeId to, ControlMessage msg) override;
  void set_timer(int id, double date) override { timers_[id] = date; }
  void cancel_timer(int id) override { timers_.erase(id); }
  double timer_period(const std::string& name) const override;
  Snapshot snapshot(std::any protocol_state) override;
  Snapshot initial_snapshot() override;
  void restore(const Snapshot& s, const std::string& reason) override;
  void save_checkpoint(std::uint64_t number, Snapshot s) override { transfers_.save(number, std::move(s)); }
  void load_checkpoint(std::uint64_t number) override { transfers_.load(number); }
  std::optional<std::uint64_t> recovery_line(const std::vector<std::uint64_t>& numbers) override;
  void discard_checkpoint(std::uint64_t number) override { transfers_.discard(number); }
  void replicate_checkpoint(std::uint64_t number) override { transfers_.replicate(number); }
  double checkpoint_bytes() const override;
  double restart_overhead() const override;
  void unrecoverable(const std::string& what) override;
  void restart_complete() override;
  void recovered(FailureId id) override;
  Stats& stats() override;
  void trace_event(int level, const char* event, nlohmann::ordered_json fields = {}) override;

  // ---- what the engine asks of a node ----
  /** @brief A failure struck this incarnation (its actor dies at its next SimGrid call). */
  bool dead() const;
  /** @brief @p processes now share this node's host (shrink placement): the work done so far is
   *  accounted at the old speed, the rest of the step runs at full speed / @p processes. */
  void set_cpu_share(int processes);
  /** @brief Work done so far, for the engine's lost-work accounting when the node is killed. */
  double current_work() const { return app_.work_done(now()); }
  /** @brief The protocol paused the application (the watchdog's report of a stuck run). */
  bool app_paused() const { return app_.paused(); }
  bool app_waiting() const { return app_.waiting(); }
  /** @brief Messages the application produced and holds until their receives are posted. */
  std::size_t app_held() const { return service_ || !app_.state() ? 0 : app_.state()->held.size(); }
  /** @brief What the agent waits for (the watchdog's report of a stuck run). */
  std::string pending() const { return agent_->pending(); }
  /** @brief The node's actor (a rendezvous wake-up is sent on its behalf). */
  sg4::Actor* actor() const { return actor_; }
  /** @brief The run ended: the checkpoint transfers under way are cancelled (the actor is killed next). */
  void abandon_transfers() { transfers_.abandon(); }
  /** @brief It holds a message for @p receiver that @p receiver has now posted the receive of. */
  bool holds_posted_for(NodeId receiver) const;

 private:
  // node_runtime.cpp: the loop
  void loop();
  void post_receive();
  void post_bell();
  void wait_and_dispatch(double timeout);
  void handle(std::unique_ptr<Envelope> env);
  void handle_signal(const Envelope& env);
  void fire_due();
  void update_quiet();
  const char* process_state() const; // LifecyclePort::set_state's vocabulary
  void report_io();
  void cleanup();
  // node_app.cpp: the application
  void pump();                               // start the next computation step when the application may run
  void start_step();                         // run the application's zero-time actions, start the next computation
  void send_produced(const AppMessage& msg); // hold it (rendezvous) or release it
  void release(const AppMessage& msg);       // the protocol sends it now
  void release_held();                       // what receivers have posted for
  void send_done(std::uint64_t awaited);     // an awaited transfer ended
  void finish_step();
  void sync_finished();
  // node_messages.cpp
  bool post_app(const AppMessage& msg, PayloadPtr piggyback, const char* counter, const char* matrix, int trace_level,
                const char* event, std::uint64_t awaited = Outbox::kNotAwaited);

  NodeEnv& env_;
  const NodeId id_;
  const bool service_;
  const ClusterId cluster_;
  const Incarnation inc_;
  const bool restarted_;
  const FailureNotice notice_;

  std::unique_ptr<Agent> agent_;
  AppExecutor app_;
  std::uint64_t restores_ = 0;
  std::map<int, double> timers_;
  Outbox outbox_;
  CheckpointTransfers transfers_;
  sg4::Mailbox* mailbox_ = nullptr;
  sg4::CommPtr recv_;
  std::vector<sg4::CommPtr> waited_; // the comms of the current wait (empty between waits)
  std::uint64_t seen_cuts_ = 0;      // link failures so far, when the node last waited for its sends
  CommProxies::ProxyPtr recv_via_;
  Envelope* recv_buf_ = nullptr;
  // Rendezvous kinds: the pending receive on the node's bell (WirePort::bell), woken up by receivers.
  sg4::Mailbox* bell_mb_ = nullptr;
  sg4::CommPtr bell_;
  void* bell_buf_ = nullptr;
  bool stop_ = false;
  sg4::Actor* actor_ = nullptr;
};

/** @brief The trace fields of an application message (and of its piggyback). */
nlohmann::ordered_json message_fields(const AppMessage& m, const PayloadPtr& piggyback = nullptr);

} // namespace ckptsim
