/* HC3I node: its parts, the routing of the engine's calls to them, what holds the application. */
#include "protocols/hc3i/node.hpp"

#include <fmt/format.h>

#include <vector>

namespace ckptsim::hc3i {

Node::Node(const FederationLayout& layout, NodeId self, Options options, std::shared_ptr<Shared> shared)
    : place_(layout, self)
    , deps_(place_, std::move(shared))
    , log_(place_, deps_)
    , gc_(place_, deps_, log_)
    , mailbox_(place_, deps_, options, log_, participant_, leader_, recovery_)
    , participant_(place_, deps_, log_, mailbox_, leader_, *this)
    , leader_(place_, deps_, participant_, recovery_, alerts_)
    , alerts_(place_, deps_, log_, mailbox_, participant_, leader_, recovery_)
    , recovery_(place_, deps_, log_, mailbox_, participant_, leader_, alerts_, *this) {}

void Node::on_start(NodeContext& ctx) {
  update_app(ctx); // the application starts after the cluster's initial CLC (SN 1)
  leader_.maybe_start(ctx);
  gc_.arm_timer(ctx);
}

void Node::on_restart(NodeContext& ctx, const FailureNotice& own) {
  gc_.arm_timer(ctx); // the collector's timer died with it
  recovery_.on_restart(ctx, own);
}

void Node::on_app_send(NodeContext& ctx, const AppMessage& msg) { mailbox_.on_app_send(ctx, msg); }

void Node::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  mailbox_.on_app_receive(ctx, msg, pb);
}

void gate_app(NodeContext& ctx, const ClcParticipant& participant, const Recovery& recovery, const Dependencies& deps) {
  if (participant.active() || recovery.busy() || deps.sn() == 0)
    ctx.pause_app();
  else
    ctx.resume_app();
}

void Node::update_app(NodeContext& ctx) { gate_app(ctx, participant_, recovery_, deps_); }

void Node::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const Body& b = body(msg);
  switch (control_kind<Msg>(msg)) {
  case Msg::ClcReq:
    if (recovery_.hold_request(b)) return;
    return participant_.on_req(ctx, b);
  case Msg::ClcReady:
    return leader_.on_ready(ctx, from, b);
  case Msg::ClcSave:
    return participant_.on_save(ctx, b);
  case Msg::ClcAck:
    return leader_.on_ack(ctx, b);
  case Msg::ClcCommit:
    return participant_.on_commit(ctx, b);
  case Msg::ClcForce:
    return leader_.on_force(ctx, b);
  case Msg::LogAck:
    return log_.on_ack(ctx, b);
  case Msg::Rollback:
    return recovery_.on_rollback_order(ctx, b);
  case Msg::Restarted:
    return recovery_.on_restarted(ctx, from, b.get("failure"));
  case Msg::Alert:
    return alerts_.on_alert(ctx, b);
  case Msg::AlertBcast:
    return alerts_.on_bcast(ctx, b);
  case Msg::AlertQuery:
    return alerts_.on_query(ctx, from, b);
  case Msg::AlertReply:
    return alerts_.on_reply(ctx, b);
  case Msg::GcReq:
    return gc_.on_req(ctx, from, b);
  case Msg::GcResp:
    return gc_.on_resp(ctx, from, b);
  case Msg::GcCollect:
    return gc_.on_collect(ctx, b);
  case Msg::GcApply:
    return gc_.apply(ctx, b);
  }
  unexpected_control("hc3i", msg);
}

void Node::on_timer(NodeContext& ctx, int id) {
  if (recovery_.on_timer(ctx, id)) return;
  if (kClcTimer.is(id))
    leader_.on_timer(ctx);
  else if (kGcTimer.is(id))
    gc_.start(ctx, recovery_.busy() || alerts_.holding());
}

void Node::on_saved(NodeContext& ctx, std::uint64_t number) { participant_.on_saved(ctx, number); }

void Node::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) { recovery_.on_loaded(ctx, number, s); }

void Node::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  gc_.abandon(ctx); // a leader that died before answering never will
  recovery_.on_failure_detected(ctx, notice);
}

void Node::on_node_back(NodeContext& ctx, const FailureNotice& notice) { recovery_.on_node_back(ctx, notice); }

bool Node::recovering() const { return recovery_.recovering() || alerts_.holding(); }

std::string Node::pending() const {
  std::vector<std::string> what;
  for (std::string s : {leader_.pending(), participant_.pending(), gc_.pending()})
    if (!s.empty()) what.push_back(std::move(s));
  recovery_.pending(what);
  for (std::string s : {alerts_.pending(), mailbox_.pending()})
    if (!s.empty()) what.push_back(std::move(s));
  return fmt::format("{}", fmt::join(what, "; "));
}

bool Node::idle() const {
  return !participant_.active() && !leader_.active() && !recovering() && !alerts_.waiting() && mailbox_.empty() &&
         !gc_.active();
}

} // namespace ckptsim::hc3i
