/* msglog process: application messages (channel indices, sender-based log, held sends) and the
 * determinants of its deliveries (batched to the event logger; causal: piggybacked until stable). */
#include "protocols/msglog/process.hpp"

#include <algorithm>
#include <stdexcept>

namespace ckptsim::msglog {

void Process::on_app_send(NodeContext& ctx, const AppMessage& msg) {
  ctx.stats().add("msglog.sends");
  // Pessimistic: nothing leaves that depends on a delivery whose determinant is not stable; the
  // held sends keep their order (a later send may not overtake an earlier held one).
  if (options_.variant == Variant::Pessimistic && (stable_ < st_.rsn || !st_.held.empty())) {
    st_.held.push_back({msg, st_.rsn, ctx.now()});
    ctx.stats().add("msglog.held");
    return;
  }
  send_now(ctx, msg, st_.rsn);
}

std::shared_ptr<Piggyback> Process::piggyback(std::uint64_t idx, std::uint64_t rsn, NodeId dst) const {
  auto pb = std::make_shared<Piggyback>();
  pb->idx = idx;
  pb->epoch = epoch_;
  pb->rsn = rsn;
  if (causal()) {
    pb->causal = true;
    pb->stable = stable_;
    for (const auto& [r, d] : own_unstable_) pb->dets.push_back(d);
    for (const auto& [owner, dets] : others_)
      if (owner != dst) // the owner has its own
        for (const auto& [r, d] : dets) pb->dets.push_back(d);
  }
  return pb;
}

void Process::send_now(NodeContext& ctx, const AppMessage& msg, std::uint64_t rsn) {
  // The channel index a re-execution gives the message again: with eager sends its rank in send
  // order; with rendezvous sends, whose order depends on when receivers post (a re-executed
  // sender's receivers are ahead, so it may send in another order), its rank in production order.
  auto& sent = st_.sent[msg.dst];
  const std::uint64_t idx = msg.chan ? *msg.chan : sent.next();
  sent.insert(idx);
  st_.log[msg.dst].push_back({msg, idx, rsn});
  log_entries_ += 1;
  log_bytes_ += msg.size;
  account_log(ctx);
  auto pb = piggyback(idx, rsn, msg.dst);
  if (causal()) {
    ctx.stats().add("msglog.piggyback_dets", static_cast<double>(pb->dets.size()));
    ctx.stats().add("msglog.piggyback_bytes", pb->bytes());
  }
  ctx.send_app(msg, std::move(pb));
  check_recovered(ctx);
}

void Process::release_held(NodeContext& ctx) {
  while (!st_.held.empty() && st_.held.front().rsn <= stable_) {
    const HeldSend h = st_.held.front();
    st_.held.pop_front();
    const double waited = ctx.now() - h.since;
    ctx.stats().add("msglog.hold_time", waited);
    ctx.stats().max("msglog.hold_max", waited);
    send_now(ctx, h.msg, h.rsn); // it depends on the deliveries before the application sent it
  }
}

void Process::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  auto p = std::dynamic_pointer_cast<const Piggyback>(pb);
  if (!p) throw std::logic_error("msglog: an application message without its piggyback");
  if (!restored_) { // the channel indices it is checked against are in the checkpoint
    before_restore_.push_back({msg, p});
    return;
  }
  accept(ctx, msg, p);
  try_deliver(ctx);
}

void Process::accept(NodeContext& ctx, const AppMessage& msg, const std::shared_ptr<const Piggyback>& pb) {
  const NodeId src = msg.src;
  auto& known = known_epoch_[src];
  if (optimistic()) {
    // An epoch is not enough: what an older epoch sent up to the announced target is kept (the
    // sender's re-execution may not send it again); only undone intervals are dropped.
    if (undone(src, pb->epoch, pb->rsn)) {
      ctx.stats().add("msglog.stale");
      return;
    }
  } else if (pb->epoch < known) { // sent by an incarnation that failed since: its re-execution re-sends
    ctx.stats().add("msglog.stale");
    return;
  }
  if (pb->epoch > known && !optimistic()) {
    known = pb->epoch;
    buffer_.drop_if(src, [&](const Arrived& a) { return a.pb->epoch < known; });
  }
  const IndexSet& delivered = st_.delivered[src];
  if (delivered.contains(pb->idx) ||
      buffer_.file(src, pb->idx, delivered.next(), Arrived{msg, pb}) != Arrivals::Filed::Held)
    ctx.stats().add("msglog.duplicates");
}

