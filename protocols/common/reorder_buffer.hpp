/* Per-sender buffers of the application messages that arrived before their turn. Protocols whose
 * receivers deliver each channel in the order of an index its sender gives every message, and
 * drop the copies that re-sends and replays bring twice (independent, msglog), file each arrival
 * here with the channel's next index to deliver, then take the messages in order (msglog: in
 * their turn, which with rendezvous sends may skip indices; see IndexSet). The next
 * index itself is the protocol's state (it is checkpointed with it); a message is always filed at
 * or above it, so nothing below it is ever held. */
#pragma once

#include "sim/protocol/ids.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ckptsim {

template <class Item>
class ReorderBuffer {
 public:
  enum class Filed {
    Held,      // kept until its turn
    Delivered, // its index is below the next one: a copy of a delivered message, dropped
    Twice,     // a copy of that index is held already: the first one stays, this one is dropped
  };

  /** @brief Files @p item, of index @p index on @p src's channel, whose next index to deliver is
   *  @p next. */
  Filed file(NodeId src, std::uint64_t index, std::uint64_t next, Item item) {
    if (index < next) return Filed::Delivered;
    return held_[src].emplace(index, std::move(item)).second ? Filed::Held : Filed::Twice;
  }

  /** @brief Removes and returns the message of index @p next on @p src's channel, if it is here. */
  std::optional<Item> take(NodeId src, std::uint64_t next) {
    auto s = held_.find(src);
    if (s == held_.end()) return std::nullopt;
    auto it = s->second.find(next);
    if (it == s->second.end()) return std::nullopt;
    std::optional<Item> item(std::move(it->second));
    s->second.erase(it);
    if (s->second.empty()) held_.erase(s);
    return item;
  }

  /** @brief Removes and returns @p src's message of lowest index for which @p ready(index, item)
   *  holds, if any. */
  template <class Ready>
  std::optional<Item> take_first(NodeId src, Ready ready) {
    auto s = held_.find(src);
    if (s == held_.end()) return std::nullopt;
    for (auto it = s->second.begin(); it != s->second.end(); ++it) {
      if (!ready(it->first, it->second)) continue;
      std::optional<Item> item(std::move(it->second));
      s->second.erase(it);
      if (s->second.empty()) held_.erase(s);
      return item;
    }
    return std::nullopt;
  }

  /** @brief Drops @p src's messages for which @p gone(item) holds; how many. */
  template <class Pred>
  std::size_t drop_if(NodeId src, Pred gone) {
    auto s = held_.find(src);
    if (s == held_.end()) return 0;
    const std::size_t n = std::erase_if(s->second, [&](const auto& entry) { return gone(entry.second); });
    if (s->second.empty()) held_.erase(s);
    return n;
  }

  /** @brief Drops every sender's messages for which @p gone(src, item) holds; how many. */
  template <class Pred>
  std::size_t drop_if(Pred gone) {
    std::size_t n = 0;
    for (auto s = held_.begin(); s != held_.end();) {
      const NodeId src = s->first;
      n += std::erase_if(s->second, [&](const auto& entry) { return gone(src, entry.second); });
      s = s->second.empty() ? held_.erase(s) : std::next(s);
    }
    return n;
  }

  /** @brief The senders of the messages held, in increasing order. */
  std::vector<NodeId> senders() const {
    std::vector<NodeId> out;
    for (const auto& [src, items] : held_) out.push_back(src);
    return out;
  }

  bool empty() const { return held_.empty(); }
  void clear() { held_.clear(); }

 private:
  std::map<NodeId, std::map<std::uint64_t, Item>> held_; // per sender, by index; no empty map
};

} // namespace ckptsim
