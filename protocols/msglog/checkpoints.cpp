#include "protocols/msglog/checkpoints.hpp"

#include "protocols/msglog/determinants.hpp"
#include "protocols/msglog/orphans.hpp"
#include "protocols/msglog/recovery.hpp"

#include <algorithm>
#include <cmath>

namespace ckptsim::msglog {

void Checkpoints::arm_timer(NodeContext& ctx) {
  if (!std::isfinite(period_) || ctx.app_finished()) return;
  if (next_ckpt_ == 0) {
    // Each process has its own phase, spread by the golden ratio: no artificial synchrony, no RNG.
    const double x = static_cast<double>(id_.self()) * 0.6180339887;
    next_ckpt_ = period_ * (x - std::floor(x));
    if (next_ckpt_ <= 0) next_ckpt_ = period_;
  }
  // Strictly after now, with the engine's date tolerance: a timer due "now" would fire again.
  while (next_ckpt_ <= ctx.now() + 1e-6) next_ckpt_ += period_;
  ctx.set_timer(kCkptTimer, next_ckpt_);
}

void Checkpoints::on_timer(NodeContext& ctx) {
  take(ctx);
  arm_timer(ctx);
}

void Checkpoints::take(NodeContext& ctx) {
  // Not while this process recovers (its state is being rebuilt) nor while the previous
  // checkpoint is not committed at the logger: the next period will do.
  if (recovery_.active() || !recovery_.restored() || recovery_.restarting() || saving_ != 0 || ctx.app_finished()) {
    ctx.stats().add("msglog.checkpoints_skipped");
    return;
  }
  State& st = exec_.state();
  // Numbers are never reused: an orphan rollback may go back to an older checkpoint.
  saving_ = std::max({st.number, kept_, max_number_}) + 1;
  max_number_ = saving_;
  saving_saved_ = false;
  st.number = saving_;
  saving_rsn_ = st.rsn;
  saving_delivered_ = st.delivered;
  // A copy of the state: the application goes on while the copies are written (the storage
  // model's transfers take network time; the process does not block).
  if (id_.causal()) st.copies = dets_.copies(); // what a fellow victim may need back (sender_log.cpp)
  Snapshot snap = ctx.snapshot(st);
  st.copies.clear();                         // the live state does not carry them: Determinants does
  if (id_.optimistic()) saving_snap_ = snap; // kept in memory too: an orphan rollback restores it at once
  ctx.save_checkpoint(saving_, std::move(snap));
}

void Checkpoints::on_saved(NodeContext& ctx, std::uint64_t number) {
  if (abandoned_.erase(number)) { // an orphan rollback undid it while it was being written
    ctx.discard_checkpoint(number);
    return;
  }
  if (number != saving_) return;
  saving_saved_ = true;
  // The logger must know the new checkpoint before anything older is dropped: a failure in
  // between restarts from what the logger names.
  auto b = std::make_shared<Body>();
  b->inc = exec_.epoch();
  b->ints = {{"number", number}, {"rsn", saving_rsn_}};
  ctx.send_control(id_.logger(), control(Msg::CkptDone, b));
}

void Checkpoints::on_ack(NodeContext& ctx, const Body& b) {
  const std::uint64_t number = b.get("number");
  if (number != saving_) return;
  const std::uint64_t previous = kept_;
  kept_ = number;
  saving_ = 0;
  ctx.stats().add("msglog.checkpoints");
  ctx.trace_event(1, "ckpt_commit", {{"unit", "process"}, {"number", number}, {"rsn", saving_rsn_}});
  std::map<NodeId, IndexSet> gc = saving_delivered_;
  if (id_.optimistic()) {
    orphans_.keep(ctx, number, saving_rsn_, std::move(saving_snap_));
    saving_snap_ = Snapshot{};
    // The senders may forget only what the oldest kept checkpoint has delivered: an orphan may
    // restore it and replay from there.
    gc = orphans_.oldest_delivered();
  } else if (previous != 0) {
    ctx.discard_checkpoint(previous);
  }
  // The senders may forget what this checkpoint has delivered.
  for (const auto& [src, delivered] : gc) {
    auto& sent = gc_sent_[src];
    if (sent.covers(delivered)) continue;
    sent = delivered;
    auto g = std::make_shared<Body>();
    g->inc = exec_.epoch();
    put_set(*g, delivered);
    ctx.send_control(src, control(Msg::LogGc, g));
  }
}

void Checkpoints::restored(std::uint64_t number) {
  kept_ = number;
  max_number_ = std::max(max_number_, number);
}

void Checkpoints::abandon(NodeContext& ctx) {
  if (saving_ == 0) return;
  if (saving_saved_)
    ctx.discard_checkpoint(saving_);
  else
    abandoned_.insert(saving_);
  saving_ = 0;
  saving_snap_ = Snapshot{};
}

} // namespace ckptsim::msglog
