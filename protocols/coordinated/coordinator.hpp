/* The coordinator of the blocking coordinated protocol: a non-computing process on the
 * controller host. It starts a wave (INIT to the N processes) when its trigger policy says so
 * (trigger.hpp: every checkpoint period, and / or at a collective whose root asked with
 * CKPT_REQUEST, answered by CKPT_DECISION), commits it when the N ACKs are in (CONT to all). On a
 * failure it aborts the wave under way and tells every process to roll back to the last committed
 * wave (ROLLBACK), and answers the restarted process' RESTARTED with the same; the period starts
 * again when the failed process is back. The wave restored is the newest of the kept committed
 * ones (the storage's: the last `depth`, a level's newest) that every process can still load (RLFFN,
 * recovery_line.cpp); waves are numbered along the execution line, so the wave after a rollback to wave w is w + 1 (the
 * paper's save counter k). */
#pragma once

#include "protocols/coordinated/messages.hpp"
#include "protocols/coordinated/trigger.hpp"
#include "sim/protocol/protocol.hpp"
#include "sim/protocol/storage.hpp"

#include <optional>

#include <map>
#include <set>

namespace ckptsim::coordinated {

class Coordinator : public Agent {
 public:
  explicit Coordinator(KeptSaves kept, TriggerPolicy trigger = TriggerPolicy::Periodic)
      : kept_(std::move(kept))
      , trigger_(trigger) {}
  void on_start(NodeContext& ctx) override;
  void on_restart(NodeContext&, const FailureNotice&) override {} // the controller never fails
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override;
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override;
  void on_node_back(NodeContext& ctx, const FailureNotice& notice) override;
  bool idle() const override { return wave_ == 0 && recovering_.empty(); }

 private:
  void start_wave(NodeContext& ctx, const char* trigger, const std::string& point = "");
  void failure(NodeContext& ctx, FailureId id, const std::vector<NodeId>& victims);
  void schedule(NodeContext& ctx);
  bool choose_line(NodeContext& ctx); // recovery_line.cpp
  void periodic_timer(NodeContext& ctx);
  void collective_request(NodeContext& ctx, NodeId from, const ControlMessage& msg);
  void restarted(NodeContext& ctx, NodeId from, const WaveBody& b);
  void ack(NodeContext& ctx, const WaveBody& b);

  const KeptSaves kept_; // committed waves kept by every process (replicated storage: the last SD)
  TriggerPolicy trigger_;
  std::optional<TriggerClock> clock_; // set at the start, from the checkpoint period
  bool timer_armed_ = false;
  double period_ = 0;
  std::uint64_t next_wave_ = 1;
  std::uint64_t committed_ = 0;
  std::uint64_t wave_ = 0; // under way (0: none)
  int acks_ = 0;
  double wave_start_ = 0;
  FailureId epoch_ = 0;
  std::set<FailureId> seen_;              // failures heard of (notice or RESTARTED)
  std::set<FailureId> recovering_;        // failures whose victim is not back yet
  std::set<NodeId> down_;                 // victims that have not said RESTARTED yet
  std::map<NodeId, FailureId> restarted_; // per victim: the newest failure it said RESTARTED for
};

} // namespace ckptsim::coordinated
