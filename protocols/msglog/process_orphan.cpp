/* msglog process, optimistic variant: the rollbacks that a failure spreads. A failed process is
 * rebuilt only up to the stable prefix of its determinants; every process that delivered a
 * message sent after that prefix (an undone interval) is an orphan: it restores its newest kept
 * checkpoint before that delivery, replays its own deliveries up to just before it (their order
 * is in its memory), and announces its own rollback in turn (ROLLBACK_NOTICE), until no orphan
 * is left. */
#include "protocols/msglog/process.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ckptsim::msglog {

bool Process::undone(NodeId w, std::uint64_t epoch, std::uint64_t rsn) const {
  if (epoch == kUnknownEpoch) return false;
  for (const Notice& n : notices_)
    if (n.who == w && epoch < n.epoch && rsn > n.target) return true;
  return false;
}

void Process::on_notice(NodeContext& ctx, NodeId who, const Body& b) {
  if (!restored_) { // what it is checked against is in the checkpoint being loaded
    early_notices_.emplace_back(who, std::make_shared<Body>(b));
    return;
  }
  const std::uint64_t epoch = b.inc, target = b.get("target");
  if (!notices_seen_.insert({who, epoch}).second) return;
  notices_.push_back({who, epoch, target});
  auto& known = known_epoch_[who];
  if (epoch > known) {
    known = epoch;
  }
  // Waiting messages of its undone intervals are dropped.
  const std::size_t undone_waiting =
      buffer_.drop_if(who, [&](const Arrived& a) { return undone(who, a.pb->epoch, a.pb->rsn); });
  ctx.stats().add("msglog.stale", static_cast<double>(undone_waiting));
  // A peer that rolled back keeps fewer deliveries from this process: its catch-up value drops.
  if (b.ints.count("next") && failure_ != 0) {
    const IndexSet kept = get_set(b);
    auto [cap, fresh] = caps_.emplace(who, kept);
    if (!fresh) cap->second = cap->second.intersection(kept);
    if (auto c = catchup_.find(who); c != catchup_.end()) c->second = c->second.intersection(kept);
  }
  // The first delivery (done or still to replay) of an undone interval of who.
  std::uint64_t first = 0;
  for (const auto& [rsn, dep] : deps_)
    if (dep.src == who && undone(who, dep.epoch, dep.rsn)) {
      first = rsn;
      break;
    }
  if (first == 0) {
    // Not in the deliveries it remembers; the dependency vector covers the older ones.
    for (const auto& [ep, mx] : st_.dv[who])
      if (ep != kUnknownEpoch && ep < epoch && mx > target)
        throw std::logic_error(fmt::format("msglog optimistic: process {} depends on an undone interval of {} "
                                           "through a delivery older than its kept checkpoints (raise keep)",
                                           self_, who));
    check_recovered(ctx);
    return;
  }
  orphan_rollback(ctx, who, b.get("failure"), first - 1);
  try_deliver(ctx);
  check_recovered(ctx);
}

