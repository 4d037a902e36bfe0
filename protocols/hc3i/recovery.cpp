/* HC3I: failures and rollbacks of a node (recovery.hpp). */
#include "protocols/hc3i/recovery.hpp"
#include "protocols/hc3i/alerts.hpp"
#include "protocols/hc3i/leader.hpp"
#include "protocols/hc3i/mailbox.hpp"
#include "protocols/hc3i/participant.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <utility>

namespace ckptsim::hc3i {

void Recovery::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  deps_.hear_of(notice.id);
  std::vector<NodeId> here = place_.victims_here(notice);
  if (here.empty()) return; // the failed clusters' alerts will tell
  failure_ = notice.id;
  if (ordered_failure_ >= notice.id) return; // the recovery leader's order came first: applied
  abort_clc(ctx, true);
  waiting_order_ = true;
  mailbox_.drop_inbox(deps_.epoch() + 1); // their senders re-send them on our alert (not acknowledged)
  leader_.forget_wanted();
  gate_.update_app(ctx);
  if (place_.self() != place_.recovery_leader(notice)) return; // its lowest survivor leads
  victims_ = std::move(here);
  rollback_sn_ = deps_.last_clc();
  alerts_due_ = true;
  ctx.trace_event(0, "cluster_rollback",
                  {{"cluster", place_.cluster()},
                   {"to_sn", rollback_sn_},
                   {"cause", "failure"},
                   {"failure", notice.id},
                   {"victims", victims_},
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
    if (m != place_.self() && !notice.struck(m)) ctx.send_control(m, control(Msg::Rollback, b));
  on_rollback_order(ctx, *b);
  // The victims that said RESTARTED before our notice get their order now.
  auto early = std::exchange(restarted_pending_, {});
  for (const auto& [from, failure] : early) on_restarted(ctx, from, failure); // others are queued again
}

void Recovery::on_restart(NodeContext& ctx, const FailureNotice& own) {
  restart_delay_.begin();
  failure_ = own.id;
  deps_.restarted(own);
  gate_.update_app(ctx);
  const std::optional<NodeId> lead = place_.recovery_leader(own);
  if (!lead) { // the whole cluster failed: nobody holds its committed CLCs, its epoch, its rollbacks
    if (place_.is_leader()) ctx.unrecoverable(whole_cluster_lost(own)); // once per cluster
    return;
  }
  auto b = std::make_shared<Body>();
  b->ints = {{"failure", own.id}};
  ctx.send_control(*lead, control(Msg::Restarted, b));
}

std::string Recovery::whole_cluster_lost(const FailureNotice& own) const {
  // Every member of this cluster was struck: its stable knowledge lived only in their memory.
  std::vector<std::string> names;
  for (NodeId v : place_.victims_here(own)) names.push_back(place_.name(v));
  return fmt::format("hc3i: failure {} struck every node of cluster {} ({}): the list of its committed CLCs, "
                     "its epoch and what it knew of the other clusters' rollbacks were only in their memory (and "
                     "so were the copies of its CLCs, unless on checkpoint servers)",
                     own.id, place_.layout().cluster(place_.cluster()).name, fmt::join(names, ", "));
}

void Recovery::on_restarted(NodeContext& ctx, NodeId from, FailureId failure) {
  if (failure != failure_ || !alerts_due_) { // its restart came before our failure notice
    restarted_pending_.emplace_back(from, failure);
    return;
  }
  // The restarted node lost its memory: it gets the cluster's stable knowledge with its order.
  auto b = std::make_shared<Body>();
  b->ints = {{"sn", rollback_sn_}, {"epoch", deps_.epoch()}, {"failure", failure_}, {"latest", deps_.latest_failure()}};
  b->clcs = deps_.clcs();
  b->rollbacks = deps_.rollbacks();
  ctx.send_control(from, control(Msg::Rollback, b));
}

void Recovery::on_rollback_order(NodeContext& ctx, const Body& b) {
  if (restarting()) {
    if (loading_) return;
    deps_.adopt(b);
  } else if (b.get("epoch") <= deps_.epoch()) {
    return; // applied already
  }
  waiting_order_ = false;
  ordered_failure_ = b.get("failure");
  // Held until the failed node is back, unless it is already: an order delayed by a cut link
  // may come after the failed node's return, which would then never clear it.
  if (deps_.open(ordered_failure_)) failure_ = std::max(failure_, ordered_failure_);
  rollback_to(ctx, b.get("sn"), b.get("epoch"),
              fmt::format("cluster rollback to CLC {} (failure {})", b.get("sn"), b.get("failure")));
}

void Recovery::rollback_to(NodeContext& ctx, Sn target, std::uint64_t new_epoch, const std::string& reason) {
  abort_clc(ctx, false);
  if (in_doubt_) { // the order names the CLC the leader committed: ours if it is the one in doubt
    if (in_doubt_->sn == target)
      deps_.store(*in_doubt_);
    else
      ctx.discard_checkpoint(in_doubt_->sn);
    in_doubt_.reset();
  }
  deps_.set_epoch(new_epoch);
  deps_.rolled_back(new_epoch, alert_value(target));
  deps_.drop_after(ctx, target); // the CLCs after the target can never be restored
  deps_.record_storage(ctx);
  mailbox_.drop_inbox(new_epoch);
  leader_.forget_wanted();
  loading_ = true;
  gate_.update_app(ctx);
  if (target > 0) {
    ctx.load_checkpoint(target); // own memory, or the buddy's copy for a restarted node
    return;
  }
  ctx.restore(ctx.initial_snapshot(), reason);
  log_.clear(ctx);
  deps_.reset();
  mailbox_.restore(nullptr);
  restored(ctx);
}

void Recovery::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  if (!loading_) return;
  const auto& st = std::any_cast<const SavedState&>(s.protocol);
  ctx.restore(s, fmt::format("hc3i rollback of cluster {} to CLC {}", place_.cluster(), number));
  log_.restore(ctx, st, number, restarting());
  deps_.restore(st.sn, st.ddv);
  mailbox_.restore(st.channels);
  restored(ctx);
}

void Recovery::restored(NodeContext& ctx) {
  loading_ = false;
  if (restarting()) { // the restarted process pays its restart overhead, then it is back
    restart_delay_.pay(ctx);
    return;
  }
  alerts_.replay_after_restore(ctx);
  mailbox_.process_early_intra(ctx);
  if (held_req_) {
    const auto req = std::move(held_req_);
    participant_.on_req(ctx, *req);
  }
  mailbox_.process_inbox(ctx);
  gate_.update_app(ctx);
  alerts_.process(ctx);
  leader_.maybe_start(ctx);
  alerts_.answer_queries(ctx);
}

void Recovery::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  deps_.back(notice.id);
  alerts_.on_node_back(ctx, notice);
  if (place_.victims_here(notice).empty() || failure_ != notice.id) return;
  failure_ = 0;
  // The restarted node lost the buddy copies it held: give them back, so that the cluster
  // tolerates its next failure too.
  for (const auto& clc : deps_.clcs()) ctx.replicate_checkpoint(clc.sn);
  // What the failed node sent before its CLC may never have been delivered: its re-sends or the
  // transfers it had under way died with it, and its log lost the acknowledgements. It sends
  // its logged messages again (receivers drop what they have), before computing again so that
  // they come first on each channel, and under the cluster's new epoch, so that a receiver
  // handles them after our alert (which may roll it back and change what it has delivered).
  if (notice.struck(place_.self())) log_.resend_all(ctx, deps_.epoch());
  if (alerts_due_) {
    alerts_due_ = false;
    victims_.clear();
    alerts_.send(ctx, rollback_sn_);
  }
  // A leader back from a failure lost the alerts sent to it while it was down, and those it had
  // not handled yet: it asks the other clusters' leaders for the rollbacks its cluster missed.
  if (place_.is_leader() && notice.struck(place_.self())) alerts_.query(ctx);
  if (place_.is_leader()) {
    leader_.arm_timer(ctx);
    if (deps_.sn() == 0) leader_.want_clc(); // back to the initial state: the initial CLC again
  }
  gate_.update_app(ctx);
  mailbox_.process_early_intra(ctx);
  mailbox_.process_inbox(ctx);
  alerts_.process(ctx);
  leader_.maybe_start(ctx);
  alerts_.answer_queries(ctx);
}

