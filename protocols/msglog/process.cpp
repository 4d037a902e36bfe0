/* msglog process: identity, dispatch, independent checkpoints and the garbage collection they
 * allow (the logger drops the determinants before the checkpoint, the senders the logged
 * messages the checkpoint has delivered). */
#include "protocols/msglog/process.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ckptsim::msglog {

Process::Process(const FederationLayout& layout, NodeId self, Options options)
    : layout_(layout)
    , self_(self)
    , nodes_(layout.num_nodes())
    , logger_(layout.num_nodes())
    , options_(options) {}

void Process::on_start(NodeContext& ctx) {
  epoch_ = optimistic() ? ctx.incarnation() * kEpochStride : ctx.incarnation();
  period_ = ctx.timer_period("checkpoint_period");
  // optimistic: an orphan may have to go back before its first checkpoint.
  if (optimistic()) kept_snaps_.push_back({0, 0, ctx.initial_snapshot()});
  arm_ckpt_timer(ctx);
}

void Process::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const Body& b = body(msg);
  switch (control_kind<Msg>(msg)) {
  case Msg::DetAck:
    return on_det_ack(ctx, b);
  case Msg::CkptAck:
    return on_ckpt_ack(ctx, b);
  case Msg::LogGc:
    return on_log_gc(ctx, from, b);
  case Msg::Replay:
    return on_replay(ctx, b);
  case Msg::ResendReq:
    return on_resend_req(ctx, from, b);
  case Msg::Catchup:
    return on_catchup(ctx, from, b);
  case Msg::RollbackNotice:
    return on_notice(ctx, from, b);
  case Msg::Det:
  case Msg::CkptDone:
  case Msg::ReplayReq:
    break; // the event logger's
  }
  unexpected_control("msglog", msg);
}

void Process::on_timer(NodeContext& ctx, int id) {
  if (restart_delay_.end(ctx, id)) {
    ctx.resume_app();
    arm_ckpt_timer(ctx);
    maybe_start_replay(ctx);
    try_deliver(ctx);
    check_recovered(ctx);
    return;
  }
  if (id == kCkptTimer) {
    take_checkpoint(ctx);
    arm_ckpt_timer(ctx);
  }
}

void Process::arm_ckpt_timer(NodeContext& ctx) {
  if (!std::isfinite(period_) || ctx.app_finished()) return;
  if (next_ckpt_ == 0) {
    // Each process has its own phase, spread by the golden ratio: no artificial synchrony, no RNG.
    const double x = static_cast<double>(self_) * 0.6180339887;
    next_ckpt_ = period_ * (x - std::floor(x));
    if (next_ckpt_ <= 0) next_ckpt_ = period_;
  }
  // Strictly after now, with the engine's date tolerance: a timer due "now" would fire again.
  while (next_ckpt_ <= ctx.now() + 1e-6) next_ckpt_ += period_;
  ctx.set_timer(kCkptTimer, next_ckpt_);
}

void Process::take_checkpoint(NodeContext& ctx) {
  // Not while this process recovers (its state is being rebuilt) nor while the previous
  // checkpoint is not committed at the logger: the next period will do.
  if (failure_ != 0 || !restored_ || restart_delay_.restarting() || saving_ != 0 || ctx.app_finished()) {
    ctx.stats().add("msglog.checkpoints_skipped");
    return;
  }
  // Numbers are never reused: an orphan rollback may go back to an older checkpoint.
  saving_ = std::max({st_.number, kept_, max_number_}) + 1;
  max_number_ = saving_;
  saving_saved_ = false;
  st_.number = saving_;
  saving_rsn_ = st_.rsn;
  saving_delivered_ = st_.delivered;
  // A copy of the state: the application goes on while the copies are written (the storage
  // model's transfers take network time; the process does not block).
  Snapshot snap = ctx.snapshot(st_);
  if (optimistic()) saving_snap_ = snap; // kept in memory too: an orphan rollback restores it at once
  ctx.save_checkpoint(saving_, std::move(snap));
}