void Process::orphan_rollback(NodeContext& ctx, NodeId cause, FailureId failure, std::uint64_t target) {
  if (failure_ == 0) failure_ = failure;
  epoch_++;
  ctx.stats().add("msglog.orphan_rollbacks");
  // What each peer's channel index will be once the replay is over: a peer that recovers expects
  // only these deliveries to be sent again.
  std::map<NodeId, IndexSet> next = st_.delivered;
  for (auto it = history_.rbegin(); it != history_.rend() && it->first > target; ++it)
    next[it->second.src].erase(it->second.idx);
  std::uint64_t number = kept_, ckpt_rsn = 0;
  if (saving_ != 0) { // its CKPT_DONE, of the old epoch, would be dropped by the logger
    if (saving_saved_)
      ctx.discard_checkpoint(saving_);
    else
      abandoned_.insert(saving_);
    saving_ = 0;
    saving_snap_ = Snapshot{};
  }
  if (target >= st_.rsn) {
    // Only deliveries still to replay are undone: the state stays, the replay stops earlier.
    while (!replay_.empty() && replay_.back().rsn > target) replay_.pop_back();
    deps_.erase(deps_.upper_bound(target), deps_.end());
    ckpt_rsn = kept_snaps_.empty() ? 0 : kept_snaps_.back().rsn;
    ctx.trace_event(0, "orphan_rollback",
                    {{"failure", failure_},
                     {"cause", cause},
                     {"target", target},
                     {"checkpoint", nullptr},
                     {"rsn", st_.rsn},
                     {"replay", replay_.size()}});
  } else {
    while (!kept_snaps_.empty() && kept_snaps_.back().rsn > target) {
      if (kept_snaps_.back().number != 0) ctx.discard_checkpoint(kept_snaps_.back().number);
      kept_snaps_.pop_back();
    }
    if (kept_snaps_.empty())
      throw std::logic_error(fmt::format("msglog optimistic: process {} must go back to delivery {}, before every "
                                         "checkpoint it keeps (raise keep)",
                                         self_, target));
    const Kept& k = kept_snaps_.back();
    number = k.number;
    ckpt_rsn = k.rsn;
    replay_.clear();
    for (const auto& [rsn, d] : history_)
      if (rsn > k.rsn && rsn <= target) replay_.push_back(d);
    history_.erase(history_.upper_bound(k.rsn), history_.end());
    deps_.erase(deps_.upper_bound(target), deps_.end());
    ctx.trace_event(0, "orphan_rollback",
                    {{"failure", failure_},
                     {"cause", cause},
                     {"target", target},
                     {"checkpoint", k.number},
                     {"rsn", k.rsn},
                     {"replay", replay_.size()}});
    ctx.restore(k.snap, fmt::format("msglog orphan rollback to checkpoint {} (failure {}, cause {})", k.number,
                                    failure_, cause));
    st_ = k.snap.protocol.has_value() ? std::any_cast<const State&>(k.snap.protocol) : State{};
    kept_ = k.number;
    recount_log();
    account_log(ctx);
    app_done_ = ctx.app_finished();
  }
  // The logger keeps only this process' determinants up to the checkpoint (the notice below says
  // so; DET messages of the old epoch are dropped there): the ones after it go again, in the new
  // epoch, now for what is already delivered, with the replay for the rest.
  stable_ = ckpt_rsn;
  pending_dets_.clear();
  for (const auto& [rsn, d] : history_)
    if (rsn > ckpt_rsn) pending_dets_.push_back(d);
  det_outstanding_ = false;
  replay_started_ = true;
  replayed_ = 0;
  // Announce it: to the logger, which rewinds this process' determinants, and to every peer.
  auto l = std::make_shared<Body>();
  l->inc = epoch_;
  l->ints = {{"failure", failure_}, {"target", target}, {"number", number}, {"rsn", ckpt_rsn}};
  ctx.send_control(logger_, control(Msg::RollbackNotice, l));
  ctx.trace_event(1, "rollback_notice", {{"failure", failure_}, {"epoch", epoch_}, {"target", target}});
  for (NodeId q = 0; q < nodes_; q++) {
    if (q == self_) continue;
    auto n = std::make_shared<Body>();
    n->inc = epoch_;
    n->ints = {{"failure", failure_}, {"target", target}};
    put_set(*n, next[q]);
    ctx.send_control(q, control(Msg::RollbackNotice, n));
  }
  flush_dets(ctx);
  start_round(ctx);
}

void Process::start_round(NodeContext& ctx) {
  catchup_.clear();
  caps_.clear();
  peers_resent_ = 0;
  request_resends(ctx);
}

void Process::request_resends(NodeContext& ctx) {
  for (NodeId q = 0; q < nodes_; q++) {
    if (q == self_) continue;
    auto b = std::make_shared<Body>();
    b->inc = epoch_;
    b->ints = {{"failure", failure_}};
    put_set(*b, st_.delivered[q]);
    ctx.send_control(q, control(Msg::ResendReq, b));
  }
}

} // namespace ckptsim::msglog
