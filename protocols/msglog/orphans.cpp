#include "protocols/msglog/orphans.hpp"

#include "protocols/msglog/catchup.hpp"
#include "protocols/msglog/checkpoints.hpp"
#include "protocols/msglog/determinants.hpp"
#include "protocols/msglog/inbox.hpp"
#include "protocols/msglog/recovery.hpp"
#include "protocols/msglog/replay.hpp"
#include "protocols/msglog/sender_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace ckptsim::msglog {

bool Orphans::undone(NodeId w, std::uint64_t epoch, std::uint64_t rsn) const {
  if (epoch == kUnknownEpoch) return false;
  for (const Notice& n : notices_)
    if (n.who == w && epoch < n.epoch && rsn > n.target) return true;
  return false;
}

std::map<NodeId, IndexSet> Orphans::oldest_delivered() const {
  const Kept& oldest = kept_.front();
  if (!oldest.snap.protocol.has_value()) return {};
  return std::any_cast<const State&>(oldest.snap.protocol).delivered;
}

void Orphans::on_start(NodeContext& ctx) {
  if (id_.optimistic()) kept_.push_back({0, 0, ctx.initial_snapshot()});
}

void Orphans::keep(NodeContext& ctx, std::uint64_t number, std::uint64_t rsn, Snapshot s) {
  kept_.push_back({number, rsn, std::move(s)});
  while (kept_.size() > std::max<std::size_t>(id_.keep(), 1)) {
    if (kept_.front().number != 0) ctx.discard_checkpoint(kept_.front().number);
    kept_.pop_front();
  }
  // Deliveries before the oldest kept checkpoint can no longer be replayed: forget them.
  const std::uint64_t from = kept_.front().rsn;
  history_.erase(history_.begin(), history_.upper_bound(from));
  deps_.erase(deps_.begin(), deps_.upper_bound(from));
}

void Orphans::record_delivery(const Det& d, std::uint64_t epoch, std::uint64_t rsn) {
  // What an announced rollback is checked against: the sender's epoch and rsn it carried.
  history_[d.rsn] = d;
  deps_[d.rsn] = Dep{d.src, epoch, rsn};
  auto& mx = exec_.state().dv[d.src][epoch];
  mx = std::max(mx, rsn);
}

void Orphans::restored(std::uint64_t number, std::uint64_t rsn, const Snapshot& s) {
  kept_.clear();
  kept_.push_back({number, rsn, s});
}

void Orphans::lost_with_victims(NodeContext& ctx, NodeId who, std::uint64_t target, FailureId failure) {
  // Several processes failed together: this restarted one's checkpoint depends on deliveries of
  // who that failure undid (their determinants never reached the logger), and it has nothing older.
  ctx.unrecoverable(fmt::format("msglog optimistic: the checkpoint {} restarted from depends on deliveries of {} "
                                "after its delivery {}, undone by failure {}: their determinants were lost with "
                                "the victims before reaching the event logger",
                                ctx.layout().host_name(id_.self()), ctx.layout().host_name(who), target, failure));
}

void Orphans::learn(NodeId who, std::uint64_t epoch, std::uint64_t target) {
  // It filters the undone messages from now on; not marked seen: a fellow victim's fresh notice,
  // learnt here from the logger, is still checked against this process' state when it comes.
  notices_.push_back({who, epoch, target});
}

void Orphans::on_notice(NodeContext& ctx, NodeId who, const Body& b) {
  const std::uint64_t epoch = b.inc, target = b.get("target");
  if (!notices_seen_.insert({who, epoch}).second) return;
  notices_.push_back({who, epoch, target});
  // Waiting messages of its undone intervals are dropped.
  ctx.stats().add("msglog.stale", static_cast<double>(inbox_.drop_undone(who)));
  // A peer that rolled back keeps fewer deliveries from this process: its catch-up value drops.
  if (b.ints.count("next") && recovery_.active()) catchup_.cap(who, get_set(b));
  // The first delivery (done or still to replay) of an undone interval of who.
  std::uint64_t first = 0;
  for (const auto& [rsn, dep] : deps_)
    if (dep.src == who && undone(who, dep.epoch, dep.rsn)) {
      first = rsn;
      break;
    }
  if (first == 0) {
    // Not in the deliveries it remembers; the dependency vector covers the older ones.
    for (const auto& [ep, mx] : exec_.state().dv[who])
      if (ep != kUnknownEpoch && ep < epoch && mx > target) {
        if (recovery_.victim()) { // restarted: no older state, no determinants before its checkpoint
          lost_with_victims(ctx, who, target, b.get("failure"));
          return;
        }
        throw std::logic_error(fmt::format("msglog optimistic: process {} depends on an undone interval of {} "
                                           "through a delivery older than its kept checkpoints (raise keep)",
                                           id_.self(), who));
      }
    recovery_.check_recovered(ctx);
    return;
  }
  rollback(ctx, who, b.get("failure"), first - 1);
  inbox_.try_deliver(ctx);
  recovery_.check_recovered(ctx);
}

