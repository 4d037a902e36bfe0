/* msglog process: its parts and the routing of the engine's calls to them. */
#include "protocols/msglog/process.hpp"

namespace ckptsim::msglog {

Process::Process(const FederationLayout& layout, NodeId self, Options options)
    : p_(layout, self, options) {}

void Process::on_start(NodeContext& ctx) {
  p_.exec.begin_incarnation(ctx.incarnation(), p_.id.optimistic());
  p_.checkpoints.read_period(ctx);
  p_.orphans.on_start(ctx);
  p_.checkpoints.arm_timer(ctx);
}

void Process::on_restart(NodeContext& ctx, const FailureNotice& own) { p_.recovery.on_restart(ctx, own); }

void Process::on_app_send(NodeContext& ctx, const AppMessage& msg) { p_.log.on_app_send(ctx, msg); }

void Process::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  p_.inbox.on_app_receive(ctx, msg, pb);
}

void dispatch_control(NodeContext& ctx, NodeId from, const ControlMessage& msg, SenderLog& log, Determinants& dets,
                      Checkpoints& checkpoints, Recovery& recovery, Orphans& orphans) {
  const Body& b = body(msg);
  switch (control_kind<Msg>(msg)) {
  case Msg::DetAck:
    return dets.on_ack(ctx, b);
  case Msg::CkptAck:
    return checkpoints.on_ack(ctx, b);
  case Msg::LogGc:
    return log.on_gc(ctx, from, b);
  case Msg::Replay:
    return recovery.on_replay(ctx, b);
  case Msg::ResendReq:
    if (recovery.hold_resend_req(from, b)) return;
    return log.on_resend_req(ctx, from, b);
  case Msg::Catchup:
    return recovery.on_catchup(ctx, from, b);
  case Msg::RollbackNotice:
    if (recovery.hold_notice(from, b)) return;
    return orphans.on_notice(ctx, from, b);
  case Msg::Det:
  case Msg::CkptDone:
  case Msg::ReplayReq:
    break; // the event logger's
  }
  unexpected_control("msglog", msg);
}

void Process::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) { p_.control(ctx, from, msg); }

void Process::on_timer(NodeContext& ctx, int id) {
  if (p_.recovery.on_timer(ctx, id)) return;
  if (id == kCkptTimer) p_.checkpoints.on_timer(ctx);
}

void Process::on_saved(NodeContext& ctx, std::uint64_t number) { p_.checkpoints.on_saved(ctx, number); }

void Process::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  p_.recovery.on_loaded(ctx, number, s);
}

void Process::on_failure_detected(NodeContext& /*ctx*/, const FailureNotice& /*notice*/) {
  // Nothing to undo here: the failed process asks for what it needs (RESEND_REQ), and its
  // messages from before the failure are told apart by their epoch.
}

void Process::on_app_finished(NodeContext& ctx) {
  p_.checkpoints.stop(ctx);
  p_.recovery.on_app_finished(ctx);
}

bool Process::idle() const {
  return p_.exec.state().held.empty() && p_.dets.idle() && !p_.recovery.active() && p_.checkpoints.saving() == 0;
}

} // namespace ckptsim::msglog
