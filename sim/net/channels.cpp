#include "sim/net/channels.hpp"

namespace ckptsim {

std::uint64_t ChannelSender::next(NodeId dst, Incarnation inc) {
  State& s = out_[dst];
  if (s.inc != inc) { // the destination restarted: a new channel begins
    s.inc = inc;
    s.next = 0;
  }
  return s.next++;
}

std::vector<std::unique_ptr<Envelope>> ChannelReceiver::accept(std::unique_ptr<Envelope> env) {
  std::vector<std::unique_ptr<Envelope>> ready;
  auto [it, inserted] = in_.try_emplace(env->src);
  State& s = it->second;
  if (!inserted && env->src_inc < s.inc) {
    counters_.stale++;
    return ready;
  }
  if (inserted || env->src_inc > s.inc) { // first message from this incarnation of the sender
    s.inc = env->src_inc;
    s.expected = 0;
    s.early.clear();
  }
  if (env->chan_seq < s.expected || s.early.count(env->chan_seq)) {
    counters_.duplicates++;
    return ready;
  }
  if (env->chan_seq > s.expected) {
    counters_.reordered++;
    s.early.emplace(env->chan_seq, std::move(env));
    return ready;
  }
  ready.push_back(std::move(env));
  s.expected++;
  for (auto e = s.early.begin(); e != s.early.end() && e->first == s.expected; e = s.early.erase(e)) {
    ready.push_back(std::move(e->second));
    s.expected++;
  }
  return ready;
}

void ChannelReceiver::forget(NodeId src) {
  if (auto it = in_.find(src); it != in_.end()) it->second.early.clear();
}

} // namespace ckptsim
