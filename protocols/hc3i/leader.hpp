/* The leader side of a cluster-level checkpoint, on the cluster's first node. The report's
 * two-phase commit (request, acknowledgements, commit) with one more round so that no
 * intra-cluster message is in transit across the CLC: on the request (CLC_REQ) every node stops
 * its application and answers CLC_READY with how many messages it sent to each peer; the leader
 * tells each node how many it must have received (CLC_SAVE); a node saves (own memory + buddy)
 * once it has them all and acknowledges (CLC_ACK); after every acknowledgement the leader commits
 * (CLC_COMMIT). Inter-cluster messages arriving meanwhile are queued and delivered after the
 * commit. 5 (n - 1) messages per CLC in a cluster of n nodes (the leader's messages to itself are
 * local calls). The leader starts a CLC for the initial state, on its timer (unforced) and when a
 * node asks for a forced one (CLC_FORCE), once no recovery holds the cluster. */
#pragma once

#include "protocols/hc3i/dependencies.hpp"
#include "protocols/hc3i/membership.hpp"

#include <map>
#include <string>
#include <vector>

namespace ckptsim::hc3i {

class Alerts;
class ClcParticipant;
class Recovery;

class ClcLeader {
 public:
  ClcLeader(const Membership& place, const Dependencies& deps, ClcParticipant& participant, const Recovery& recovery,
            Alerts& alerts);

  /** @brief A CLC of this leader is under way. */
  bool active() const { return round_.active; }
  /** @brief What the CLC under way waits for ("" when none). */
  std::string pending() const;

  /** @brief Starts a CLC if one is due (none yet, asked for, or the timer's) and nothing holds
   *  the cluster (a CLC under way, a recovery, alerts to handle). */
  void maybe_start(NodeContext& ctx);
  /** @brief The CLC timer fired: an unforced CLC is due. */
  void on_timer(NodeContext& ctx);
  void arm_timer(NodeContext& ctx) const;
  /** @brief CLC_READY: node @p from stopped; once all have, CLC_SAVE to each. */
  void on_ready(NodeContext& ctx, NodeId from, const Body& b);
  /** @brief CLC_ACK: once every node saved, the commit. */
  void on_ack(NodeContext& ctx, const Body& b);
  /** @brief CLC_FORCE: a node received a message whose SN exceeds this cluster's DDV entry. */
  void on_force(NodeContext& ctx, const Body& b);
  /** @brief Forgets the CLC under way (a failure or a rollback aborted it). */
  void abort() { round_ = Round{}; }
  /** @brief Forgets the forced CLCs asked for (a rollback undid the deliveries that asked). */
  void forget_wanted();
  /** @brief The cluster is back to its initial state: the initial CLC again. */
  void want_clc() { clc_wanted_ = true; }

 private:
  void start(NodeContext& ctx);
  /** @brief Some entry asked for by a forced-CLC request is in no CLC taken or under way. */
  bool wants_forced_clc() const;

  const Membership& place_;
  const Dependencies& deps_;
  ClcParticipant& participant_;
  const Recovery& recovery_;
  Alerts& alerts_;
  /** @brief @p b (READY, ACK) answers the round under way, not an aborted one of the same number. */
  bool of_round(const Body& b) const;
  struct Round {
    bool active = false;
    Sn number = 0;
    std::uint64_t epoch = 0; // the cluster's epoch: a rollback's new round may reuse the number
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
  bool timer_due_ = false;
};

} // namespace ckptsim::hc3i