void Recovery::pending(std::vector<std::string>& what) const {
  const std::string me = place_.name(place_.self());
  if (waiting_order_) what.push_back(fmt::format("{}: waits for its cluster's rollback order", me));
  if (loading_) what.push_back(fmt::format("{}: loads a CLC", me));
  if (restarting()) what.push_back(fmt::format("{}: restarting", me));
  if (alerts_due_) {
    std::vector<std::string> names;
    for (NodeId v : victims_) names.push_back(place_.name(v));
    what.push_back(fmt::format("{}: will alert once {} back", me, fmt::join(names, ", ")));
  }
}

bool Recovery::hold_request(const Body& b) {
  if (!loading_ || b.get("epoch") != deps_.epoch()) return false;
  // The leader restored its CLC from its own memory and asks for the next one while this node
  // still loads it over the network: its SN is not the restored one yet. Answered once loaded.
  held_req_ = std::make_shared<Body>(b);
  return true;
}

bool Recovery::on_timer(NodeContext& ctx, int id) {
  if (!restart_delay_.end(ctx, id)) return false;
  restored(ctx);
  return true;
}

void Recovery::abort_clc(NodeContext& ctx, bool keep_saved) {
  const bool under_way = participant_.active() || leader_.active();
  if (auto doubt = participant_.abort(ctx, keep_saved)) in_doubt_ = std::move(doubt);
  if (under_way) ctx.stats().add_cluster("hc3i.clc_aborted", place_.cluster(), place_.is_leader() ? 1 : 0);
  leader_.abort();
}

} // namespace ckptsim::hc3i
