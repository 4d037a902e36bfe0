/* What a msglog process' execution is now: the protocol state a checkpoint saves beside the
 * application's (State: channel indices, receive sequence number, sender-based log, held sends,
 * dependency vector) and the epoch its messages carry. Every part reads and updates it; it
 * decides nothing (as hc3i's Dependencies). */
#pragma once

#include "protocols/msglog/identity.hpp"
#include "protocols/msglog/state.hpp"
#include "sim/protocol/protocol.hpp"

#include <any>

namespace ckptsim::msglog {

class Execution {
 public:
  State& state() { return st_; }
  const State& state() const { return st_; }
  /** @brief The epoch this process' messages carry: its incarnation (optimistic: times
   *  kEpochStride, plus one per orphan rollback of the incarnation). */
  std::uint64_t epoch() const { return epoch_; }
  /** @brief A new incarnation @p inc starts (start, restart): its first epoch. */
  void begin_incarnation(Incarnation inc, bool optimistic) { epoch_ = optimistic ? inc * kEpochStride : inc; }
  /** @brief optimistic: an orphan rollback starts a new epoch of the incarnation. */
  void next_epoch() { epoch_++; }
  /** @brief The state @p s saved (none: the initial state's). */
  void restore(const Snapshot& s) { st_ = s.protocol.has_value() ? std::any_cast<const State&>(s.protocol) : State{}; }

 private:
  State st_;
  std::uint64_t epoch_ = 0;
};

} // namespace ckptsim::msglog
