/* HC3I node: identity, message dispatch, what holds the application back. */
#include "protocols/hc3i/node.hpp"

namespace ckptsim::hc3i {

namespace {
constexpr int kGcTimer = 2;
} // namespace

Node::Node(const FederationLayout& layout, NodeId self, Options options)
    : layout_(layout)
    , self_(self)
    , cluster_(layout.cluster_of(self))
    , clusters_(layout.num_clusters())
    , options_(options) {
  const auto& cl = layout.cluster(cluster_);
  for (int i = 0; i < cl.size; i++) members_.push_back(cl.first + i);
  leader_ = cl.first;
  cur_.ddv.assign(static_cast<std::size_t>(clusters_), 0);
  wanted_.assign(static_cast<std::size_t>(clusters_), 0);
  rollbacks_.resize(static_cast<std::size_t>(clusters_));
}

NodeId Node::leader_of(int cluster) const { return layout_.cluster(cluster).first; }

NodeId Node::recovery_leader(NodeId victim) const {
  const NodeId leader = leader_of(layout_.cluster_of(victim));
  return victim == leader ? leader + 1 : leader;
}

void Node::broadcast(NodeContext& ctx, const char* type, const std::shared_ptr<Body>& b, NodeId except) {
  for (NodeId m : members_)
    if (m != except) ctx.send_control(m, control(type, b));
}

void Node::on_start(NodeContext& ctx) {
  update_app(ctx); // the application starts after the cluster's initial CLC (SN 1)
  maybe_start_clc(ctx);
  if (self_ == leader_of(0)) {
    const double p = ctx.timer_period("gc_period");
    if (std::isfinite(p)) ctx.set_timer(kGcTimer, ctx.now() + p);
  }
}

void Node::update_app(NodeContext& ctx) {
  const bool hold = part_.active || waiting_order_ || loading_ || restarting_ || failure_ != 0 || cur_.sn == 0;
  if (hold)
    ctx.pause_app();
  else
    ctx.resume_app();
}

void Node::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const Body& b = body(msg);
  const std::string& t = msg.type;
  if (t == "LOG_ACK")
    on_log_ack(ctx, b);
  else if (t == "CLC_REQ")
    on_req(ctx, b);
  else if (t == "CLC_READY")
    on_ready(ctx, from, b);
  else if (t == "CLC_SAVE")
    on_save(ctx, b);
  else if (t == "CLC_ACK")
    on_ack(ctx, b);
  else if (t == "CLC_COMMIT")
    on_commit(ctx, b);
  else if (t == "CLC_FORCE")
    on_force(ctx, b);
  else if (t == "ROLLBACK")
    on_rollback_order(ctx, b);
  else if (t == "RESTARTED")
    on_restarted(ctx, from, b.get("failure"));
  else if (t == "ALERT")
    on_alert(ctx, b);
  else if (t == "ALERT_BCAST")
    on_alert_bcast(ctx, b);
  else if (t == "GC_REQ")
    on_gc_req(ctx, from, b);
  else if (t == "GC_RESP")
    on_gc_resp(ctx, from, b);
  else if (t == "GC_COLLECT")
    on_gc_collect(ctx, b);
  else if (t == "GC_APPLY")
    apply_gc(ctx, b);
}

bool Node::recovering() const {
  return waiting_order_ || loading_ || restarting_ || failure_ != 0 || alerts_due_ || !alerts_.empty();
}

bool Node::idle() const {
  return !part_.active && !round_.active && !recovering() && inbox_.empty() && early_intra_.empty() && !gc_active_;
}

} // namespace ckptsim::hc3i
