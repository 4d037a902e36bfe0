#include "sim/node/outbox.hpp"

#include "sim/engine/run.hpp"

namespace ckptsim {

Outbox::Outbox(Run& run, NodeId self, Incarnation inc)
    : run_(run)
    , self_(self)
    , inc_(inc) {}

void Outbox::post(std::unique_ptr<Envelope> env) {
  env->src = self_;
  env->src_inc = inc_;
  env->dst_inc = run_.incarnation(env->dst);
  env->chan_seq = channels_.next(env->dst, env->dst_inc);
  CommProxies::ProxyPtr via;
  auto [wire, comm] = run_.post(std::move(env), via);
  if (!comm) return;
  sends_.push_back({wire, std::move(comm), std::move(via)});
  run_.proxies().pending_sends(self_, sends_.size());
}

void Outbox::add_oldest(std::vector<sg4::CommPtr>& waited, std::size_t max) const {
  const std::size_t n = std::min(sends_.size(), max);
  for (std::size_t i = 0; i < n; i++) waited.push_back(sends_[i].comm);
}

void Outbox::delivered(std::size_t index) {
  auto sent = sends_.begin() + static_cast<std::ptrdiff_t>(index);
  run_.proxies().consumed(sent->via);
  sends_.erase(sent);
}

void Outbox::drop_failed() {
  std::erase_if(sends_, [this](auto& s) {
    if (s.comm->get_state() != sg4::Activity::State::FAILED) return false;
    run_.drop(s.wire); // the receiver died during the transfer: the message is lost
    run_.proxies().consumed(s.via);
    return true;
  });
}

void Outbox::cancel_all() {
  for (auto& s : sends_) {
    if (!s.comm->test()) s.comm->cancel();
    run_.proxies().consumed(s.via);
  }
  sends_.clear();
}

} // namespace ckptsim
