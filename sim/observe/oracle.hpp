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
 *
 * Folding (memory bounded by what a rollback can undo). A snapshot holds a HistoryMark, a pin
 * on its process' position; a process' floor is its oldest pinned position (its current one when
 * nothing is pinned). A restore goes to a pinned position or to the initial state (position 0),
 * so a message whose send and delivery both lie behind their processes' floors, and agree, is
 * settled: only a restart from the initial state can undo either end. Settled messages leave
 * the records: each adds its hash to its sender's "out" sum and its receiver's "in" sum, and its
 * number joins the sender's folded set. A restart from the initial state empties the process'
 * sums with its history. Events of folded numbers recorded after that (a re-executed send, a
 * delivery again, from a log or after a restart) go to the sums too. The folded part is checked
 * as a whole at the end: the sums of all processes must balance (a folded message undone at one
 * end only, delivered twice or re-executed with other content does not). Intermediate checks see
 * the unfolded part only; a re-delivery (CCK) of a folded delivery cannot be compared by content.
 * It observes only: protocols never read it to decide anything. */
#pragma once

#include "sim/net/ids.hpp"
#include "sim/net/index_set.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ckptsim {

struct Violation {
  std::string what; // human-readable, names the message and the check that caught it
};

/** @brief Per process, how many snapshots pin each position (shared with the marks, which may
 *  outlive the oracle's run). */
struct HistoryPins {
  std::vector<std::map<std::size_t, int>> pinned;
};

/** @brief A snapshot's position in its process' history; while it lives, nothing from it on is
 *  folded. */
struct HistoryMark {
  HistoryMark(std::shared_ptr<HistoryPins> pins, NodeId process, std::size_t position);
  ~HistoryMark();
  HistoryMark(const HistoryMark&) = delete;
  HistoryMark& operator=(const HistoryMark&) = delete;
  std::shared_ptr<HistoryPins> pins;
  NodeId process;
  std::size_t position;
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
  std::size_t position(NodeId process) const { return base_[process] + history_[process].size(); }
  /** @brief A pin on @p process' current position, for a snapshot to hold. */
  std::shared_ptr<const HistoryMark> mark(NodeId process);
  /** @brief Undoes the events of @p process after @p position (a rollback to that checkpoint). */
  void truncate(NodeId process, std::size_t position);

  /** @brief Checks the kept histories; @p final also requires every kept send to be delivered. */
  std::vector<Violation> check(bool final);
  /** @brief Settles and drops what lies behind the floors (done by itself as histories grow). */
  void fold();
  /** @brief Folds every @p events events from now on (testing aid: to fold in small runs). */
  void fold_every(std::size_t events);

  std::size_t kept_events() const;
  /** @brief Events dropped by folding, and the most the histories held at once (before a fold):
   *  what the oracle's memory follows. */
  std::size_t folded_events() const { return folded_events_; }
  std::size_t peak_events() const;

 private:
  struct Event {
    bool send;
    bool summed; // the event's hash is in its process' sum (settled, or of a folded number)
    NodeId peer; // destination of a send, source of a delivery
    std::uint64_t seq;
    std::uint64_t digest;
  };
  struct SendRecord {
    NodeId dst;
    std::uint64_t digest;
    std::size_t position;
  };
  struct DeliveryRecord {
    int count;
    std::uint64_t digest;
    std::size_t position; // of the first delivery kept
  };
  static std::uint64_t key(NodeId src, std::uint64_t seq) { return (static_cast<std::uint64_t>(src) << 40) ^ seq; }
  static std::uint64_t hash(NodeId src, std::uint64_t seq, NodeId dst, std::uint64_t digest);
  std::size_t floor(NodeId process) const;
  void note_event();
  /** @brief Settles the message of event @p index of @p p's history when both its ends lie
   *  behind @p floors and agree. */
  bool try_settle(NodeId p, std::size_t index, const std::vector<std::size_t>& floors);
  void settle(NodeId src, std::uint64_t seq, NodeId dst, std::uint64_t digest);
  void restart_from_initial(NodeId process);
  void check_sums(std::vector<Violation>& out) const;
  void next_fold_at();
  static constexpr std::size_t kRestartsNamed = 8;
  static constexpr std::size_t kMinFoldEvents = 4096;

  std::vector<std::vector<Event>> history_;
  std::vector<std::size_t> base_; // per process: events folded off the front of its history
  std::vector<std::unordered_map<std::uint64_t, SendRecord>> sends_;          // per sender: seq -> record
  std::vector<std::unordered_map<std::uint64_t, DeliveryRecord>> deliveries_; // per receiver: key -> record
  std::vector<std::unordered_map<std::uint64_t, NodeId>> promised_;           // per sender: seq -> destination
  std::vector<IndexSet> folded_;   // per sender: numbers of its settled messages
  std::vector<std::uint64_t> out_; // per sender: sum of the hashes of its summed sends
  std::vector<std::uint64_t> in_;  // per receiver: sum of the hashes of its summed deliveries
  std::vector<NodeId> restarted_;  // processes that restarted from the initial state across a fold
  std::shared_ptr<HistoryPins> pins_;
  std::vector<Violation> found_; // by on_redeliver, reported once
  std::size_t since_fold_ = 0;   // events recorded since the last fold
  std::size_t fold_after_ = 0;   // ... before the next one
  std::size_t fold_every_ = 0;   // > 0: a fixed period (fold_every)
  std::size_t folded_events_ = 0;
  std::size_t peak_events_ = 0;
};

} // namespace ckptsim
