/* A node of an HC3I federation (HC3I report sections 3-4). Roles, by position in the cluster:
 *   - every node: intercepts application messages (SN piggyback, forced-CLC decision, queueing
 *     during a CLC), logs its inter-cluster sends optimistically with the receiver's ack SN,
 *     takes part in CLCs, applies rollback alerts and re-sends logged messages;
 *   - the cluster's leader (its first node): initiates CLCs (timer, forced requests, initial),
 *     receives the other clusters' rollback alerts and broadcasts them in its cluster, answers the
 *     garbage collector; the leader of cluster 0 also runs the centralized garbage collector;
 *   - after a failure, the recovery leader (the leader, or the next node when the leader failed)
 *     orders the cluster's rollback to its last CLC and, once the failed node is back, alerts the
 *     other clusters.
 * The code is split by concern: node_clc.cpp, node_app.cpp, node_recovery.cpp, node_gc.cpp. */
#pragma once

#include "protocols/common/index_set.hpp"
#include "protocols/common/peer_map.hpp"
#include "protocols/common/period_timer.hpp"
#include "protocols/common/restart_delay.hpp"
#include "protocols/hc3i/ddv.hpp"
#include "protocols/hc3i/messages.hpp"
#include "sim/protocol/protocol.hpp"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace ckptsim::hc3i {

// The node's timers (NodeContext::set_timer ids).
constexpr PeriodTimer kClcTimer{1, "checkpoint_period"}; // unforced CLCs (leader)
constexpr PeriodTimer kGcTimer{2, "gc_period"};          // garbage collection (leader of cluster 0)
constexpr int kRestartTimer = 3;                         // restart overhead of a restarted node

struct Options {
  bool transitive = false; // piggyback the whole DDV (report section 7)
};

/** @brief What the nodes of a run share besides the layout. */
struct Shared {
  DdvPool ddvs; // the DDVs stored with CLCs and checkpoints, one copy per distinct value
};

/** @brief A message this node sent to another cluster, kept in volatile memory. */
struct LogEntry {
  AppMessage msg;
  Sn sn = 0;               // the SN it carried (the sender cluster's interval it depends on)
  std::uint64_t epoch = 0; // the sender cluster's epoch at the send
  int dst_cluster = -1;
  std::optional<Sn> ack;        // the receiver cluster's SN of its delivery, once acknowledged
  Ddv ddv;                      // transitive variant: the DDV it carried
  std::uint64_t ack_epoch = 0;  // the receiver cluster's epoch at the acknowledgement
  std::uint64_t sent_epoch = 0; // the epoch the last copy sent carried (what an acknowledgement names)
  std::uint64_t idx = 0;        // its index on the channel to msg.dst (Piggyback::idx)
  bool operator==(const LogEntry&) const = default;
};
using Log = std::vector<LogEntry>;

/** @brief What a CLC saves besides the application state, and a rollback restores. */
struct SavedState {
  Sn sn = 0;
  SharedDdv ddv; // every node of the cluster holds the same: shared (DdvPool)
  // Per peer, in flat maps (sorted vectors): a CLC copies them into its checkpoint, one block
  // each instead of a tree node per peer met.
  PeerMap<std::uint64_t> sent;       // intra-cluster messages sent, per peer
  PeerMap<std::uint64_t> received;   // intra-cluster messages delivered, per peer
  PeerMap<std::uint64_t> inter_sent; // inter-cluster messages sent, per peer: the next channel index
  PeerMap<IndexSet> inter_delivered; // inter-cluster channel indices delivered, per sender
  // Restored only by a node that lost its memory. Shared with the node's previous checkpoint
  // when the log has not changed since (most CLCs of a storm of forced ones).
  std::shared_ptr<const Log> log;
};

class Node : public Agent {
 public:
  Node(const FederationLayout& layout, NodeId self, Options options, std::shared_ptr<Shared> shared);

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
  bool recovering() const override;
  std::string pending() const override;

