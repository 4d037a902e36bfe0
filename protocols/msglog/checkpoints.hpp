/* The independent checkpoints of a msglog process and the garbage collection they allow: one
 * checkpoint per period (each process with its own phase), saved while the application goes on,
 * committed once the event logger knows it (CKPT_DONE, CKPT_ACK: the logger drops the
 * determinants before it); then the previous one is discarded and the senders may drop what it
 * delivered (LOG_GC). optimistic: the last few committed checkpoints stay in memory (Orphans),
 * and the senders keep what the oldest of them has not delivered. */
#pragma once

#include "sim/protocol/index_set.hpp"
#include "protocols/msglog/execution.hpp"
#include "protocols/msglog/identity.hpp"
#include "protocols/msglog/messages.hpp"

#include <map>
#include <set>

namespace ckptsim::msglog {

class Determinants;
class Orphans;
class Recovery;

class Checkpoints {
 public:
  Checkpoints(const Identity& id, Execution& exec, const Determinants& dets, const Recovery& recovery, Orphans& orphans)
      : id_(id)
      , exec_(exec)
      , dets_(dets)
      , recovery_(recovery)
      , orphans_(orphans) {}

  /** @brief The checkpoint the logger knows (0: none, the initial state). */
  std::uint64_t kept() const { return kept_; }
  /** @brief The checkpoint being saved or committed (0: none). */
  std::uint64_t saving() const { return saving_; }

  /** @brief The checkpoint period (a fresh incarnation asks it). */
  void read_period(NodeContext& ctx) { period_ = ctx.timer_period("checkpoint_period"); }
  /** @brief Sets the timer of the next checkpoint (none once the application finished). */
  void arm_timer(NodeContext& ctx);
  /** @brief The checkpoint timer: a checkpoint, unless it must be skipped; the next timer. */
  void on_timer(NodeContext& ctx);
  /** @brief The application finished: no more checkpoints. */
  void stop(NodeContext& ctx) const { ctx.cancel_timer(kCkptTimer); }
  /** @brief Checkpoint @p number is written. */
  void on_saved(NodeContext& ctx, std::uint64_t number);
  /** @brief CKPT_ACK: the logger knows the checkpoint; it is committed. */
  void on_ack(NodeContext& ctx, const Body& b);
  /** @brief The process restored checkpoint @p number (0: the initial state). */
  void restored(std::uint64_t number);
  /** @brief optimistic, an orphan rollback: the checkpoint under way is abandoned (its CKPT_DONE,
   *  of the old epoch, would be dropped by the logger). */
  void abandon(NodeContext& ctx);
  /** @brief optimistic: an orphan rollback went back to kept checkpoint @p number. */
  void rolled_back_to(std::uint64_t number) { kept_ = number; }

 private:
  void take(NodeContext& ctx);

  const Identity& id_;
  Execution& exec_;
  const Determinants& dets_;
  const Recovery& recovery_;
  Orphans& orphans_;
  double period_ = 0;
  double next_ckpt_ = 0;     // date of the next checkpoint timer
  std::uint64_t kept_ = 0;   // the checkpoint the logger knows (0: none, the initial state)
  std::uint64_t saving_ = 0; // being saved or committed (0: none)
  std::uint64_t saving_rsn_ = 0;
  bool saving_saved_ = false; // every copy written, CKPT_DONE sent
  std::map<NodeId, IndexSet> saving_delivered_;
  std::map<NodeId, IndexSet> gc_sent_; // last LOG_GC set sent to each sender
  Snapshot saving_snap_;               // optimistic: the one being saved, kept in memory too
  std::set<std::uint64_t> abandoned_;  // optimistic: checkpoints an orphan rollback undid while saving
  std::uint64_t max_number_ = 0;       // checkpoint numbers are never reused
};

} // namespace ckptsim::msglog
