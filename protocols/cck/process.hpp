/* A computing process of CCK (thesis figure 4.5 and section 4.3).
 *
 * Checkpoint wave: on INIT it stops between two tasks, PINGs the processes V_i it still expects
 * data from (receive tasks left in its graph), answers every PING with PONG once stopped, and when
 * its PONGs are in (FIFO: every message those processes sent before stopping has arrived) saves
 * its remaining graph and its data, locally and on its checkpoint server. It then sends CONT to
 * V_i, waits for as many CONT as PINGs it received, resumes and ACKs the coordinator.
 * PINGs go out before the queued PONGs, and an application message carries the wave its sender
 * last saved: a process that has not saved that wave yet holds the message until its own save
 * (the thesis' alternative of delaying delivery, L890), which keeps the cut consistent even when
 * a process that expects nothing more from a neighbour resumes before that neighbour's PING.
 *
 * Restart: every process stops, flushes its channels (STOP_PING / STOP_PONG with the processes it
 * expects data from, the failed one excepted), builds its communication-restricted graph from its
 * last committed checkpoint and its current state, and sends it to every other process (GATHER,
 * with its lost communications and those it received from the failed process). With the N-1
 * others in, each computes C_total and its tasks to re-execute, resets them, and tells the
 * coordinator (READY); everyone restarts on its RESTART, and tells the coordinator (DONE) once it
 * has re-executed what it owes: the restart ends there (no wave and no other failure before). The failed process
 * reloads its checkpoint from the server and re-executes its whole checkpointed graph, without sending again what a
 * non-failed process received (4.3.3). */
#pragma once

#include "protocols/cck/messages.hpp"
#include "protocols/common/restart_delay.hpp"
#include "sim/protocol/dataflow.hpp"
#include "sim/protocol/protocol.hpp"

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ckptsim::cck {

class Process : public Agent {
 public:
  Process(const DataflowApplication& workload, NodeId coordinator, bool reuse)
      : wl_(workload)
      , coordinator_(coordinator)
      , reuse_(reuse) {}
  void on_start(NodeContext& ctx) override;
  void on_restart(NodeContext& ctx, const FailureNotice& own) override;
  void on_app_send(NodeContext& ctx, const AppMessage& msg) override;
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override;
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override;
  void on_saved(NodeContext& ctx, std::uint64_t number) override;
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) override;
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override;
  void on_node_back(NodeContext& ctx, const FailureNotice& notice) override;
  void on_app_stopped(NodeContext& ctx) override;
  bool idle() const override { return phase_ == Phase::Idle && restart_ == Restart::None && held_.empty(); }
  bool recovering() const override { return restart_ != Restart::None; }

 private:
  static constexpr int kRestartTimer = 1; // a process' only timer
  enum class Phase { Idle, Stopping, Flushing, Saving, WaitingCont };
  enum class Restart { None, Loading, Stopping, Flushing, Gathering, Ready, CatchingUp };

  // process_wave.cpp
  void on_init(NodeContext& ctx, const WaveBody& b);
  void wave_stopped(NodeContext& ctx);
  void on_ping(NodeContext& ctx, NodeId from, const WaveBody& b);
  void on_pong(NodeContext& ctx, const WaveBody& b);
  void on_cont(NodeContext& ctx, const WaveBody& b);
  void save(NodeContext& ctx);
  void check_cont(NodeContext& ctx);
  void deliver_held(NodeContext& ctx);
  void receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  std::vector<NodeId> expected_senders(const NodeContext& ctx) const;
  void discard(NodeContext& ctx, std::uint64_t number);

  // process_restart.cpp
  void on_recover(NodeContext& ctx, const WaveBody& b);
  void on_stop_ping(NodeContext& ctx, NodeId from, const WaveBody& b);
  void on_stop_pong(NodeContext& ctx, const WaveBody& b);
  void on_gather(NodeContext& ctx, NodeId from, std::shared_ptr<const GatherBody> body);
  /** @brief The coordinator's RESTART: every process has its plan. */
  void on_restart_order(NodeContext& ctx, const WaveBody& b);
  void begin_restart(NodeContext& ctx, FailureId id, NodeId victim);
  void restart_stopped(NodeContext& ctx);
  void maybe_gather(NodeContext& ctx);
  void send_gather(NodeContext& ctx, NodeId to);
  void check_plan(NodeContext& ctx);
  void check_caught_up(NodeContext& ctx);
  void plan(NodeContext& ctx);
  TaskStates own_states(const NodeContext& ctx) const;
  /** @brief With reuse (4.4.2), the data of this survivor still in memory; else empty. */
  std::vector<bool> own_memory(const NodeContext& ctx, const TaskStates& states) const;

  const DataflowApplication& wl_;
  const NodeId coordinator_;
  const bool reuse_;

  FailureId epoch_ = 0;                          // the newest failure this process knows of
  FailureId life_ = 0;                           // the failure that last restarted this process (0: never)
  std::map<NodeId, FailureId> dead_;             // process -> its newest failure: messages of older lives are void
  std::map<std::uint64_t, AppStateValue> saved_; // the local copies of this process' checkpoints
  std::uint64_t last_saved_ = 0;                 // the last wave saved (piggybacked)

  // Wave
  Phase phase_ = Phase::Idle;
  std::uint64_t wave_ = 0;
  std::vector<NodeId> v_; // the processes PINGed
  std::size_t pongs_ = 0;
  std::map<std::uint64_t, std::vector<NodeId>> queued_pings_; // PINGs to answer once stopped
  std::map<std::uint64_t, int> pings_;                        // PINGs received per wave
  std::map<std::uint64_t, int> conts_;                        // CONT received per wave
  std::set<std::uint64_t> aborted_;                           // saves of aborted waves still under way
  std::vector<std::pair<AppMessage, PayloadPtr>> held_;       // sent after a save this process has not made

  // Restart
  Restart restart_ = Restart::None;
  RestartDelay restart_delay_{kRestartTimer}; // restarting from on_restart to the end of its overhead
  NodeId failed_ = -1;
  bool failed_back_ = false;
  bool gather_to_failed_ = false; // the GATHER owed to the failed process once it is back
  std::uint64_t line_ = 0;        // the recovery line (last committed wave)
  bool line_known_ = false;
  std::vector<NodeId> rv_; // the processes STOP_PINGed
  std::size_t rpongs_ = 0;
  std::map<FailureId, std::vector<NodeId>> queued_stop_pings_;
  std::map<FailureId, std::map<NodeId, std::shared_ptr<const GatherBody>>> gathered_;
  std::shared_ptr<const GatherBody> own_gather_;
  std::set<Tag> resend_;    // sends to re-execute whose first send is kept: replays
  std::set<Tag> redeliver_; // receives to re-execute whose first delivery is kept
  std::set<Tag> withheld_;  // a restarted process' sends the receiver still holds (4.3.3)
  std::set<Tag> promised_;  // a restarted process' sends a non-failed process received: still owed
};

} // namespace ckptsim::cck