void Process::try_deliver(NodeContext& ctx) {
  if (!restored_ || restart_delay_.restarting()) return;
  if (failure_ != 0 && !replay_started_) return; // the replay order is not known yet
  while (true) {
    if (!replay_.empty()) {
      const Det d = replay_.front();
      if (st_.delivered[d.src].contains(d.idx) || d.rsn != st_.rsn + 1)
        throw std::logic_error("msglog: a determinant names a delivered message or does not follow the delivery order");
      std::optional<Arrived> a = buffer_.take(d.src, d.idx);
      if (!a) return; // its sender has not re-sent it yet
      replay_.pop_front();
      replayed_++;
      ctx.stats().add("msglog.replayed");
      ctx.trace_event(1, "replay_deliver", {{"src", d.src}, {"idx", d.idx}, {"rsn", d.rsn}});
      deliver(ctx, a->msg, a->pb, true);
      if (replay_.empty()) {
        ctx.trace_event(0, "replay_end", {{"failure", failure_}, {"rsn", st_.rsn}, {"replayed", replayed_}});
        check_recovered(ctx);
      }
      continue;
    }
    // Normal delivery: any message whose turn it is on its channel (every message its sender sent
    // before it is delivered), lowest source first.
    std::optional<Arrived> a;
    for (NodeId src : buffer_.senders()) {
      const IndexSet& delivered = st_.delivered[src];
      if ((a = buffer_.take_first(
               src, [&](std::uint64_t idx, const Arrived& x) { return delivered.all_below(idx, x.msg.overtook); })))
        break;
    }
    if (!a) return;
    deliver(ctx, a->msg, a->pb, false);
  }
}

void Process::deliver(NodeContext& ctx, const AppMessage& msg, const std::shared_ptr<const Piggyback>& pb,
                      bool replayed) {
  st_.delivered[msg.src].insert(pb->idx);
  st_.rsn++;
  const Det d{self_, msg.src, pb->idx, st_.rsn};
  ctx.deliver(msg, pb);
  if (optimistic()) {
    // What an announced rollback is checked against: the sender's epoch and rsn it carried.
    history_[d.rsn] = d;
    deps_[d.rsn] = Dep{msg.src, pb->epoch, pb->rsn};
    auto& mx = st_.dv[msg.src][pb->epoch];
    mx = std::max(mx, pb->rsn);
  }
  if (causal()) {
    // What the sender's state depended on now reaches this process' state too: keep the copies.
    for (const Det& o : pb->dets) {
      if (o.owner == self_) continue;
      auto ks = known_stable_.find(o.owner);
      if (ks != known_stable_.end() && o.rsn <= ks->second) continue;
      others_[o.owner].emplace(o.rsn, o);
    }
    learn_stable(msg.src, pb->stable);
    account_dets(ctx);
  }
  // A replayed delivery's determinant is known already; it still goes to the logger when only a
  // peer had it (causal).
  if (replayed && d.rsn <= stable_) return;
  if (causal()) own_unstable_[d.rsn] = d;
  pending_dets_.push_back(d);
  flush_dets(ctx);
}

void Process::flush_dets(NodeContext& ctx) {
  if (det_outstanding_ || pending_dets_.empty()) return;
  auto b = std::make_shared<Body>();
  b->inc = epoch_;
  b->dets = std::move(pending_dets_);
  pending_dets_.clear();
  const auto n = static_cast<double>(b->dets.size());
  ctx.stats().add("msglog.det_messages");
  ctx.stats().add("msglog.determinants", n);
  ctx.stats().add("msglog.det_bytes", kHeaderBytes + kDetBytes * n);
  det_outstanding_ = true;
  ctx.send_control(logger_, control(Msg::Det, b));
}

void Process::on_det_ack(NodeContext& ctx, const Body& b) {
  if (b.inc != epoch_) return; // an answer to a DET of this process' previous incarnation
  det_outstanding_ = false;
  const std::uint64_t stable = b.get("stable");
  if (stable > stable_) {
    stable_ = stable;
    ctx.trace_event(2, "det_stable", {{"rsn", stable_}});
  }
  if (causal()) {
    std::erase_if(own_unstable_, [&](const auto& item) { return item.first <= stable_; });
  } else {
    release_held(ctx);
  }
  flush_dets(ctx);
}

void Process::learn_stable(NodeId owner, std::uint64_t stable) {
  auto& known = known_stable_[owner];
  if (stable <= known) return;
  known = stable;
  auto it = others_.find(owner);
  if (it == others_.end()) return;
  std::erase_if(it->second, [&](const auto& item) { return item.first <= stable; });
  if (it->second.empty()) others_.erase(it);
}

void Process::account_dets(NodeContext& ctx) {
  double copies = 0;
  for (const auto& [owner, dets] : others_) copies += static_cast<double>(dets.size());
  ctx.stats().level("msglog.det_copies", self_, copies);
}

} // namespace ckptsim::msglog
