/* The event logger (SPEC 3.6): a service on the controller host, stable by assumption, that
 * keeps for every process the determinants of its deliveries after its last checkpoint. It
 * acknowledges each DET message with the highest rsn up to which it holds them all, learns
 * checkpoints (CKPT_DONE: drops the determinants the checkpoint contains) and answers a
 * restarted process with its checkpoint and the determinants after it (REPLAY). */
#pragma once

#include "protocols/msglog/messages.hpp"
#include "sim/protocol/protocol.hpp"

#include <map>
#include <memory>

namespace ckptsim::msglog {

class EventLogger : public Agent {
 public:
  explicit EventLogger(int nodes)
      : procs_(static_cast<std::size_t>(nodes)) {}
  void on_restart(NodeContext& ctx, const FailureNotice& own) override;
  void on_failure_detected(NodeContext& /*ctx*/, const FailureNotice& /*notice*/) override {}
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;

 private:
  struct Proc {
    std::uint64_t inc = 0;      // newest incarnation heard of: older ones' DETs are stale
    std::uint64_t number = 0;   // its last checkpoint (0: none)
    std::uint64_t ckpt_rsn = 0; // the deliveries that checkpoint contains
    std::uint64_t stable = 0;   // every determinant up to this rsn is held (or in the checkpoint)
    std::map<std::uint64_t, Det> dets;
  };
  void on_det(NodeContext& ctx, NodeId from, const Body& b);
  void on_ckpt_done(NodeContext& ctx, NodeId from, const Body& b);
  void on_replay_req(NodeContext& ctx, NodeId from, const Body& b);
  void on_notice(NodeContext& ctx, NodeId from, const Body& b);
  void account(NodeContext& ctx, NodeId p);

  std::vector<Proc> procs_;
  std::vector<Det> notices_; // optimistic: every rollback of a process that did not fail (owner, epoch, target)
};

} // namespace ckptsim::msglog