void Orphans::rollback(NodeContext& ctx, NodeId cause, FailureId failure, std::uint64_t target) {
  recovery_.orphaned(failure);
  exec_.next_epoch();
  ctx.stats().add("msglog.orphan_rollbacks");
  State& st = exec_.state();
  // What each peer's channel index will be once the replay is over: a peer that recovers expects
  // only these deliveries to be sent again.
  std::map<NodeId, IndexSet> next = st.delivered;
  for (auto it = history_.rbegin(); it != history_.rend() && it->first > target; ++it)
    next[it->second.src].erase(it->second.idx);
  std::uint64_t number = checkpoints_.kept(), ckpt_rsn = 0;
  checkpoints_.abandon(ctx);
  if (target >= st.rsn) {
    // Only deliveries still to replay are undone: the state stays, the replay stops earlier.
    replay_.truncate(target);
    deps_.erase(deps_.upper_bound(target), deps_.end());
    ckpt_rsn = kept_.empty() ? 0 : kept_.back().rsn;
    ctx.trace_event(0, "orphan_rollback",
                    {{"failure", recovery_.failure()},
                     {"cause", cause},
                     {"target", target},
                     {"checkpoint", nullptr},
                     {"rsn", st.rsn},
                     {"replay", replay_.size()}});
  } else {
    while (!kept_.empty() && kept_.back().rsn > target) {
      if (kept_.back().number != 0) ctx.discard_checkpoint(kept_.back().number);
      kept_.pop_back();
    }
    if (kept_.empty() && recovery_.victim()) { // a restarted victim keeps its restored checkpoint only
      lost_with_victims(ctx, cause, target, failure);
      return;
    }
    if (kept_.empty())
      throw std::logic_error(fmt::format("msglog optimistic: process {} must go back to delivery {}, before every "
                                         "checkpoint it keeps (raise keep)",
                                         id_.self(), target));
    const Kept& k = kept_.back();
    number = k.number;
    ckpt_rsn = k.rsn;
    std::deque<Det> again;
    for (const auto& [rsn, d] : history_)
      if (rsn > k.rsn && rsn <= target) again.push_back(d);
    replay_.restart_with(std::move(again));
    history_.erase(history_.upper_bound(k.rsn), history_.end());
    deps_.erase(deps_.upper_bound(target), deps_.end());
    ctx.trace_event(0, "orphan_rollback",
                    {{"failure", recovery_.failure()},
                     {"cause", cause},
                     {"target", target},
                     {"checkpoint", k.number},
                     {"rsn", k.rsn},
                     {"replay", replay_.size()}});
    ctx.restore(k.snap, fmt::format("msglog orphan rollback to checkpoint {} (failure {}, cause {})", k.number,
                                    recovery_.failure(), cause));
    exec_.restore(k.snap);
    checkpoints_.rolled_back_to(k.number);
    log_.recount(ctx);
    recovery_.rolled_back(ctx);
  }
  // The logger keeps only this process' determinants up to the checkpoint (the notice below says
  // so; DET messages of the old epoch are dropped there): the ones after it go again, in the new
  // epoch, now for what is already delivered, with the replay for the rest.
  dets_.rewind(ckpt_rsn, history_);
  replay_.resume();
  // Announce it: to the logger, which rewinds this process' determinants, and to every peer.
  auto l = std::make_shared<Body>();
  l->inc = exec_.epoch();
  l->ints = {{"failure", recovery_.failure()}, {"target", target}, {"number", number}, {"rsn", ckpt_rsn}};
  ctx.send_control(id_.logger(), control(Msg::RollbackNotice, l));
  ctx.trace_event(1, "rollback_notice",
                  {{"failure", recovery_.failure()}, {"epoch", exec_.epoch()}, {"target", target}});
  for (NodeId q = 0; q < id_.nodes(); q++) {
    if (q == id_.self()) continue;
    auto n = std::make_shared<Body>();
    n->inc = exec_.epoch();
    n->ints = {{"failure", recovery_.failure()}, {"target", target}};
    put_set(*n, next[q]);
    ctx.send_control(q, control(Msg::RollbackNotice, n));
  }
  dets_.flush(ctx);
  recovery_.start_round(ctx);
}

} // namespace ckptsim::msglog
