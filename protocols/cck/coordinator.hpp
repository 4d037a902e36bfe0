/* The CCK coordinator (thesis figure 4.4): a non-computing process on the controller host. Every
 * checkpoint period it sends INIT to the N processes and marks the wave as the last valid one
 * when the N ACKs are in; unlike the standard protocol it sends no CONT (the processes release
 * each other). At a failure it aborts the wave under way, tells every process the recovery line
 * (RECOVER: the last committed wave; to the failed process when it says RESTARTED) and, once the
 * N processes have computed their part of the restart (READY), restarts them all (RESTART, the
 * thesis' N restart messages); the next period starts when they have all re-executed what the
 * restart asked of them (DONE). */
#pragma once

#include "sim/protocol/protocol.hpp"

#include <cstdint>

namespace ckptsim::cck {

class Coordinator : public Agent {
 public:
  void on_start(NodeContext& ctx) override;
  void on_restart(NodeContext&, const FailureNotice&) override {} // the controller never fails
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override;
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override;
  bool idle() const override { return wave_ == 0 && !restarting_; }

 private:
  void start_wave(NodeContext& ctx);
  void commit(NodeContext& ctx);
  void schedule(NodeContext& ctx);
  double wave_messages(NodeContext& ctx) const;
  void failure(NodeContext& ctx, FailureId id, const std::vector<NodeId>& victims);

  std::uint64_t next_wave_ = 1;
  std::uint64_t committed_ = 0;
  std::uint64_t wave_ = 0;    // under way (0: none)
  std::uint64_t aborted_ = 0; // the wave the last failure aborted (0: none)
  int acks_ = 0;
  long sum_v_ = 0; // sum of V_i reported by the ACKs of the wave
  double wave_start_ = 0;
  double messages_at_start_ = 0;
  FailureId epoch_ = 0;
  std::vector<NodeId> victims_; // of failure epoch_, increasing order
  bool restarting_ = false;
  int ready_ = 0;
  int done_ = 0;
};

} // namespace ckptsim::cck