 private:
  // ---- node_clc.cpp: cluster-level checkpoints (two-phase commit with a drain round) ----
  void start_clc(NodeContext& ctx);
  void maybe_start_clc(NodeContext& ctx);
  void on_req(NodeContext& ctx, const Body& b);
  void on_ready(NodeContext& ctx, NodeId from, const Body& b);
  void on_save(NodeContext& ctx, const Body& b);
  void check_drained(NodeContext& ctx);
  void on_ack(NodeContext& ctx, const Body& b);
  void on_commit(NodeContext& ctx, const Body& b);
  void on_force(NodeContext& ctx, const Body& b);
  /** @brief Ends the CLC under way; with @p keep_saved a participant that saved its checkpoint
   *  keeps it in doubt (a failure notice: the leader may have committed it). */
  void abort_clc(NodeContext& ctx, bool keep_saved = false);
  void arm_clc_timer(NodeContext& ctx);
  void record_storage(NodeContext& ctx);

  // ---- node_app.cpp: application messages, logging, acknowledgements ----
  void process_inbox(NodeContext& ctx);
  void deliver_intra(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  void process_early_intra(NodeContext& ctx);
  bool orphan(int from_cluster, std::uint64_t epoch, Sn s) const;
  void on_log_ack(NodeContext& ctx, const Body& b);
  void replay(NodeContext& ctx, int to_cluster, Sn s);
  /** @brief Re-sends a logged message, under the sender cluster's epoch @p epoch. */
  void resend(NodeContext& ctx, LogEntry& e, std::uint64_t epoch);
  /** @brief Counts what log_ holds now (after any change to it). */
  void count_log(NodeContext& ctx);

  // ---- node_recovery.cpp: failures, rollbacks, alerts ----
  void on_rollback_order(NodeContext& ctx, const Body& b);
  void on_restarted(NodeContext& ctx, NodeId from, FailureId failure);
  void on_alert(NodeContext& ctx, const Body& b);
  void process_alerts(NodeContext& ctx);
  void on_alert_bcast(NodeContext& ctx, const Body& b);
  void rollback_to(NodeContext& ctx, Sn target, std::uint64_t new_epoch, const std::string& reason);
  void restored(NodeContext& ctx);
  bool restarting() const { return restart_delay_.restarting(); }
  void learn_rollback(int cluster, std::uint64_t epoch, Sn s);
  std::uint64_t known_epoch(int cluster) const;
  void send_alerts(NodeContext& ctx, Sn restored_sn);
  void resend_restored_log(NodeContext& ctx);
  void update_app(NodeContext& ctx);

  // ---- node_gc.cpp: centralized garbage collection ----
  void start_gc(NodeContext& ctx);
  void arm_gc_timer(NodeContext& ctx);
  /** @brief Ends the round under way without collecting (a failure overlaps it). */
  void abandon_gc(NodeContext& ctx);
  std::string pending_gc() const;
  void on_gc_req(NodeContext& ctx, NodeId from, const Body& b);
  void on_gc_resp(NodeContext& ctx, NodeId from, const Body& b);
  void on_gc_collect(NodeContext& ctx, const Body& b);
  void apply_gc(NodeContext& ctx, const Body& b);

  // ---- helpers ----
  bool is_leader() const { return self_ == leader_; }
  NodeId leader_of(int cluster) const;
  NodeId recovery_leader(NodeId victim) const;
  void broadcast(NodeContext& ctx, Msg m, const std::shared_ptr<Body>& b, NodeId except = -1);
  std::any saved_state() const;
  Sn last_clc() const { return clcs_.empty() ? 0 : clcs_.back().sn; }

  // Identity.
  const FederationLayout& layout_;
  const NodeId self_;
  const int cluster_;
  const int clusters_;
  const Options options_;
  const std::shared_ptr<Shared> shared_;
  std::vector<NodeId> members_; // the nodes of this cluster, leader first
  NodeId leader_;

  // State a rollback restores (the current values; SavedState is their copy in a CLC).
  SavedState cur_;

  // Stable knowledge, kept across rollbacks.
  ClcList clcs_;                                                     // committed CLCs this node stores
  std::uint64_t epoch_ = 0;                                          // this cluster's epoch (number of rollbacks)
  std::vector<std::vector<std::pair<std::uint64_t, Sn>>> rollbacks_; // per cluster: (epoch after, restored SN)
  FailureId latest_failure_ = 0;                                     // newest failure this node heard of
  std::set<FailureId> open_failures_;                                // heard of, victim not back yet

  // Volatile.
  Log log_;
  std::shared_ptr<const Log> log_saved_;                       // the copy the last checkpoint holds
  std::deque<std::pair<AppMessage, PayloadPtr>> inbox_;        // inter-cluster messages not delivered yet
  std::vector<std::pair<AppMessage, PayloadPtr>> early_intra_; // from a newer epoch of this cluster
  std::set<std::pair<int, Sn>> force_asked_;                   // forced CLCs requested since the last commit

  // Participant side of a CLC.
  struct Participation {
    bool active = false;
    Sn number = 0;
    SharedDdv ddv; // the request's, shared by the cluster
    bool forced = false;
    bool drained = false; // SAVE received and every expected message delivered
    bool saved = false;
    PeerMap<std::uint64_t> expected;
    bool have_expected = false;
  } part_;

  // Leader side.
  struct Round {
    bool active = false;
    Sn number = 0;
    Ddv ddv;
    bool forced = false;
    bool initial = false;
    int readies = 0;
    int acks = 0;
    // receiver -> (sender, count) as the READYs said, in arrival order: each SAVE takes its row
    // (filling a sender -> receiver table and reading it by column cost n^2 lookups per CLC).
    std::map<NodeId, std::vector<std::pair<NodeId, std::uint64_t>>> to_receive;
    double started = 0;
  } round_;
  Ddv wanted_; // DDV entries forced CLCs were asked for (merged into the next CLC)
  bool clc_wanted_ = false;
  /** @brief Some entry asked for by a forced-CLC request is in no CLC taken or under way. */
  bool wants_forced_clc() const;
  /** @brief The dependencies of the state the CLC under way saves (StoredClc::base): the DDV
   *  before its merge, with this cluster's entry at the CLC's SN. */
  Ddv base_ddv() const;
  bool timer_due_ = false;

  // Recovery.
  bool waiting_order_ = false;                          // my cluster failed: waiting for the recovery leader's order
  bool loading_ = false;                                // restoring a CLC
  RestartDelay restart_delay_{kRestartTimer};           // this is a restarted node, not running yet
  NodeId victim_ = -1;                                  // recovery leader: the failed node of this cluster
  Sn rollback_sn_ = 0;                                  // recovery leader: where the cluster went back
  bool alerts_due_ = false;                             // recovery leader: alert the others once the victim is back
  FailureId failure_ = 0;                               // the failure of this cluster being recovered
  FailureId ordered_failure_ = 0;                       // the newest failure whose rollback order this node applied
  std::optional<std::pair<int, Sn>> replay_after_load_; // an alert's re-sends, once restored
  std::deque<std::shared_ptr<Body>> alerts_;            // leader: alerts waiting for the CLC under way
  std::optional<std::pair<NodeId, FailureId>> restarted_pending_; // RESTARTED before our notice
  std::optional<StoredClc> in_doubt_; // saved, acknowledged, aborted by a failure notice: committed?
  std::shared_ptr<Body> held_req_;    // a CLC request that came while loading the restored CLC

  // Garbage collection (leader of cluster 0).
  std::uint64_t gc_round_ = 0;
  bool gc_active_ = false;
  FailureId gc_base_ = 0;
  std::map<int, ClcList> gc_lists_;
  std::vector<std::uint64_t> gc_epochs_;               // each cluster's epoch when its list was gathered
  std::map<int, std::vector<std::uint64_t>> gc_views_; // per cluster: the epochs its leader knows
};

} // namespace ckptsim::hc3i
