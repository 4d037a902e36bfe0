#include "sim/node/outbox.hpp"

#include "sim/node/ports.hpp"

namespace ckptsim {

Outbox::Outbox(NodeEnv& env, NodeId self, Incarnation inc)
    : env_(env)
    , self_(self)
    , inc_(inc) {}

bool Outbox::post(std::unique_ptr<Envelope> env, std::uint64_t awaited) {
  env->src = self_;
  env->src_inc = inc_;
  env->dst_inc = env_.wire.incarnation(env->dst);
  env->chan_seq = env_.wire.channel_next(self_, inc_, env->dst, env->dst_inc);
  CommProxies::ProxyPtr via;
  const Posted posted = env_.wire.post(std::move(env), via);
  switch (posted.how) {
  case Posted::How::Lost:
    return false;
  case Posted::How::Held:
    held_.push_back({posted.wire, awaited});
    env_.wire.wait_for_route(self_);
    return true;
  case Posted::How::Started:
    break;
  }
  started(posted, std::move(via), awaited);
  return true;
}

void Outbox::started(const Posted& posted, CommProxies::ProxyPtr via, std::uint64_t awaited) {
  sends_.push_back({posted.wire, posted.comm, std::move(via), awaited});
  if (awaited != kNotAwaited) awaited_++;
  env_.wire.proxies().pending_sends(self_, sends_.size());
}

void Outbox::retry_held(std::vector<std::uint64_t>& awaited_lost) {
  auto held = std::exchange(held_, {});
  for (const HeldSend& h : held) {
    CommProxies::ProxyPtr via;
    const Posted posted = env_.wire.repost(h.wire, via);
    if (posted.how == Posted::How::Started)
      started(posted, std::move(via), h.awaited);
    else if (posted.how == Posted::How::Held)
      held_.push_back(h);
    else if (h.awaited != kNotAwaited)
      awaited_lost.push_back(h.awaited);
  }
  if (!held_.empty()) env_.wire.wait_for_route(self_);
}

void Outbox::add_waited(std::vector<sg4::CommPtr>& waited, std::size_t max) {
  waited_.clear();
  const std::size_t n = std::min(sends_.size(), max);
  for (std::size_t i = 0; i < n; i++) waited_.push_back(i);
  // An awaited send further back is waited for too: its end moves the application on.
  std::size_t left = awaited_; // those beyond the oldest n, so that the scan stops at the last one
  for (std::size_t i = 0; i < n; i++)
    if (sends_[i].awaited != kNotAwaited) left--;
  for (std::size_t i = n; i < sends_.size() && left > 0; i++)
    if (sends_[i].awaited != kNotAwaited) {
      waited_.push_back(i);
      left--;
    }
  for (std::size_t i : waited_) waited.push_back(sends_[i].comm);
}

std::uint64_t Outbox::delivered(std::size_t index) {
  auto sent = sends_.begin() + static_cast<std::ptrdiff_t>(waited_[index]);
  const std::uint64_t awaited = sent->awaited;
  if (awaited != kNotAwaited) awaited_--;
  env_.wire.proxies().consumed(sent->via);
  sends_.erase(sent);
  return awaited;
}

void Outbox::drop_failed(std::vector<std::uint64_t>& awaited_lost) {
  const std::size_t held_before = held_.size();
  std::erase_if(sends_, [&](auto& s) {
    if (s.comm->get_state() != sg4::Activity::State::FAILED) return false;
    env_.wire.proxies().consumed(s.via);
    if (s.awaited != kNotAwaited) awaited_--;
    if (env_.wire.cut(s.wire)) { // both ends run: a link failure cut it, it goes again later
      held_.push_back({s.wire, s.awaited});
      return true;
    }
    // The receiver died during the transfer: the message is lost (cut() dropped it).
    if (s.awaited != kNotAwaited) awaited_lost.push_back(s.awaited);
    return true;
  });
  if (held_.size() > held_before) env_.wire.wait_for_route(self_);
}

void Outbox::forget_awaited() {
  for (auto& s : sends_) s.awaited = kNotAwaited;
  for (auto& h : held_) h.awaited = kNotAwaited;
  awaited_ = 0;
}

void Outbox::cancel_all() {
  for (auto& s : sends_) {
    if (!s.comm->test()) s.comm->cancel();
    env_.wire.proxies().consumed(s.via);
  }
  sends_.clear();
  held_.clear(); // on the wire still: the purge of this node, or the end of the run, settles them
  awaited_ = 0;
}

} // namespace ckptsim
