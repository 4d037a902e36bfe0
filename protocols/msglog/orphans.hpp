/* optimistic msglog: the rollbacks a failure spreads. A failed process is rebuilt only up to the
 * stable prefix of its determinants; every process that delivered a message sent after that
 * prefix (an undone interval) is an orphan: it restores its newest kept checkpoint before that
 * delivery, replays its own deliveries up to just before it (their order is in its memory), and
 * announces its own rollback in turn (ROLLBACK_NOTICE), until no orphan is left. This part keeps
 * what that needs: the last few committed checkpoints in memory, the deliveries since the oldest
 * and what each depended on, the rollbacks announced (which tell undone messages apart). */
#pragma once

#include "protocols/msglog/execution.hpp"
#include "protocols/msglog/identity.hpp"
#include "protocols/msglog/messages.hpp"

#include <deque>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ckptsim::msglog {

class CatchUp;
class Checkpoints;
class Determinants;
class Inbox;
class Recovery;
class Replay;
class SenderLog;

class Orphans {
 public:
  Orphans(const Identity& id, Execution& exec, SenderLog& log, Determinants& dets, Inbox& inbox, Replay& replay,
          CatchUp& catchup, Checkpoints& checkpoints, Recovery& recovery)
      : id_(id)
      , exec_(exec)
      , log_(log)
      , dets_(dets)
      , inbox_(inbox)
      , replay_(replay)
      , catchup_(catchup)
      , checkpoints_(checkpoints)
      , recovery_(recovery) {}

  /** @brief A committed checkpoint kept in memory (0: the initial state). */
  struct Kept {
    std::uint64_t number = 0;
    std::uint64_t rsn = 0;
    Snapshot snap;
  };
  /** @brief The checkpoints kept, oldest first. */
  const std::deque<Kept>& kept() const { return kept_; }
  /** @brief The own deliveries remembered (since the oldest kept checkpoint), by rsn. */
  const std::map<std::uint64_t, Det>& history() const { return history_; }
  /** @brief Whether a message of @p w in @p epoch sent at @p rsn belongs to an undone interval. */
  bool undone(NodeId w, std::uint64_t epoch, std::uint64_t rsn) const;
  /** @brief What the oldest kept checkpoint has delivered: what the senders may forget. */
  std::map<NodeId, IndexSet> oldest_delivered() const;

  /** @brief The run starts: an orphan may have to go back to the initial state. */
  void on_start(NodeContext& ctx);
  /** @brief Keeps committed checkpoint @p number (delivering up to @p rsn), dropping the oldest
   *  beyond Options::keep and the deliveries before the oldest left. */
  void keep(NodeContext& ctx, std::uint64_t number, std::uint64_t rsn, Snapshot s);
  /** @brief The process delivered @p d, a message its sender sent in @p epoch after its
   *  delivery @p rsn. */
  void record_delivery(const Det& d, std::uint64_t epoch, std::uint64_t rsn);
  /** @brief The restarted process restored checkpoint @p number, delivering up to @p rsn: the only
   *  one it keeps. */
  void restored(std::uint64_t number, std::uint64_t rsn, const Snapshot& s);
  /** @brief A rollback announced before this process restarted (the event logger's REPLAY). */
  void learn(NodeId who, std::uint64_t epoch, std::uint64_t target);
  /** @brief ROLLBACK_NOTICE: @p who went back to delivery "target" in epoch b.inc; this process
   *  rolls back too when it depends on what that undid. */
  void on_notice(NodeContext& ctx, NodeId who, const Body& b);

 private:
  /** @brief What a delivery depended on: the sender's epoch and rsn its message carried. */
  struct Dep {
    NodeId src = -1;
    std::uint64_t epoch = kUnknownEpoch;
    std::uint64_t rsn = 0;
  };
  struct Notice {
    NodeId who = -1;
    std::uint64_t epoch = 0;
    std::uint64_t target = 0;
  };
  /** @brief Ends the run: this restarted victim's checkpoint depends on what @p failure undid. */
  void lost_with_victims(NodeContext& ctx, NodeId who, std::uint64_t target, FailureId failure);
  /** @brief Goes back to delivery @p target (an orphan of @p cause's rollback for @p failure). */
  void rollback(NodeContext& ctx, NodeId cause, FailureId failure, std::uint64_t target);

  const Identity& id_;
  Execution& exec_;
  SenderLog& log_;
  Determinants& dets_;
  Inbox& inbox_;
  Replay& replay_;
  CatchUp& catchup_;
  Checkpoints& checkpoints_;
  Recovery& recovery_;
  std::deque<Kept> kept_;                // committed checkpoints in memory, oldest first
  std::map<std::uint64_t, Det> history_; // own deliveries since the oldest kept checkpoint
  std::map<std::uint64_t, Dep> deps_;    // and what each depended on (also for the replay)
  std::vector<Notice> notices_;          // every rollback announced (filters undone messages)
  std::set<std::pair<NodeId, std::uint64_t>> notices_seen_;
};

} // namespace ckptsim::msglog
