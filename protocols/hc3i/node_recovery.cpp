/* Failures and rollbacks (HC3I report section 3.4). A failure in cluster f: its recovery leader
 * orders every node of f back to f's last CLC (ROLLBACK), the restarted node included once it
 * says RESTARTED (it reloads its copy from its buddy); once the failed node is back, the leader
 * sends the rollback alert (f, s) to the leader of every other cluster. A leader alerted with
 * (f, s) decides (rollback_target), broadcasts the alert and its decision in its cluster
 * (ALERT_BCAST) and, when its cluster rolls back, alerts the others in turn. Every node of an
 * alerted cluster re-sends the logged messages to f acknowledged with an SN >= s or not at all. */
#include "protocols/hc3i/node.hpp"

#include <fmt/format.h>

namespace ckptsim::hc3i {

void Node::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  deps_.hear_of(notice.id);
  gc_.abandon(ctx);                                                 // a leader that died before answering never will
  if (place_.cluster_of(notice.victim) != place_.cluster()) return; // the failed cluster's alert will tell
  failure_ = notice.id;
  if (ordered_failure_ >= notice.id) return; // the recovery leader's order came first: applied
  abort_clc(ctx, true);
  waiting_order_ = true;
  inbox_.clear(); // their senders re-send them on our alert (not acknowledged)
  force_asked_.clear();
  std::fill(wanted_.begin(), wanted_.end(), 0);
  clc_wanted_ = false;
  update_app(ctx);
  if (place_.self() != place_.recovery_leader(notice.victim)) return;
  victim_ = notice.victim;
  rollback_sn_ = deps_.last_clc();
  alerts_due_ = true;
  ctx.trace_event(0, "cluster_rollback",
                  {{"cluster", place_.cluster()},
                   {"to_sn", rollback_sn_},
                   {"cause", "failure"},
                   {"failure", notice.id},
                   {"victim", notice.victim},
                   {"epoch", deps_.epoch() + 1}});
  ctx.stats().add_cluster("hc3i.rollbacks", place_.cluster());
  ctx.stats().record("hc3i.rollbacks", {{"failure", notice.id},
                                        {"date", ctx.now()},
                                        {"cluster", place_.cluster()},
                                        {"to_sn", rollback_sn_},
                                        {"cause", "failure"}});
  auto b = std::make_shared<Body>();
  b->ints = {{"sn", rollback_sn_}, {"epoch", deps_.epoch() + 1}, {"failure", notice.id}};
  for (NodeId m : place_.members())
    if (m != place_.self() && m != victim_) ctx.send_control(m, control(Msg::Rollback, b));
  on_rollback_order(ctx, *b);
  if (restarted_pending_ && restarted_pending_->second == notice.id) {
    const NodeId from = restarted_pending_->first;
    restarted_pending_.reset();
    on_restarted(ctx, from, notice.id);
  }
}

void Node::on_restart(NodeContext& ctx, const FailureNotice& own) {
  restart_delay_.begin();
  failure_ = own.id;
  deps_.restarted(own);
  gc_.arm_timer(ctx); // the collector's timer died with it
  update_app(ctx);
  auto b = std::make_shared<Body>();
  b->ints = {{"failure", own.id}};
  ctx.send_control(place_.recovery_leader(place_.self()), control(Msg::Restarted, b));
}

void Node::on_restarted(NodeContext& ctx, NodeId from, FailureId failure) {
  if (failure != failure_ || !alerts_due_) { // its restart came before our failure notice
    restarted_pending_ = {from, failure};
    return;
  }
  // The restarted node lost its memory: it gets the cluster's stable knowledge with its order.
  auto b = std::make_shared<Body>();
  b->ints = {{"sn", rollback_sn_}, {"epoch", deps_.epoch()}, {"failure", failure_}, {"latest", deps_.latest_failure()}};
  b->clcs = deps_.clcs();
  b->rollbacks = deps_.rollbacks();
  ctx.send_control(from, control(Msg::Rollback, b));
}

