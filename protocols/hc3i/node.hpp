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
 *
 * The node is a few parts with one job each (as ns-3's TcpSocketBase with its congestion and
 * recovery ops), so that each is read, and tested, on its own; Node itself only owns them, routes
 * the engine's calls, messages and timers to the part they are for, and decides whether the
 * application runs (AppGate: several parts hold it). Parts get the parts they talk to by
 * reference at construction and call their public methods only; none reaches into another's
 * members. The parts, and what each owns:
 *   - Membership (membership.hpp): who is who: the cluster, its members and leader, the other
 *     leaders, the recovery leader. Fixed.
 *   - Dependencies (dependencies.hpp): the DDV and SN bookkeeping: the cluster's SN and DDV, its
 *     epoch and the other clusters' rollbacks heard of (orphans), the committed CLCs stored, the
 *     failures heard of. Decides nothing: the others read and update it.
 *   - InterClusterLog (log.hpp): the optimistic log of inter-cluster sends, acknowledgements,
 *     replays, the copy a CLC saves.
 *   - Mailbox (mailbox.hpp): the application messages: piggybacks, the per-channel counts a CLC
 *     saves, delivery or holding or dropping, the inbox, the forced-CLC requests.
 *   - ClcParticipant (participant.hpp) and ClcLeader (leader.hpp): the two sides of a CLC; the
 *     leader also holds what forced CLCs were asked for and the CLC timer.
 *   - Alerts (alerts.hpp): rollback alerts: a leader's queue and decision, the broadcast, the
 *     re-sends they cause.
 *   - Recovery (recovery.hpp): failures, rollback orders, restarts, the CLC in doubt, restoring
 *     a CLC and resuming.
 *   - GarbageCollector (gc.hpp): the centralized collection rounds and their application. */
#pragma once

#include "sim/protocol/index_set.hpp"
#include "protocols/common/peer_map.hpp"
#include "protocols/common/period_timer.hpp"
#include "protocols/common/restart_delay.hpp"
#include "protocols/hc3i/alerts.hpp"
#include "protocols/hc3i/app_gate.hpp"
#include "protocols/hc3i/ddv.hpp"
#include "protocols/hc3i/dependencies.hpp"
#include "protocols/hc3i/gc.hpp"
#include "protocols/hc3i/leader.hpp"
#include "protocols/hc3i/log.hpp"
#include "protocols/hc3i/mailbox.hpp"
#include "protocols/hc3i/membership.hpp"
#include "protocols/hc3i/messages.hpp"
#include "protocols/hc3i/participant.hpp"
#include "protocols/hc3i/recovery.hpp"
#include "protocols/hc3i/state.hpp"
#include "sim/protocol/protocol.hpp"

#include <memory>
#include <string>

namespace ckptsim::hc3i {

class Node : public Agent, private AppGate {
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
  /** @brief The application runs unless a CLC, a recovery or the lack of any CLC holds it. */
  void update_app(NodeContext& ctx) override;

  const Membership place_;
  Dependencies deps_;
  InterClusterLog log_;
  GarbageCollector gc_;
  Mailbox mailbox_;
  ClcParticipant participant_;
  ClcLeader leader_;
  Alerts alerts_;
  Recovery recovery_;
};

/** @brief The application runs unless a CLC is under way on this node, a recovery is, or the
 *  cluster's initial CLC (SN 1) is not committed yet: pauses or resumes it accordingly. */
void gate_app(NodeContext& ctx, const ClcParticipant& participant, const Recovery& recovery, const Dependencies& deps);

} // namespace ckptsim::hc3i
