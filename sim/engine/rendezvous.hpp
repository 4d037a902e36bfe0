/* The bookkeeping of rendezvous sends (Workload::rendezvous): which nodes hold messages for which
 * receiver, and which have a wake-up on its way. A node holds a message until its receiver has
 * posted the receive that takes it (SMPI's matching at the mailbox, where a transfer starts only
 * once both sides are there). The holder itself cannot see the receiver move on while it waits
 * for its own events, so each node, after it moved, asks the Run to wake the holders whose
 * messages it now takes; a holder has at most one wake-up on its way. Plain bookkeeping,
 * unit-tested in tests/unit/test_rendezvous.cpp; the Run sends the wake-ups. */
#pragma once

#include "sim/net/ids.hpp"

#include <algorithm>
#include <vector>

namespace ckptsim {

class RendezvousBoard {
 public:
  void resize(int endpoints) {
    waiting_.assign(static_cast<std::size_t>(endpoints), {});
    ringing_.assign(static_cast<std::size_t>(endpoints), 0);
  }
  /** @brief @p holder holds a message for @p receiver (once per pair however many messages). */
  void await(NodeId receiver, NodeId holder) {
    auto& w = waiting_[static_cast<std::size_t>(receiver)];
    if (std::find(w.begin(), w.end(), holder) == w.end()) w.push_back(holder);
  }
  bool awaited(NodeId receiver) const { return !waiting_[static_cast<std::size_t>(receiver)].empty(); }
  /** @brief The holders awaiting @p receiver for which @p done returns true stop awaiting it (the
   *  others keep their place, in order). */
  template <class Done>
  void settle(NodeId receiver, Done done) {
    std::erase_if(waiting_[static_cast<std::size_t>(receiver)], done);
  }
  /** @brief A wake-up for @p holder is to be sent: false when one is on its way already. */
  bool ring(NodeId holder) {
    auto& r = ringing_[static_cast<std::size_t>(holder)];
    if (r) return false;
    r = 1;
    return true;
  }
  /** @brief @p holder got its wake-up, or is a new incarnation (none on its way to it). */
  void answered(NodeId holder) { ringing_[static_cast<std::size_t>(holder)] = 0; }

 private:
  std::vector<std::vector<NodeId>> waiting_; // per receiver: the holders of messages for it
  std::vector<char> ringing_;                // per holder: a wake-up on its way
};

} // namespace ckptsim
