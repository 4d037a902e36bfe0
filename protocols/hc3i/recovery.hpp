/* Failures and rollbacks of an HC3I node (report section 3.4). A failure in cluster f: its
 * recovery leader (the leader, or the next node when the leader failed) orders every node of f
 * back to f's last CLC (ROLLBACK), the restarted node included once it says RESTARTED (it gets
 * the cluster's stable knowledge with its order and reloads its copy from its buddy); once the
 * failed node is back, the recovery leader alerts the other clusters (Alerts). A rollback, on an
 * order or an alert: the CLC under way is aborted (a CLC saved and acknowledged stays in doubt
 * until the order says whether the leader committed it), the CLC restored, the application and
 * the messages held resume. */
#pragma once

#include "protocols/common/restart_delay.hpp"
#include "protocols/hc3i/app_gate.hpp"
#include "protocols/hc3i/dependencies.hpp"
#include "protocols/hc3i/log.hpp"
#include "protocols/hc3i/membership.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim::hc3i {

class Alerts;
class ClcLeader;
class ClcParticipant;
class Mailbox;

class Recovery {
 public:
  Recovery(const Membership& place, Dependencies& deps, InterClusterLog& log, Mailbox& mailbox,
           ClcParticipant& participant, ClcLeader& leader, Alerts& alerts, AppGate& gate)
      : place_(place)
      , deps_(deps)
      , log_(log)
      , mailbox_(mailbox)
      , participant_(participant)
      , leader_(leader)
      , alerts_(alerts)
      , gate_(gate) {}

  bool restarting() const { return restart_delay_.restarting(); }
  /** @brief The node's state is not the one to go on from yet: it waits for its rollback order,
   *  loads a CLC, or pays its restart overhead. */
  bool state_pending() const { return waiting_order_ || loading_ || restarting(); }
  /** @brief A failure of this cluster is not over (its victim is not back), or state_pending(). */
  bool busy() const { return state_pending() || failure_ != 0; }
  /** @brief busy(), or the recovery leader still has to alert the other clusters. */
  bool recovering() const { return busy() || alerts_due_; }
  /** @brief Appends what this node's recovery waits for to @p what. */
  void pending(std::vector<std::string>& what) const;

  /** @brief A failure notice (the garbage collector has been told first). */
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice);
  /** @brief This node restarted after its own failure: RESTARTED to its recovery leader. */
  void on_restart(NodeContext& ctx, const FailureNotice& own);
  /** @brief RESTARTED (recovery leader): the restarted node's rollback order. */
  void on_restarted(NodeContext& ctx, NodeId from, FailureId failure);
  /** @brief What a failure that struck every node of this cluster lost (an unrecoverable run). */
  std::string whole_cluster_lost(const FailureNotice& own) const;
  /** @brief ROLLBACK: the recovery leader's order. */
  void on_rollback_order(NodeContext& ctx, const Body& b);
  /** @brief Rolls the node back to CLC @p target (0: the initial state), its cluster's epoch
   *  becoming @p new_epoch; @p reason is traced. */
  void rollback_to(NodeContext& ctx, Sn target, std::uint64_t new_epoch, const std::string& reason);
  /** @brief A CLC request to hold until the CLC being loaded is restored: true when held. */
  bool hold_request(const Body& b);
  /** @brief The CLC being loaded is here. */
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s);
  /** @brief A timer: true when it was the end of the restart overhead (handled). */
  bool on_timer(NodeContext& ctx, int id);
  /** @brief The victim of a failure is running again. */
  void on_node_back(NodeContext& ctx, const FailureNotice& notice);

 private:
  /** @brief Aborts the CLC under way, keeping a saved one in doubt with @p keep_saved. */
  void abort_clc(NodeContext& ctx, bool keep_saved);
  /** @brief The state is restored: the node resumes (after its restart overhead if restarted). */
  void restored(NodeContext& ctx);

  const Membership& place_;
  Dependencies& deps_;
  InterClusterLog& log_;
  Mailbox& mailbox_;
  ClcParticipant& participant_;
  ClcLeader& leader_;
  Alerts& alerts_;
  AppGate& gate_;
  bool waiting_order_ = false;                // my cluster failed: waiting for the recovery leader's order
  bool loading_ = false;                      // restoring a CLC
  RestartDelay restart_delay_{kRestartTimer}; // this is a restarted node, not running yet
  std::vector<NodeId> victims_;               // recovery leader: the failed nodes of this cluster
  Sn rollback_sn_ = 0;                        // recovery leader: where the cluster went back
  bool alerts_due_ = false;                   // recovery leader: alert the others once the victims are back
  FailureId failure_ = 0;                     // the failure of this cluster being recovered
  FailureId ordered_failure_ = 0;             // the newest failure whose rollback order this node applied
  std::vector<std::pair<NodeId, FailureId>> restarted_pending_; // RESTARTED before our notice
  std::optional<StoredClc> in_doubt_; // saved, acknowledged, aborted by a failure notice: committed?
  std::shared_ptr<Body> held_req_;    // a CLC request that came while loading the restored CLC
};

} // namespace ckptsim::hc3i
