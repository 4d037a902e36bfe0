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
#include "protocols/hc3i/dependencies.hpp"
#include "protocols/hc3i/gc.hpp"
#include "protocols/hc3i/log.hpp"
#include "protocols/hc3i/membership.hpp"
#include "protocols/hc3i/messages.hpp"
#include "protocols/hc3i/state.hpp"
#include "sim/protocol/protocol.hpp"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace ckptsim::hc3i {

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

  // ---- node_app.cpp: application messages, logging, acknowledgements ----
  void process_inbox(NodeContext& ctx);
  void deliver_intra(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  void process_early_intra(NodeContext& ctx);

  // ---- node_recovery.cpp: failures, rollbacks, alerts ----
  void on_rollback_order(NodeContext& ctx, const Body& b);
  void on_restarted(NodeContext& ctx, NodeId from, FailureId failure);
  void on_alert(NodeContext& ctx, const Body& b);
  void process_alerts(NodeContext& ctx);
  void on_alert_bcast(NodeContext& ctx, const Body& b);
  void rollback_to(NodeContext& ctx, Sn target, std::uint64_t new_epoch, const std::string& reason);
  void restored(NodeContext& ctx);
  bool restarting() const { return restart_delay_.restarting(); }
  void send_alerts(NodeContext& ctx, Sn restored_sn);
  void resend_restored_log(NodeContext& ctx);
  void update_app(NodeContext& ctx);

  const Membership place_;
  const Options options_;
  Dependencies deps_;
  InterClusterLog log_;
  ChannelCounts channels_; // restored by a rollback, with deps_'s SN and DDV

  // Volatile.
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

  GarbageCollector gc_;
};

} // namespace ckptsim::hc3i
