/* FIFO channels, whatever the transport does: SimGrid flows finish by size and path, and only
 * SimGrid 3.32's eager mailbox happens to hand messages over in sending order (docs/MODEL.md), so
 * the order is not left to it; a dead incarnation's stream must also be told apart. Senders number
 * their messages per channel (sender incarnation -> receiver incarnation); the receiver delivers
 * them in number order, buffers the early ones, drops duplicates and what a dead incarnation sent
 * once a newer one speaks. Pure logic, unit-tested without SimGrid. */
#pragma once

#include "sim/net/envelope.hpp"

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ckptsim {

class ChannelSender {
 public:
  /** @brief Next sequence number on the channel to @p dst's incarnation @p inc. */
  std::uint64_t next(NodeId dst, Incarnation inc);

 private:
  struct State {
    Incarnation inc = 0;
    std::uint64_t next = 0;
  };
  std::unordered_map<NodeId, State> out_;
};

class ChannelReceiver {
 public:
  struct Counters {
    std::uint64_t reordered = 0;  // arrived early and waited for a predecessor
    std::uint64_t duplicates = 0; // number already delivered
    std::uint64_t stale = 0;      // from an older incarnation of the sender
  };

  /** @brief Accepts an envelope; returns those now deliverable, in channel order. */
  std::vector<std::unique_ptr<Envelope>> accept(std::unique_ptr<Envelope> env);
  /** @brief Drops what is buffered from @p src (it failed: its stream is broken). */
  void forget(NodeId src);
  const Counters& counters() const { return counters_; }

 private:
  struct State {
    Incarnation inc = 0;
    std::uint64_t expected = 0;
    std::map<std::uint64_t, std::unique_ptr<Envelope>> early;
  };
  std::unordered_map<NodeId, State> in_;
  Counters counters_;
};

} // namespace ckptsim
