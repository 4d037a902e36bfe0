/* The sender-based log of the taskgraph protocol (Lion 3.3: "chaque nœud sauvegarde
 * automatiquement ses messages sortants"): the messages a process sent, per destination and by
 * tag, in its volatile memory. A plain value: it is part of the process' checkpointed state, so
 * that a restarted sender still holds what it had sent before its checkpoint (a later failure of
 * a receiver may need it) and re-logs what its re-execution sends again. */
#pragma once

#include "protocols/taskgraph/points.hpp"
#include "sim/protocol/messages.hpp"

#include <map>
#include <vector>

namespace ckptsim::taskgraph {

class SentLog {
 public:
  /** @brief Keeps @p m (by destination and tag; the same tag again replaces it). */
  void add(const AppMessage& m);
  /** @brief Drops the messages to @p dst that its point @p point covers (its checkpoint at that
   *  point has received them); returns how many. */
  std::size_t collect(NodeId dst, std::uint64_t point, const Points& points);
  /** @brief The messages to @p dst that point @p point does not cover, by tag: what a restart of
   *  @p dst from its checkpoint @p point may lack. */
  std::vector<AppMessage> uncovered(NodeId dst, std::uint64_t point, const Points& points) const;
  /** @brief Every message kept, by destination and tag: those no receiver's committed checkpoint
   *  is known to cover. */
  std::vector<AppMessage> all() const;
  double entries() const { return entries_; }
  double bytes() const { return bytes_; }
  std::size_t entries_to(NodeId dst) const;

 private:
  std::map<NodeId, std::map<std::uint64_t, AppMessage>> by_dst_;
  double entries_ = 0;
  double bytes_ = 0;
};

} // namespace ckptsim::taskgraph
