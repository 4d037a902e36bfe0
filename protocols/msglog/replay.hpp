/* The replay of a recovering msglog process: the order in which it delivers again what it had
 * delivered, from the determinants after its checkpoint. The event logger's answer gives its
 * stable ones; causal: the peers' copies (CATCHUP) add those the logger lacks. The replay is the
 * longest run of consecutive rsns after the checkpoint; a delivery no copy names was seen by
 * nobody and may happen in any order. optimistic: an orphan rollback replays the deliveries it
 * remembers, up to the undone one. The Inbox delivers in this order while it lasts. */
#pragma once

#include "protocols/msglog/execution.hpp"
#include "protocols/msglog/identity.hpp"
#include "protocols/msglog/messages.hpp"

#include <deque>
#include <vector>

namespace ckptsim::msglog {

class Replay {
 public:
  Replay(const Identity& id, const Execution& exec)
      : id_(id)
      , exec_(exec) {}

  /** @brief The replay order is known (begin() or resume() since the last reset()). */
  bool started() const { return started_; }
  /** @brief No determinant is left to replay. */
  bool done() const { return queue_.empty(); }
  /** @brief The determinants left to replay. */
  std::size_t size() const { return queue_.size(); }
  /** @brief The next delivery to replay (not done()). */
  const Det& next() const { return queue_.front(); }
  /** @brief Deliveries replayed so far. */
  std::uint64_t replayed() const { return replayed_; }

  /** @brief The event logger's determinants for this process (REPLAY), replacing any before. */
  void set_logger_dets(std::vector<Det> dets) { logger_dets_ = std::move(dets); }
  /** @brief Causal: a peer's copies (CATCHUP), of any owner. */
  void add_peer_dets(const std::vector<Det>& dets) { peer_dets_.insert(peer_dets_.end(), dets.begin(), dets.end()); }
  /** @brief Builds the replay after the restored state's rsn, for @p failure from checkpoint
   *  @p checkpoint (traced). */
  void begin(NodeContext& ctx, FailureId failure, std::uint64_t checkpoint);
  /** @brief The next delivery is being replayed: off the queue, counted. */
  void pop(NodeContext& ctx);
  /** @brief Traces the end of the replay of @p failure. */
  void trace_end(NodeContext& ctx, FailureId failure) const;
  /** @brief optimistic: the deliveries after rsn @p target are undone: not replayed. */
  void truncate(std::uint64_t target);
  /** @brief optimistic: an orphan rollback replays @p dets (its own deliveries, in order), from
   *  now on. */
  void restart_with(std::deque<Det> dets) { queue_ = std::move(dets); }
  /** @brief optimistic: the orphan's replay order is known; nothing replayed yet. */
  void resume() {
    started_ = true;
    replayed_ = 0;
  }
  /** @brief The recovery is over: forgets the determinants. */
  void reset();

 private:
  const Identity& id_;
  const Execution& exec_;
  std::vector<Det> logger_dets_;
  std::vector<Det> peer_dets_; // causal: copies returned with CATCHUP
  std::deque<Det> queue_;      // determinants still to replay
  bool started_ = false;
  std::uint64_t replayed_ = 0;
};

} // namespace ckptsim::msglog