void Node::on_rollback_order(NodeContext& ctx, const Body& b) {
  if (restarting()) {
    if (loading_) return;
    deps_.adopt(b);
  } else if (b.get("epoch") <= deps_.epoch()) {
    return; // applied already
  }
  waiting_order_ = false;
  ordered_failure_ = b.get("failure");
  failure_ = std::max(failure_, ordered_failure_); // held until the failed node is back
  rollback_to(ctx, b.get("sn"), b.get("epoch"),
              fmt::format("cluster rollback to CLC {} (failure {})", b.get("sn"), b.get("failure")));
}

void Node::rollback_to(NodeContext& ctx, Sn target, std::uint64_t new_epoch, const std::string& reason) {
  abort_clc(ctx);
  if (in_doubt_) { // the order names the CLC the leader committed: ours if it is the one in doubt
    if (in_doubt_->sn == target)
      deps_.store(*in_doubt_);
    else
      ctx.discard_checkpoint(in_doubt_->sn);
    in_doubt_.reset();
  }
  deps_.set_epoch(new_epoch);
  deps_.drop_after(ctx, target); // the CLCs after the target can never be restored
  deps_.record_storage(ctx);
  inbox_.clear();
  force_asked_.clear();
  std::fill(wanted_.begin(), wanted_.end(), 0);
  clc_wanted_ = false;
  loading_ = true;
  update_app(ctx);
  if (target > 0) {
    ctx.load_checkpoint(target); // own memory, or the buddy's copy for a restarted node
    return;
  }
  ctx.restore(ctx.initial_snapshot(), reason);
  log_.clear(ctx);
  deps_.reset();
  channels_ = ChannelCounts{};
  restored(ctx);
}

void Node::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  if (!loading_) return;
  const auto& st = std::any_cast<const SavedState&>(s.protocol);
  ctx.restore(s, fmt::format("hc3i rollback of cluster {} to CLC {}", place_.cluster(), number));
  log_.restore(ctx, st, number, restarting());
  deps_.restore(st.sn, st.ddv);
  channels_ = st.channels;
  restored(ctx);
}

void Node::restored(NodeContext& ctx) {
  loading_ = false;
  if (restarting()) { // the restarted process pays its restart overhead, then it is back
    restart_delay_.pay(ctx);
    return;
  }
  if (replay_after_load_) {
    const auto [to, s] = *replay_after_load_;
    replay_after_load_.reset();
    log_.replay(ctx, to, s);
  }
  process_early_intra(ctx);
  if (held_req_) {
    const auto req = std::move(held_req_);
    on_req(ctx, *req);
  }
  process_inbox(ctx);
  update_app(ctx);
  process_alerts(ctx);
  maybe_start_clc(ctx);
}

void Node::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  deps_.back(notice.id);
  if (place_.cluster_of(notice.victim) != place_.cluster() || failure_ != notice.id) return;
  failure_ = 0;
  // The restarted node lost the buddy copies it held: give them back, so that the cluster
  // tolerates its next failure too.
  for (const auto& clc : deps_.clcs()) ctx.replicate_checkpoint(clc.sn);
  if (notice.victim == place_.self()) resend_restored_log(ctx);
  if (alerts_due_) {
    alerts_due_ = false;
    send_alerts(ctx, rollback_sn_);
  }
  if (place_.is_leader()) {
    arm_clc_timer(ctx);
    if (deps_.sn() == 0) clc_wanted_ = true; // back to the initial state: the initial CLC again
  }
  update_app(ctx);
  process_early_intra(ctx);
  process_inbox(ctx);
  process_alerts(ctx);
  maybe_start_clc(ctx);
}

void Node::resend_restored_log(NodeContext& ctx) {
  // What the failed node sent before its CLC may never have been delivered: its re-sends or the
  // transfers it had under way died with it, and its log lost the acknowledgements. It sends
  // its logged messages again (receivers drop what they have), before computing again so that
  // they come first on each channel, and under the cluster's new epoch, so that a receiver
  // handles them after our alert (which may roll it back and change what it has delivered).
  log_.resend_all(ctx, deps_.epoch());
}

