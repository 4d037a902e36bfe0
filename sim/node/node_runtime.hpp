/* One simulated node (or protocol service): a SimGrid actor running an event loop. It owns the
 * node's application state, its protocol agent, one pending receive on its mailbox, and a small
 * agenda of local deadlines (end of the current computation, protocol timers). Computation is
 * simulated time at the node's speed; a pause stops the work clock. */
#pragma once

#include "sim/net/channels.hpp"
#include "sim/net/comm_proxies.hpp"
#include "sim/protocol/protocol.hpp"

#include <simgrid/s4u.hpp>

#include <map>

namespace ckptsim {

class Run;
namespace sg4 = simgrid::s4u;

class NodeRuntime : public NodeContext {
 public:
  NodeRuntime(Run& run, NodeId id, bool restarted, FailureNotice notice);
  ~NodeRuntime() override;
  /** @brief The actor's body. */
  void operator()();

  // NodeContext
  NodeId self() const override { return id_; }
  ClusterId cluster() const override { return cluster_; }
  Incarnation incarnation() const override { return inc_; }
  /** @brief A failure struck this incarnation (its actor dies at its next SimGrid call). */
  bool dead() const;
  const FederationLayout& layout() const override;
  double now() const override;
  bool is_service() const override { return service_; }
  void send_app(const AppMessage& msg, PayloadPtr piggyback) override;
  void resend_app(const AppMessage& msg, PayloadPtr piggyback) override;
  void deliver(const AppMessage& msg, const PayloadPtr& piggyback = nullptr) override;
  void redeliver(const AppMessage& msg) override;
  void record_send(const AppMessage& msg) override;
  void promise_send(NodeId dst, std::uint64_t seq) override;
  void pause_app() override;
  void resume_app() override;
  bool stop_app_between_steps() override;
  const AppState& app_state() const override { return *app_; }
  bool app_paused() const override { return paused_; }
  bool app_finished() const override { return service_ || app_->finished; }
  double work_done() const override;
  void send_control(NodeId to, ControlMessage msg) override;
  void set_timer(int id, double date) override { timers_[id] = date; }
  void cancel_timer(int id) override { timers_.erase(id); }
  double timer_period(const std::string& name) const override;
  Snapshot snapshot(std::any protocol_state) override;
  Snapshot initial_snapshot() override;
  void restore(const Snapshot& s, const std::string& reason) override;
  void save_checkpoint(std::uint64_t number, Snapshot s) override;
  void load_checkpoint(std::uint64_t number) override;
  std::optional<std::uint64_t> recovery_line(const std::vector<std::uint64_t>& numbers) override;
  void discard_checkpoint(std::uint64_t number) override;
  void replicate_checkpoint(std::uint64_t number) override;
  /** @brief A transfer re-creating a lost copy: to @p peer (outgoing) or from it. */
  void start_replica(std::uint64_t number, int peer, bool outgoing, double bytes);
  double checkpoint_bytes() const override;
  double restart_overhead() const override;
  void restart_complete() override;
  void recovered(FailureId id) override;
  Stats& stats() override;
  Trace& trace() override;
  void trace_event(int level, const char* event, nlohmann::ordered_json fields = {}) override;

  /** @brief @p processes now share this node's host (shrink placement): the work done so far is
   *  accounted at the old speed, the rest of the step runs at full speed / @p processes. */
  void set_cpu_share(int processes);

  /** @brief Work done so far, for the engine's lost-work accounting when the node is killed. */
  double current_work() const { return work_done(); }
  /** @brief What the agent waits for (the watchdog's report of a stuck run). */
  std::string pending() const { return agent_->pending(); }

 private:
  void loop();
  void post_receive();
  void handle(std::unique_ptr<Envelope> env);
  void handle_signal(const Envelope& env);
  void fire_due();
  void progress();   // account the work done since the last accounting
  void pump();       // start the next computation step when the application may run
  void start_step(); // run the application's zero-time actions, start the next computation
  void sync_finished();
  void finish_step();
  double compute_end() const;
  void post(std::unique_ptr<Envelope> env);
  void post_app(const AppMessage& msg, PayloadPtr piggyback, const char* counter, const char* matrix, int trace_level,
                const char* event);
  void update_quiet();
  void cleanup();
  void wait_and_dispatch(double timeout);
  void io_finished(std::size_t index, bool ok);
  void report_io();

  struct PendingIo {
    sg4::CommPtr comm;
    bool save;
    std::uint64_t number;
    int holder;
    bool replica = false; // re-creating a lost remote copy: nobody waits for it
  };

  Run& run_;
  const NodeId id_;
  const bool service_;
  const ClusterId cluster_;
  const Incarnation inc_;
  const bool restarted_;
  const FailureNotice notice_;
  const double full_speed_; // node speed / 1 Gf: work (seconds at 1 Gf) per second
  double speed_factor_;     // full_speed_ shared by the processes on the host (Run::cpu_share)

  std::unique_ptr<Agent> agent_;
  AppStateValue app_;
  bool paused_ = false;
  bool computing_ = false;   // a computation step is under way
  bool waiting_ = false;     // the application waits for a message (a data-flow process)
  bool stop_asked_ = false;  // stop_app_between_steps: pause when the current step ends
  double accounted_at_ = 0;  // date of the last work accounting
  bool fresh_after_failure_; // restarted and not yet restored: the work at death is what is lost
  double work_at_death_ = 0;
  bool finished_reported_ = false;

  std::map<int, double> timers_;
  ChannelSender chan_out_;
  ChannelReceiver chan_in_;
  struct PendingSend {
    std::uint64_t wire;
    sg4::CommPtr comm;
    CommProxies::ProxyPtr via;
  };
  std::vector<PendingSend> sends_; // oldest first
  std::uint64_t restores_ = 0;
  std::vector<PendingIo> io_;                                // checkpoint transfers under way
  std::map<std::uint64_t, int> saves_left_;                  // checkpoint number -> copies still being made
  std::vector<std::pair<bool, std::uint64_t>> io_completed_; // (save?, number) to report to the agent
  sg4::Mailbox* mailbox_ = nullptr;
  sg4::CommPtr recv_;
  std::vector<sg4::CommPtr> waited_; // the comms of the current wait (empty between waits)
  CommProxies::ProxyPtr recv_via_;
  Envelope* recv_buf_ = nullptr;
  bool stop_ = false;
};

} // namespace ckptsim
