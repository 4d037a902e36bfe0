#include "sim/net/channels.hpp"

namespace ckptsim {

std::uint64_t ChannelTable::next(NodeId src, Incarnation src_inc, NodeId dst, Incarnation dst_inc) {
  Channel& c = channels_[pair_key(src, dst)];
  if (c.s_src != src_inc || c.s_dst != dst_inc) { // a new sender, or the destination restarted
    c.s_src = src_inc;
    c.s_dst = dst_inc;
    c.next = 0;
  }
  return c.next++;
}

std::vector<std::unique_ptr<Envelope>> ChannelTable::accept(NodeId dst, Incarnation dst_inc,
                                                            std::unique_ptr<Envelope> env, std::size_t pair_on_wire) {
  std::vector<std::unique_ptr<Envelope>> ready;
  const std::uint64_t k = pair_key(env->src, dst);
  Channel& c = channels_[k];
  const bool fresh = c.r_dst != dst_inc; // nothing heard yet by this incarnation of the receiver
  if (!fresh && env->src_inc < c.r_src) {
    counters_.stale++;
    return ready;
  }
  if (fresh || env->src_inc > c.r_src) { // first message from this incarnation of the sender
    c.r_dst = dst_inc;
    c.r_src = env->src_inc;
    c.expected = 0;
    drop_early(c);
  }
  if (env->chan_seq < c.expected || c.early.count(env->chan_seq)) {
    counters_.duplicates++;
    return ready;
  }
  if (env->chan_seq > c.expected) {
    counters_.reordered++;
    if (env->kind == Envelope::Kind::Control) early_control_++;
    c.early.emplace(env->chan_seq, std::move(env));
    return ready;
  }
  ready.push_back(std::move(env));
  c.expected++;
  for (auto e = c.early.begin(); e != c.early.end() && e->first == c.expected; e = c.early.erase(e)) {
    if (e->second->kind == Envelope::Kind::Control) early_control_--;
    ready.push_back(std::move(e->second));
    c.expected++;
  }
  // Quiet: both ends speak of the same incarnations, all numbered is delivered, nothing of the
  // pair is on the wire (so no late message of an older incarnation can come): both ends would
  // start from 0 again, as a forgotten channel does.
  if (pair_on_wire == 0 && c.early.empty() && c.s_src == c.r_src && c.s_dst == c.r_dst && c.next == c.expected)
    channels_.erase(k);
  return ready;
}

void ChannelTable::forget(NodeId dst, Incarnation dst_inc, NodeId src) {
  if (auto it = channels_.find(pair_key(src, dst)); it != channels_.end() && it->second.r_dst == dst_inc)
    drop_early(it->second);
}

void ChannelTable::drop_early(Channel& c) {
  for (const auto& [seq, env] : c.early)
    if (env->kind == Envelope::Kind::Control) early_control_--;
  c.early.clear();
}

} // namespace ckptsim
