/* The per-process state of msglog that a checkpoint saves and a restore brings back, beside the
 * application state: channel indices, the receive sequence number, the sender-based log and the
 * sends held by the pessimistic variant. */
#pragma once

#include "protocols/msglog/messages.hpp"

#include <deque>
#include <map>

namespace ckptsim::msglog {

/** @brief A message this process sent, kept in its volatile memory for a receiver's recovery. */
struct LogEntry {
  AppMessage msg;
  std::uint64_t idx = 0; // channel index to msg.dst
  std::uint64_t rsn = 0; // the sender's rsn at the send (what the message depends on)
};

/** @brief A send the pessimistic variant holds until the deliveries before it are stable. */
struct HeldSend {
  AppMessage msg;
  std::uint64_t rsn = 0; // the deliveries it depends on: 1..rsn
  double since = 0;
};

struct State {
  std::uint64_t number = 0;                   // the checkpoint this state is (0: the initial state)
  std::uint64_t rsn = 0;                      // deliveries so far
  std::map<NodeId, IndexSet> sent;            // channel indices sent, per destination
  std::map<NodeId, IndexSet> delivered;       // channel indices delivered, per source
  std::map<NodeId, std::deque<LogEntry>> log; // per destination, in send order
  std::deque<HeldSend> held;
  // optimistic: the dependency vector of this state, per sender and sender epoch the highest
  // sender rsn a delivery carried (an orphan is found from it when a rollback is announced)
  std::map<NodeId, std::map<std::uint64_t, std::uint64_t>> dv;
  // causal, in a checkpoint only: the copies of the other processes' determinants this process
  // held when it was taken. A restored victim answers a fellow victim of the same failure with
  // them, since that one's copies died with it (Determinants keeps the live ones).
  std::map<NodeId, std::map<std::uint64_t, Det>> copies;
};

} // namespace ckptsim::msglog