void Node::send_alerts(NodeContext& ctx, Sn restored_sn) {
  const Sn s = alert_value(restored_sn);
  ctx.stats().add_cluster("hc3i.alerts_sent", place_.cluster());
  for (int c = 0; c < place_.clusters(); c++) {
    if (c == place_.cluster()) continue;
    auto b = std::make_shared<Body>();
    b->ints = {{"cluster", static_cast<std::uint64_t>(place_.cluster())}, {"sn", s}, {"epoch", deps_.epoch()}};
    ctx.send_control(place_.leader_of(c), control(Msg::Alert, b));
  }
  ctx.trace_event(1, "alert_sent", {{"cluster", place_.cluster()}, {"sn", s}, {"epoch", deps_.epoch()}});
}

void Node::on_alert(NodeContext& ctx, const Body& b) {
  alerts_.push_back(std::make_shared<Body>(b));
  process_alerts(ctx);
}

void Node::process_alerts(NodeContext& ctx) {
  // One at a time, between CLCs: the decision reads the committed CLCs and DDV.
  while (!alerts_.empty() && !round_.active && !part_.active && !loading_ && !waiting_order_ && !restarting() &&
         failure_ == 0) {
    const auto a = alerts_.front();
    alerts_.pop_front();
    const int f = static_cast<int>(a->get("cluster"));
    const Sn s = a->get("sn");
    const auto target = rollback_target(deps_.clcs(), deps_.ddv(), f, s);
    auto b = std::make_shared<Body>(*a);
    b->ints["rollback"] = target ? 1 : 0;
    b->ints["target"] = target.value_or(0);
    b->ints["new_epoch"] = target ? deps_.epoch() + 1 : deps_.epoch();
    nlohmann::ordered_json ev{
        {"cluster", place_.cluster()}, {"from", f}, {"sn", s}, {"ddv_entry", deps_.ddv()[f]}, {"ddv", deps_.ddv()}};
    ev["rollback_to"] = target ? nlohmann::ordered_json(*target) : nlohmann::ordered_json(nullptr);
    ctx.trace_event(0, "alert", ev);
    if (target) {
      ctx.trace_event(0, "cluster_rollback",
                      {{"cluster", place_.cluster()},
                       {"to_sn", *target},
                       {"cause", "alert"},
                       {"from", f},
                       {"sn", s},
                       {"epoch", deps_.epoch() + 1}});
      ctx.stats().add_cluster("hc3i.rollbacks", place_.cluster());
      ctx.stats().record("hc3i.rollbacks", {{"failure", deps_.latest_failure()},
                                            {"date", ctx.now()},
                                            {"cluster", place_.cluster()},
                                            {"to_sn", *target},
                                            {"cause", "alert"},
                                            {"from", f}});
    }
    place_.broadcast(ctx, Msg::AlertBcast, b, place_.self());
    on_alert_bcast(ctx, *b);
    if (target) send_alerts(ctx, *target);
  }
}

void Node::on_alert_bcast(NodeContext& ctx, const Body& b) {
  const int f = static_cast<int>(b.get("cluster"));
  const Sn s = b.get("sn");
  deps_.learn_rollback(f, b.get("epoch"), s);
  if (b.get("rollback") != 0 && b.get("new_epoch") > deps_.epoch()) {
    replay_after_load_ = std::make_pair(f, s); // re-sent from the log that survives the rollback
    rollback_to(ctx, b.get("target"), b.get("new_epoch"),
                fmt::format("hc3i alert ({}, {}): cluster {} back to CLC {}", f, s, place_.cluster(), b.get("target")));
  } else {
    log_.replay(ctx, f, s);
    process_inbox(ctx); // messages that waited for this alert
  }
}

void Node::on_timer(NodeContext& ctx, int id) {
  if (restart_delay_.end(ctx, id)) {
    restored(ctx);
    return;
  }
  if (kClcTimer.is(id)) {
    timer_due_ = true;
    maybe_start_clc(ctx);
  } else if (kGcTimer.is(id)) {
    gc_.start(ctx, failure_ != 0 || loading_ || waiting_order_ || restarting() || !alerts_.empty());
  }
}

} // namespace ckptsim::hc3i
