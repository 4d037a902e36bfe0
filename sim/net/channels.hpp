/* FIFO channels, whatever the transport does: SimGrid flows finish by size and path, and only
 * SimGrid 3.32's eager mailbox happens to hand messages over in sending order (docs/MODEL.md), so
 * the order is not left to it; a dead incarnation's stream must also be told apart. Senders number
 * their messages per channel (sender incarnation -> receiver incarnation); the receiver delivers
 * them in number order, buffers the early ones, drops duplicates and what a dead incarnation sent
 * once a newer one speaks.
 * One table holds both ends of every channel, so that a quiet channel (everything its sender
 * numbered delivered in order, nothing of the pair left on the wire) can be forgotten at both
 * ends at once: it numbers from 0 again exactly as a forgotten one would. The table then holds
 * the pairs with messages under way, not every pair that ever spoke (a 100,000-node application
 * sending to random peers reaches tens of millions of pairs). Pure logic, unit-tested without
 * SimGrid. */
#pragma once

#include "sim/net/envelope.hpp"

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ckptsim {

class ChannelTable {
 public:
  struct Counters {
    std::uint64_t reordered = 0;  // arrived early and waited for a predecessor
    std::uint64_t duplicates = 0; // number already delivered
    std::uint64_t stale = 0;      // from an older incarnation of the sender
  };

  /** @brief The sender's side: the next number on the channel from incarnation @p src_inc of
   *  @p src to incarnation @p dst_inc of @p dst. */
  std::uint64_t next(NodeId src, Incarnation src_inc, NodeId dst, Incarnation dst_inc);
  /** @brief The receiver's side: incarnation @p dst_inc of @p dst accepts an envelope; returns
   *  those now deliverable, in channel order. @p pair_on_wire: envelopes from its sender to
   *  @p dst still on the wire (any incarnation); with none, a quiet channel is forgotten. */
  std::vector<std::unique_ptr<Envelope>> accept(NodeId dst, Incarnation dst_inc, std::unique_ptr<Envelope> env,
                                                std::size_t pair_on_wire);
  /** @brief Incarnation @p dst_inc of @p dst drops what is buffered from @p src (it failed: its
   *  stream is broken). */
  void forget(NodeId dst, Incarnation dst_inc, NodeId src);
  const Counters& counters() const { return counters_; }
  /** @brief Channels held (both ends of a pair count once). */
  std::size_t size() const { return channels_.size(); }
  /** @brief Control messages taken off the wire but buffered early (waiting for a predecessor):
   *  still under way for the protocol, which has not seen them (quiescence counts them). */
  std::size_t early_control() const { return early_control_; }

 private:
  static constexpr Incarnation kNone = ~Incarnation{0};
  struct Channel {
    // The sender's end: its incarnation, the receiver's it numbers for, the next number.
    Incarnation s_src = kNone, s_dst = kNone;
    std::uint64_t next = 0;
    // The receiver's end: its incarnation, the sender's it hears, the number it expects next.
    Incarnation r_dst = kNone, r_src = kNone;
    std::uint64_t expected = 0;
    std::map<std::uint64_t, std::unique_ptr<Envelope>> early;
  };
  void drop_early(Channel& c); // clears c.early, keeping early_control_ right
  std::unordered_map<std::uint64_t, Channel> channels_;
  Counters counters_;
  std::size_t early_control_ = 0;
};

} // namespace ckptsim
