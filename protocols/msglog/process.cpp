/* msglog process: its parts and the routing of the engine's calls to them. */
#include "protocols/msglog/process.hpp"

namespace ckptsim::msglog {

Process::Process(const FederationLayout& layout, NodeId self, Options options)
    : id_(layout, self, options)
    , log_(id_, exec_, dets_, inbox_, recovery_)
    , dets_(id_, exec_, log_)
    , inbox_(id_, exec_, dets_, orphans_, replay_, recovery_)
    , checkpoints_(id_, exec_, recovery_, orphans_)
    , replay_(id_, exec_)
    , catchup_(id_)
    , recovery_(id_, exec_, log_, dets_, inbox_, replay_, catchup_, checkpoints_, orphans_)
    , orphans_(id_, exec_, log_, dets_, inbox_, replay_, catchup_, checkpoints_, recovery_) {}

void Process::on_start(NodeContext& ctx) {
  exec_.begin_incarnation(ctx.incarnation(), id_.optimistic());
  checkpoints_.read_period(ctx);
  orphans_.on_start(ctx);
  checkpoints_.arm_timer(ctx);
}

void Process::on_restart(NodeContext& ctx, const FailureNotice& own) { recovery_.on_restart(ctx, own); }

void Process::on_app_send(NodeContext& ctx, const AppMessage& msg) { log_.on_app_send(ctx, msg); }

void Process::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  inbox_.on_app_receive(ctx, msg, pb);
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

void Process::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  dispatch_control(ctx, from, msg, log_, dets_, checkpoints_, recovery_, orphans_);
}

void Process::on_timer(NodeContext& ctx, int id) {
  if (recovery_.on_timer(ctx, id)) return;
  if (id == kCkptTimer) checkpoints_.on_timer(ctx);
}

void Process::on_saved(NodeContext& ctx, std::uint64_t number) { checkpoints_.on_saved(ctx, number); }

void Process::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  recovery_.on_loaded(ctx, number, s);
}

void Process::on_failure_detected(NodeContext& /*ctx*/, const FailureNotice& /*notice*/) {
  // Nothing to undo here: the failed process asks for what it needs (RESEND_REQ), and its
  // messages from before the failure are told apart by their epoch.
}

void Process::on_app_finished(NodeContext& ctx) {
  checkpoints_.stop(ctx);
  recovery_.on_app_finished(ctx);
}

bool Process::idle() const {
  return exec_.state().held.empty() && dets_.idle() && !recovery_.active() && checkpoints_.saving() == 0;
}

} // namespace ckptsim::msglog
