/* A computing node under independent checkpointing. Roles:
 *   - every node: piggybacks (epoch, interval, channel index) on messages to other units and
 *     logs them (sender-based, volatile, saved with its checkpoints); delivers each channel in
 *     index order, dropping duplicates and the orphans of rolled-back senders; takes part in its
 *     unit's checkpoints; on a recovery it stops, reports its state to the recovery manager and
 *     applies the manager's order (roll back or not, re-send logged messages);
 *   - the unit's leader (its first node; the process itself for a process unit) runs the unit's
 *     checkpoint timer and leads its checkpoint: INIT, FLUSH between the members (so that no
 *     intra-unit message crosses the checkpoint), save, ACK, COMMIT, and records the committed
 *     checkpoint with the manager (CKPT_RECORD).
 * The code is split by concern: process.cpp (messages), process_ckpt.cpp, process_recovery.cpp. */
#pragma once

#include "protocols/common/period_timer.hpp"
#include "protocols/common/reorder_buffer.hpp"
#include "protocols/common/restart_delay.hpp"
#include "protocols/independent/messages.hpp"
#include "protocols/independent/units.hpp"
#include "sim/protocol/protocol.hpp"

#include <deque>
#include <map>
#include <set>

namespace ckptsim::independent {

// The node's timers (NodeContext::set_timer ids).
constexpr PeriodTimer kCheckpointTimer{1, "checkpoint_period"}; // the unit's checkpoints (leader)
constexpr int kRestartTimer = 2;

/** @brief A message this node sent to another unit, kept for re-sending after a rollback. */
struct LogEntry {
  AppMessage msg;
  PayloadPtr pb;
};

/** @brief What a checkpoint saves besides the application state, and a rollback restores. */
struct SavedState {
  std::int64_t interval = 0;                               // the unit's interval (its last checkpoint's number)
  Deps deps;                                               // D: highest interval delivered, per unit
  Channels sent;                                           // next index, per receiver in another unit
  Channels expected;                                       // next index to deliver, per sender in another unit
  std::map<NodeId, std::map<std::uint64_t, LogEntry>> log; // per receiver: index -> message
};

class Process : public Agent {
 public:
  Process(const Units& units, NodeId self, NodeId manager);

  void on_start(NodeContext& ctx) override;
  void on_restart(NodeContext& ctx, const FailureNotice& own) override;
  void on_app_send(NodeContext& ctx, const AppMessage& msg) override;
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override;
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override;
  void on_saved(NodeContext& ctx, std::uint64_t number) override;
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) override;
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override;
  void on_node_back(NodeContext& ctx, const FailureNotice& notice) override;
  bool idle() const override;
  bool recovering() const override { return holding_ || loading_ || restarting(); }

 private:
  // ---- process.cpp: application messages, garbage collection ----
  void on_gc(NodeContext& ctx, const Body& b);
  void receive_inter(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  void deliver_ready(NodeContext& ctx, NodeId src);
  bool orphan(int unit, std::uint64_t epoch, std::int64_t interval) const;
  void purge_orphans(NodeContext& ctx);
  /** @brief Counts what the log holds now (after any change to it). */
  void count_log(NodeContext& ctx);
  void update_app(NodeContext& ctx);

  // ---- process_ckpt.cpp: the unit's checkpoints ----
  /** @brief The unit's next checkpoint a period from now (leader). */
  void arm_timer(NodeContext& ctx);
  void maybe_start_checkpoint(NodeContext& ctx);
  void on_init(NodeContext& ctx, const Body& b);
  void on_flush(NodeContext& ctx, const Body& b);
  void check_flushed(NodeContext& ctx);
  void on_ack(NodeContext& ctx, NodeId from, const Body& b);
  void on_commit(NodeContext& ctx, const Body& b);
  void commit_locally(std::int64_t number);
  void freeze_checkpoint();
  void resolve_frozen(NodeContext& ctx, std::int64_t committed);
  void send_to(NodeContext& ctx, NodeId to, Msg kind, const std::shared_ptr<Body>& b);

  // ---- process_recovery.cpp: failures and rollbacks ----
  void on_recover_req(NodeContext& ctx, const Body& b);
  void on_rollback(NodeContext& ctx, const Body& b);
  void restored(NodeContext& ctx);
  void try_ready(NodeContext& ctx);
  void release_held(NodeContext& ctx);
  bool restarting() const { return restart_delay_.restarting(); }

  const Units& units_;
  const NodeId self_;
  const int unit_;
  const NodeId manager_;
  const bool leader_;
  const int members_;

  // State a rollback restores (SavedState is its copy in a checkpoint).
  SavedState cur_;

  // Stable knowledge, kept across rollbacks (given back by the manager to a restarted node).
  std::vector<std::uint64_t> epochs_; // per unit: its number of rollbacks
  History history_;                   // per unit: (epoch after, restored checkpoint) of each rollback
  std::set<std::int64_t> stored_;     // committed checkpoints of this node, still stored
  std::int64_t next_number_ = 1;      // leader: the next checkpoint's number (never reused)
  FailureId generation_ = 0;          // the newest failure whose recovery this node applied

  // Volatile.
  using Arrivals = ReorderBuffer<std::pair<AppMessage, PayloadPtr>>;
  Arrivals early_;                                             // from other units, before their turn
  std::vector<std::pair<AppMessage, PayloadPtr>> early_intra_; // from a newer epoch of this unit
  std::vector<std::pair<AppMessage, PayloadPtr>> held_;        // arrived while the node was recovering
  std::map<NodeId, std::uint64_t> resend_from_;                // re-sends due once every victim is back

  // The unit's checkpoint under way, on this member.
  struct Participation {
    std::int64_t number = 0; // 0: none
    FailureId generation = 0;
    bool saving = false;
    bool saved = false;
    bool frozen = false; // a recovery began: committed or discarded by the manager's order
    SavedState snap;     // what the checkpoint holds (its D and channels go in the ACK)
  } part_;
  std::map<std::pair<FailureId, std::int64_t>, int> flushes_; // FLUSH received per (generation, checkpoint)
  std::vector<std::shared_ptr<Body>> early_inits_;            // INIT of a generation this node has not reached

  // Leader side.
  struct Round {
    std::int64_t number = 0; // 0: none
    int acks = 0;
    Deps deps;
    ChannelPairs pairs;
    double bytes = 0;
    double started = 0;
  } round_;
  bool timer_due_ = false;
  bool rearm_ = false; // the unit rolled back: its timer starts again once it computes

  // Recovery.
  bool holding_ = false;                      // between RECOVER_REQ and the manager's ROLLBACK: stopped, messages held
  bool loading_ = false;                      // restoring a checkpoint
  RestartDelay restart_delay_{kRestartTimer}; // a restarted node, not running yet
  FailureId restored_failure_ = 0;
  std::set<FailureId> waiting_for_; // failures whose victim is not back yet
};

} // namespace ckptsim::independent
