#include "protocols/msglog/determinants.hpp"

#include "protocols/msglog/sender_log.hpp"

namespace ckptsim::msglog {

std::vector<Det> Determinants::copies_of(NodeId owner) const {
  std::vector<Det> out;
  if (auto it = others_.find(owner); it != others_.end())
    for (const auto& [r, d] : it->second) out.push_back(d);
  return out;
}

void Determinants::fill(Piggyback& pb, NodeId dst) const {
  pb.stable = stable_;
  for (const auto& [r, d] : own_unstable_) pb.dets.push_back(d);
  for (const auto& [owner, dets] : others_)
    if (owner != dst) // the owner has its own
      for (const auto& [r, d] : dets) pb.dets.push_back(d);
}

void Determinants::on_delivered(NodeContext& ctx, const Det& d, const Piggyback& pb, bool replayed) {
  if (id_.causal()) {
    // What the sender's state depended on now reaches this process' state too: keep the copies.
    for (const Det& o : pb.dets) {
      if (o.owner == id_.self()) continue;
      auto ks = known_stable_.find(o.owner);
      if (ks != known_stable_.end() && o.rsn <= ks->second) continue;
      others_[o.owner].emplace(o.rsn, o);
    }
    learn_stable(d.src, pb.stable);
    account(ctx);
  }
  // A replayed delivery's determinant is known already; it still goes to the logger when only a
  // peer had it (causal).
  if (replayed && d.rsn <= stable_) return;
  if (id_.causal()) own_unstable_[d.rsn] = d;
  pending_.push_back(d);
  flush(ctx);
}

void Determinants::flush(NodeContext& ctx) {
  if (outstanding_ || pending_.empty()) return;
  auto b = std::make_shared<Body>();
  b->inc = exec_.epoch();
  b->dets = std::move(pending_);
  pending_.clear();
  const auto n = static_cast<double>(b->dets.size());
  ctx.stats().add("msglog.det_messages");
  ctx.stats().add("msglog.determinants", n);
  ctx.stats().add("msglog.det_bytes", kHeaderBytes + kDetBytes * n);
  outstanding_ = true;
  ctx.send_control(id_.logger(), control(Msg::Det, b));
}

void Determinants::on_ack(NodeContext& ctx, const Body& b) {
  if (b.inc != exec_.epoch()) return; // an answer to a DET of this process' previous incarnation
  outstanding_ = false;
  const std::uint64_t stable = b.get("stable");
  if (stable > stable_) {
    stable_ = stable;
    ctx.trace_event(2, "det_stable", {{"rsn", stable_}});
  }
  if (id_.causal()) {
    std::erase_if(own_unstable_, [&](const auto& item) { return item.first <= stable_; });
  } else {
    log_.release_held(ctx);
  }
  flush(ctx);
}

void Determinants::rewind(std::uint64_t ckpt_rsn, const std::map<std::uint64_t, Det>& history) {
  stable_ = ckpt_rsn;
  pending_.clear();
  for (const auto& [rsn, d] : history)
    if (rsn > ckpt_rsn) pending_.push_back(d);
  outstanding_ = false;
}

void Determinants::learn_stable(NodeId owner, std::uint64_t stable) {
  auto& known = known_stable_[owner];
  if (stable <= known) return;
  known = stable;
  auto it = others_.find(owner);
  if (it == others_.end()) return;
  std::erase_if(it->second, [&](const auto& item) { return item.first <= stable; });
  if (it->second.empty()) others_.erase(it);
}

void Determinants::account(NodeContext& ctx) const {
  double copies = 0;
  for (const auto& [owner, dets] : others_) copies += static_cast<double>(dets.size());
  ctx.stats().level("msglog.det_copies", id_.self(), copies);
}

} // namespace ckptsim::msglog
