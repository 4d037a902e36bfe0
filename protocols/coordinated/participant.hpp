/* A computing process of the blocking coordinated protocol. On INIT it stops computing, sends
 * FLUSH to every process (itself included) and waits for N FLUSH: channels are FIFO, so every
 * application message sent to it before the others stopped has arrived. It then saves its state
 * (its memory + the storage model's copies), sends ACK and waits for CONT to resume. On a failure
 * every process waits for the coordinator's ROLLBACK to a committed wave (the newest all can load),
 * restores it (the failed one from stable storage) and starts again when the failed process is
 * back. It keeps the committed checkpoints its storage keeps (the replicated storage's last SD, the
 * newest of each level of a multi-level one).
 * With a collective trigger (trigger.hpp), process 0, the root of the application's collectives
 * (a master-worker's master), stops at each collective point it reaches and asks the coordinator
 * for a wave (CKPT_REQUEST); it goes on at the answer (CKPT_DECISION), so that a wave started
 * then saves it exactly at the collective, as the paper's modified MPI_Bcast / Scatter / Gather
 * do with the processes blocked in the operation. */
#pragma once

#include "protocols/common/restart_delay.hpp"
#include "protocols/coordinated/messages.hpp"
#include "sim/protocol/protocol.hpp"
#include "sim/protocol/storage.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim::coordinated {

class Participant : public Agent {
 public:
  Participant(NodeId coordinator, KeptSaves kept, bool collective_requests = false)
      : coordinator_(coordinator)
      , kept_(std::move(kept))
      , collective_requests_(collective_requests) {}
  void on_restart(NodeContext& ctx, const FailureNotice& own) override;
  void on_app_send(NodeContext& ctx, const AppMessage& msg) override;
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override;
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override;
  void on_saved(NodeContext& ctx, std::uint64_t number) override;
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) override;
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override;
  void on_node_back(NodeContext& ctx, const FailureNotice& notice) override;
  bool idle() const override {
    return phase_ == Phase::Idle && !rollback_due_ && !restarting() && !loading_ && awaiting_ == 0;
  }
  void on_app_point(NodeContext& ctx, const AppPoint& point) override;

 private:
  enum class Phase { Idle, Flushing, Saving, WaitingCont };
  static constexpr int kRestartTimer = 1; // a participant's only timer
  bool restarting() const { return restart_delay_.restarting(); }
  void on_init(NodeContext& ctx, const WaveBody& b);
  void on_cont(NodeContext& ctx, const WaveBody& b);
  void check_flushed(NodeContext& ctx);
  void rollback(NodeContext& ctx, std::uint64_t wave, FailureId epoch);
  void restored(NodeContext& ctx);
  /** @brief Waits until the victim of failure @p id is back, unless it is already. */
  void wait_for(FailureId id);
  void try_resume(NodeContext& ctx);
  void keep_last(NodeContext& ctx, std::uint64_t newest); // recovery_line.cpp
  void replicate_kept(NodeContext& ctx);

  const NodeId coordinator_;
  const KeptSaves kept_; // committed waves kept, given the newest
  const bool collective_requests_;
  std::uint64_t awaiting_ = 0; // the collective point waiting for the coordinator's decision (0: none)
  FailureId epoch_ = 0;
  std::uint64_t committed_ = 0; // last committed wave (0: the initial state)
  std::uint64_t wave_ = 0;      // the wave under way
  Phase phase_ = Phase::Idle;
  std::map<std::uint64_t, int> flushes_;                 // FLUSH received per wave (they may precede INIT)
  std::set<std::uint64_t> stored_;                       // checkpoints of this process in storage
  bool rollback_due_ = false;                            // told of a failure, waiting for the coordinator's ROLLBACK
  RestartDelay restart_delay_{kRestartTimer};            // a restarted process, loading its checkpoint
  std::set<FailureId> waiting_for_;                      // failures whose victim is not back yet
  std::set<FailureId> back_;                             // failures whose victim is back
  std::optional<std::uint64_t> loading_;                 // the wave a load under way brings back
  std::vector<std::pair<AppMessage, PayloadPtr>> early_; // from the next epoch, before our rollback
};

} // namespace ckptsim::coordinated