void Process::on_saved(NodeContext& ctx, std::uint64_t number) {
  if (abandoned_.erase(number)) { // an orphan rollback undid it while it was being written
    ctx.discard_checkpoint(number);
    return;
  }
  if (number != saving_) return;
  saving_saved_ = true;
  // The logger must know the new checkpoint before anything older is dropped: a failure in
  // between restarts from what the logger names.
  auto b = std::make_shared<Body>();
  b->inc = epoch_;
  b->ints = {{"number", number}, {"rsn", saving_rsn_}};
  ctx.send_control(logger_, control(Msg::CkptDone, b));
}

void Process::on_ckpt_ack(NodeContext& ctx, const Body& b) {
  const std::uint64_t number = b.get("number");
  if (number != saving_) return;
  const std::uint64_t previous = kept_;
  kept_ = number;
  saving_ = 0;
  ctx.stats().add("msglog.checkpoints");
  ctx.trace_event(1, "ckpt_commit", {{"unit", "process"}, {"number", number}, {"rsn", saving_rsn_}});
  std::map<NodeId, IndexSet> gc = saving_delivered_;
  if (optimistic()) {
    keep_checkpoint(ctx, number, saving_rsn_, std::move(saving_snap_));
    saving_snap_ = Snapshot{};
    // The senders may forget only what the oldest kept checkpoint has delivered: an orphan may
    // restore it and replay from there.
    const Kept& oldest = kept_snaps_.front();
    gc.clear();
    if (oldest.snap.protocol.has_value()) gc = std::any_cast<const State&>(oldest.snap.protocol).delivered;
  } else if (previous != 0) {
    ctx.discard_checkpoint(previous);
  }
  // The senders may forget what this checkpoint has delivered.
  for (const auto& [src, delivered] : gc) {
    auto& sent = gc_sent_[src];
    if (sent.covers(delivered)) continue;
    sent = delivered;
    auto g = std::make_shared<Body>();
    g->inc = epoch_;
    put_set(*g, delivered);
    ctx.send_control(src, control(Msg::LogGc, g));
  }
}

void Process::keep_checkpoint(NodeContext& ctx, std::uint64_t number, std::uint64_t rsn, Snapshot s) {
  kept_snaps_.push_back({number, rsn, std::move(s)});
  while (kept_snaps_.size() > std::max<std::size_t>(options_.keep, 1)) {
    if (kept_snaps_.front().number != 0) ctx.discard_checkpoint(kept_snaps_.front().number);
    kept_snaps_.pop_front();
  }
  // Deliveries before the oldest kept checkpoint can no longer be replayed: forget them.
  const std::uint64_t from = kept_snaps_.front().rsn;
  history_.erase(history_.begin(), history_.upper_bound(from));
  deps_.erase(deps_.begin(), deps_.upper_bound(from));
}

void Process::on_log_gc(NodeContext& ctx, NodeId from, const Body& b) {
  auto it = st_.log.find(from);
  if (it == st_.log.end()) return;
  auto& entries = it->second;
  const IndexSet delivered = get_set(b);
  const std::size_t dropped = std::erase_if(entries, [&](const LogEntry& e) {
    if (!delivered.contains(e.idx)) return false;
    log_entries_ -= 1;
    log_bytes_ -= e.msg.size;
    return true;
  });
  ctx.stats().add("msglog.log_gc_dropped", static_cast<double>(dropped));
  account_log(ctx);
}

void Process::recount_log() {
  log_entries_ = 0;
  log_bytes_ = 0;
  for (const auto& [dst, list] : st_.log) {
    log_entries_ += static_cast<double>(list.size());
    for (const auto& e : list) log_bytes_ += e.msg.size;
  }
}

void Process::account_log(NodeContext& ctx) {
  count_logged(ctx.stats(), self_, static_cast<double>(log_entries_), log_bytes_);
}

void Process::on_failure_detected(NodeContext& /*ctx*/, const FailureNotice& /*notice*/) {
  // Nothing to undo here: the failed process asks for what it needs (RESEND_REQ), and its
  // messages from before the failure are told apart by their epoch.
}

void Process::on_app_finished(NodeContext& ctx) {
  app_done_ = true;
  ctx.cancel_timer(kCkptTimer);
  check_recovered(ctx);
}

bool Process::idle() const {
  return st_.held.empty() && pending_dets_.empty() && !det_outstanding_ && failure_ == 0 && saving_ == 0;
}

} // namespace ckptsim::msglog
