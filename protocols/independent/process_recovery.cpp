/* Failures and rollbacks on a computing node. On a failure notice the node stops computing; on
 * the recovery manager's RECOVER_REQ it freezes its unit's checkpoint under way, holds every
 * application message that arrives and reports its state (D, next expected index per sender).
 * The manager's ROLLBACK gives the recovery line, every unit's epoch and, for this node as a
 * sender, the index each receiver expects next on the channels that a rollback touched. A node
 * whose unit is on the line restores that checkpoint (or the initial state); the held messages
 * then go through the normal filters. Once every victim is back, the node re-sends its logged
 * messages from those indices (receivers drop what they have) and resumes. The restarted victim
 * gets the stable knowledge it lost with its order, and pays its restart overhead. */
#include "protocols/independent/process.hpp"

#include <fmt/format.h>

namespace ckptsim::independent {

void Process::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  waiting_for_.insert(notice.id);
  update_app(ctx); // stopped until the recovery line is applied and the victim is back
}

void Process::on_restart(NodeContext& ctx, const FailureNotice& own) {
  count_log(ctx); // the log in the dead incarnation's memory is gone
  restart_delay_.begin();
  waiting_for_ = std::set<FailureId>(own.down.begin(), own.down.end());
  waiting_for_.insert(own.id);
  update_app(ctx);
  auto b = std::make_shared<Body>();
  b->ints = {{"failure", static_cast<std::int64_t>(own.id)}};
  for (NodeId v : own.victims)
    if (v != ctx.self()) b->victims.push_back(v);
  ctx.send_control(manager_, control(Msg::Restarted, b));
}

void Process::on_recover_req(NodeContext& ctx, const Body& b) {
  const auto f = static_cast<FailureId>(b.get("failure"));
  if (f <= generation_ || restarting()) return;
  holding_ = true;
  waiting_for_.insert(f); // the request may come before the notice
  freeze_checkpoint();
  update_app(ctx);
  auto s = std::make_shared<Body>();
  s->ints = {{"failure", static_cast<std::int64_t>(f)}};
  s->deps = cur_.deps;
  for (const auto& [sender, next] : cur_.expected)
    if (next > 0) s->channels[sender] = next;
  ctx.send_control(manager_, control(Msg::State, s));
}

void Process::on_rollback(NodeContext& ctx, const Body& b) {
  const auto f = static_cast<FailureId>(b.get("failure"));
  if (restarting()) {
    if (loading_ || generation_ != 0) return;
    history_ = b.history;
    history_.resize(static_cast<std::size_t>(units_.count()));
    stored_ = std::set<std::int64_t>(b.stored.begin(), b.stored.end());
    next_number_ = b.get("next_number");
  } else {
    if (f <= generation_) return;
    for (std::size_t w = 0; w < b.line.size(); w++)
      if (b.line[w] >= 0) history_[w].emplace_back(b.epochs[w], b.line[w]);
  }
  epochs_ = b.epochs;
  generation_ = f;
  holding_ = false;
  resolve_frozen(ctx, b.get("committed"));
  std::erase_if(flushes_, [this](const auto& item) { return item.first.first < generation_; });
  for (const auto& [receiver, from] : b.channels) {
    auto [it, fresh] = resend_from_.emplace(receiver, from);
    if (!fresh) it->second = std::min(it->second, from);
  }
  const std::int64_t target = b.line[static_cast<std::size_t>(unit_)];
  if (target < 0) {
    purge_orphans(ctx); // early messages of the senders that rolled back
    restored(ctx);
    return;
  }
  for (auto it = stored_.begin(); it != stored_.end();) // the checkpoints after the target can never be restored
    it = *it > target ? (ctx.discard_checkpoint(static_cast<std::uint64_t>(*it)), stored_.erase(it)) : std::next(it);
  loading_ = true;
  timer_due_ = false; // the timer starts again once the unit computes (try_ready)
  kCheckpointTimer.cancel(ctx);
  update_app(ctx);
  if (target > 0) {
    ctx.load_checkpoint(static_cast<std::uint64_t>(target)); // own memory, or stable storage for the victim
    return;
  }
  ctx.restore(ctx.initial_snapshot(),
              fmt::format("independent: unit {} back to checkpoint 0, the initial state (failure {})", unit_, f));
  cur_ = SavedState{};
  count_log(ctx);
  cur_.deps.assign(static_cast<std::size_t>(units_.count()), -1);
  early_.clear(); // this node expects from the restored indices again: the senders re-send
  loading_ = false;
  rearm_ = true;
  restored(ctx);
}

void Process::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  if (!loading_) return;
  ctx.restore(s, fmt::format("independent: unit {} back to checkpoint {} (failure {})", unit_, number, generation_));
  cur_ = std::any_cast<const SavedState&>(s.protocol);
  count_log(ctx);
  early_.clear();
  loading_ = false;
  rearm_ = true;
  restored(ctx);
}

void Process::restored(NodeContext& ctx) {
  if (restarting()) { // the restarted process pays its restart overhead, then it is back
    restart_delay_.pay(ctx);
    return;
  }
  ctx.recovered(generation_);
  release_held(ctx);
  auto inits = std::move(early_inits_);
  early_inits_.clear();
  for (const auto& i : inits) on_init(ctx, *i);
  try_ready(ctx);
}

void Process::release_held(NodeContext& ctx) {
  auto intra = std::move(early_intra_);
  early_intra_.clear();
  auto held = std::move(held_);
  held_.clear();
  for (auto& [msg, pb] : intra) on_app_receive(ctx, msg, pb);
  for (auto& [msg, pb] : held) on_app_receive(ctx, msg, pb);
}

void Process::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  waiting_for_.erase(notice.id);
  // The restarted node lost the copies it held for others (buddy storage) and its own memory
  // copies: give them back, so that the next failure finds them.
  for (std::int64_t n : stored_) ctx.replicate_checkpoint(static_cast<std::uint64_t>(n));
  try_ready(ctx);
}

void Process::try_ready(NodeContext& ctx) {
  if (recovering() || !waiting_for_.empty()) {
    update_app(ctx);
    return;
  }
  // Every victim is back: what the receivers lost can be re-sent (nothing is sent to a node that
  // is down). Receivers drop the indices they already have.
  for (const auto& [receiver, from] : resend_from_) {
    auto log = cur_.log.find(receiver);
    if (log == cur_.log.end()) continue;
    for (auto e = log->second.lower_bound(from); e != log->second.end(); ++e) {
      ctx.resend_app(e->second.msg, e->second.pb);
      ctx.stats().add("independent.replays");
    }
  }
  resend_from_.clear();
  update_app(ctx);
  if (rearm_) { // a unit that rolled back checkpoints a period after it computes again
    rearm_ = false;
    arm_timer(ctx);
  }
  maybe_start_checkpoint(ctx);
}

} // namespace ckptsim::independent
