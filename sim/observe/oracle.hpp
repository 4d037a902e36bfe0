/* The consistency oracle (SPEC section 4). It records, for every process, the sequence of
 * application sends and deliveries; a restore truncates the process' history back to the
 * checkpoint's position. A check verifies the final execution (undone events removed):
 *   - every kept delivery has its kept send (same sender, sequence number, destination, content);
 *   - no message is delivered twice;
 *   - at the end only: every kept send is delivered exactly once.
 * Partial restarts (CCK) add two events: a re-executed receive of a kept delivery (checked to be
 * the same message, not counted twice), and a promise: a restored sender will re-execute a send
 * its receiver still holds; until kept, the promise stands for the send (the final check
 * requires it kept, and the kept send is compared with the delivery like any other).
 * It observes only: protocols never read it to decide anything. */
#pragma once

#include "sim/net/ids.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ckptsim {

struct Violation {
  std::string what; // human-readable, names the message and the check that caught it
};

class ConsistencyOracle {
 public:
  explicit ConsistencyOracle(int processes = 0) { reset(processes); }
  void reset(int processes);

  void on_send(NodeId src, std::uint64_t seq, NodeId dst, std::uint64_t digest);
  void on_deliver(NodeId dst, NodeId src, std::uint64_t seq, std::uint64_t digest);
  /** @brief @p dst receives again message (src, seq), whose delivery its history keeps. */
  void on_redeliver(NodeId dst, NodeId src, std::uint64_t seq, std::uint64_t digest);
  /** @brief Process @p src will send message @p seq to @p dst again (see above). */
  void promise(NodeId src, std::uint64_t seq, NodeId dst);
  std::size_t open_promises() const;

  /** @brief The current length of a process' history, kept in its checkpoints. */
  std::size_t position(NodeId process) const { return history_[process].size(); }
  /** @brief Undoes the events of @p process after @p position (a rollback to that checkpoint). */
  void truncate(NodeId process, std::size_t position);

  /** @brief Checks the kept histories; @p final also requires every kept send to be delivered. */
  std::vector<Violation> check(bool final);

  std::size_t kept_events() const;

 private:
  struct Event {
    bool send;
    NodeId peer; // destination of a send, source of a delivery
    std::uint64_t seq;
    std::uint64_t digest;
  };
  struct SendRecord {
    NodeId dst;
    std::uint64_t digest;
  };
  struct DeliveryRecord {
    int count;
    std::uint64_t digest;
  };
  static std::uint64_t key(NodeId src, std::uint64_t seq) { return (static_cast<std::uint64_t>(src) << 40) ^ seq; }

  std::vector<std::vector<Event>> history_;
  std::vector<std::unordered_map<std::uint64_t, SendRecord>> sends_;          // per sender: seq -> record
  std::vector<std::unordered_map<std::uint64_t, DeliveryRecord>> deliveries_; // per receiver: key -> record
  std::vector<std::unordered_map<std::uint64_t, NodeId>> promised_;           // per sender: seq -> destination
  std::vector<Violation> found_;                                              // by on_redeliver, reported once
};

} // namespace ckptsim
