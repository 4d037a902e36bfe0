/* Rollback alerts (HC3I report section 3.4). A cluster f that rolled back to CLC s alerts (f, s)
 * the leader of every other cluster. A leader decides, one alert at a time and between CLCs,
 * whether its cluster rolls back (rollback_target), broadcasts the alert and its decision in its
 * cluster (ALERT_BCAST) and, when its cluster rolls back, alerts the others in turn. Every node
 * of an alerted cluster learns f's rollback and re-sends the logged messages to f acknowledged
 * with an SN >= s or not at all (after its own rollback, if any). An alert is idempotent: one
 * already handled or queued is dropped. */
#pragma once

#include "protocols/hc3i/dependencies.hpp"
#include "protocols/hc3i/log.hpp"
#include "protocols/hc3i/membership.hpp"

#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim::hc3i {

class ClcLeader;
class ClcParticipant;
class Mailbox;
class Recovery;

class Alerts {
 public:
  Alerts(const Membership& place, Dependencies& deps, InterClusterLog& log, Mailbox& mailbox,
         const ClcParticipant& participant, const ClcLeader& leader, Recovery& recovery)
      : place_(place)
      , deps_(deps)
      , log_(log)
      , mailbox_(mailbox)
      , participant_(participant)
      , leader_(leader)
      , recovery_(recovery) {}

  /** @brief The leader holds alerts it has not handled yet. */
  bool holding() const { return !queue_.empty(); }
  /** @brief The leader waits for the rollbacks it asked for, or has queries to answer: the run
   *  is not over (nothing else waits for them: CLCs and the application go on). */
  bool waiting() const { return !asked_.empty() || !queries_.empty(); }
  /** @brief What waits ("" when nothing). */
  std::string pending() const;

  /** @brief This cluster restored CLC @p restored_sn: alerts the other clusters' leaders. */
  void send(NodeContext& ctx, Sn restored_sn);
  /** @brief ALERT (a leader): queued, handled when nothing holds the cluster. */
  void on_alert(NodeContext& ctx, const Body& b);
  /** @brief Handles the alerts queued, one at a time, while no CLC or recovery holds the cluster. */
  void process(NodeContext& ctx);
  /** @brief ALERT_BCAST: the alert and the leader's decision; rolls back or re-sends. */
  void on_bcast(NodeContext& ctx, const Body& b);
  /** @brief The rollback an alert decided is over: its re-sends now. */
  void replay_after_restore(NodeContext& ctx);

  // Alerts lost with a failed leader (sent while it was down, or queued and not handled): once
  // back, it asks every other cluster's leader for the rollbacks its cluster has not heard of
  // (ALERT_QUERY, with the epoch it knows of that cluster); the answer (ALERT_REPLY) lists them,
  // handled as alerts. A query to a leader that is down is asked again when that leader is back.
  /** @brief This node, its cluster's leader, is back from a failure: queries the other leaders. */
  void query(NodeContext& ctx);
  /** @brief Another node is back: a query this leader sent to it while it was down is sent again. */
  void on_node_back(NodeContext& ctx, const FailureNotice& notice);
  /** @brief ALERT_QUERY: answered once this cluster is not recovering (its alerts are out). */
  void on_query(NodeContext& ctx, NodeId from, const Body& b);
  /** @brief Answers the queries held while this cluster recovered. */
  void answer_queries(NodeContext& ctx);
  /** @brief ALERT_REPLY: the rollbacks not heard of yet are queued as alerts. */
  void on_reply(NodeContext& ctx, const Body& b);

 private:
  const Membership& place_;
  Dependencies& deps_;
  InterClusterLog& log_;
  Mailbox& mailbox_;
  const ClcParticipant& participant_;
  const ClcLeader& leader_;
  Recovery& recovery_;
  std::deque<std::shared_ptr<Body>> queue_;             // leader: alerts waiting for the CLC under way
  std::optional<std::pair<int, Sn>> replay_after_load_; // an alert's re-sends, once restored
  std::set<int> asked_;                                 // leader: clusters queried, no reply yet
  std::vector<std::pair<NodeId, Body>> queries_;        // leader: queries held while recovering

  /** @brief The alert (@p cluster, rollback to epoch @p epoch) is handled or queued here. */
  bool known(int cluster, std::uint64_t epoch) const;
  void ask(NodeContext& ctx, int cluster);
  void answer(NodeContext& ctx, NodeId from, const Body& b);
};

} // namespace ckptsim::hc3i
