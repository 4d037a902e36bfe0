/* HC3I node: identity, message dispatch, what holds the application back. */
#include "protocols/hc3i/node.hpp"

#include <fmt/format.h>

namespace ckptsim::hc3i {

Node::Node(const FederationLayout& layout, NodeId self, Options options, std::shared_ptr<Shared> shared)
    : place_(layout, self)
    , options_(options)
    , deps_(place_, std::move(shared))
    , log_(place_, deps_)
    , gc_(place_, deps_, log_) {
  wanted_.assign(static_cast<std::size_t>(place_.clusters()), 0);
}

void Node::on_start(NodeContext& ctx) {
  update_app(ctx); // the application starts after the cluster's initial CLC (SN 1)
  maybe_start_clc(ctx);
  gc_.arm_timer(ctx);
}

void Node::update_app(NodeContext& ctx) {
  const bool hold = part_.active || waiting_order_ || loading_ || restarting() || failure_ != 0 || deps_.sn() == 0;
  if (hold)
    ctx.pause_app();
  else
    ctx.resume_app();
}

void Node::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const Body& b = body(msg);
  switch (control_kind<Msg>(msg)) {
  case Msg::ClcReq:
    return on_req(ctx, b);
  case Msg::ClcReady:
    return on_ready(ctx, from, b);
  case Msg::ClcSave:
    return on_save(ctx, b);
  case Msg::ClcAck:
    return on_ack(ctx, b);
  case Msg::ClcCommit:
    return on_commit(ctx, b);
  case Msg::ClcForce:
    return on_force(ctx, b);
  case Msg::LogAck:
    return log_.on_ack(ctx, b);
  case Msg::Rollback:
    return on_rollback_order(ctx, b);
  case Msg::Restarted:
    return on_restarted(ctx, from, b.get("failure"));
  case Msg::Alert:
    return on_alert(ctx, b);
  case Msg::AlertBcast:
    return on_alert_bcast(ctx, b);
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

bool Node::recovering() const {
  return waiting_order_ || loading_ || restarting() || failure_ != 0 || alerts_due_ || !alerts_.empty();
}

std::string Node::pending() const {
  std::vector<std::string> what;
  const std::string me = place_.name(place_.self());
  if (round_.active)
    what.push_back(fmt::format("{}: CLC {} has {} of {} READY and {} ACK", me, round_.number, round_.readies,
                               place_.members().size(), round_.acks));
  if (part_.active) what.push_back(fmt::format("{}: in CLC {} (saved: {})", me, part_.number, part_.saved));
  if (std::string gc = gc_.pending(); !gc.empty()) what.push_back(gc);
  if (waiting_order_) what.push_back(fmt::format("{}: waits for its cluster's rollback order", me));
  if (loading_) what.push_back(fmt::format("{}: loads a CLC", me));
  if (restarting()) what.push_back(fmt::format("{}: restarting", me));
  if (alerts_due_) what.push_back(fmt::format("{}: will alert once {} is back", me, place_.name(victim_)));
  if (!alerts_.empty()) what.push_back(fmt::format("{}: {} alert(s) to handle", me, alerts_.size()));
  if (!inbox_.empty()) what.push_back(fmt::format("{}: {} inter-cluster message(s) held", me, inbox_.size()));
  return fmt::format("{}", fmt::join(what, "; "));
}

bool Node::idle() const {
  return !part_.active && !round_.active && !recovering() && inbox_.empty() && early_intra_.empty() && !gc_.active();
}

} // namespace ckptsim::hc3i
