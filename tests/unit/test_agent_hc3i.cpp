/* Agent-level tests of HC3I on fake nodes (no SimGrid): the decisions of SPEC 3.4 (HC3I report
 * sections 3-4), computed by hand. Clusters of 2 nodes unless said: c0 = {0, 1}, c1 = {2, 3},
 * c2 = {4, 5}, each led by its first node.
 *   - A CLC is a two-phase commit with a drain round (protocols/hc3i/leader.hpp): CLC_REQ,
 *     CLC_READY, CLC_SAVE, CLC_ACK, CLC_COMMIT, one of each per non-leader: 5 (n - 1) messages.
 *   - An inter-cluster message from cluster i carrying SN s forces a CLC in the receiving cluster
 *     j iff s > DDV_j[i]; it is delivered after that CLC commits, and acknowledged with the SN
 *     the CLC created.
 *   - After a failure in cluster f, f rolls back to its last CLC s and alerts (f, s) the other
 *     clusters' leaders; cluster j rolls back iff DDV_j[f] >= s, to its oldest CLC whose
 *     DDV[f] >= s, and alerts in turn; every node re-sends its logged messages to f that were
 *     acknowledged with an SN >= s, or not at all. */
#include "protocols/hc3i/messages.hpp"
#include "protocols/hc3i/node.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ckptsim {
namespace {

using test_support::FakeFederation;
using test_support::WireMessage;

Topology hc3i_federation(int clusters, int nodes) { return test_support::clusters_of(clusters, nodes); }

std::size_t hc3i_count(const std::vector<FakeFederation::Delivered>& log, const std::string& type) {
  return std::count_if(log.begin(), log.end(), [&](const auto& d) { return d.type == type; });
}

/** The SN of the last LOG_ACK node @p from sent. */
std::uint64_t hc3i_last_ack_sn(FakeFederation& fed, NodeId from) {
  const auto& sent = fed.node(from).controls;
  auto it = std::find_if(sent.rbegin(), sent.rend(), [](const auto& c) { return c.msg.type == "LOG_ACK"; });
  if (it == sent.rend()) return 0;
  return hc3i::body(it->msg).get("sn");
}

/** The five CLC message types, one per non-leader of a 2-node cluster. */
void hc3i_expect_one_clc(const std::vector<FakeFederation::Delivered>& log, std::size_t clcs) {
  for (const char* type : {"CLC_REQ", "CLC_READY", "CLC_SAVE", "CLC_ACK", "CLC_COMMIT"})
    EXPECT_EQ(hc3i_count(log, type), clcs) << type;
}

class Hc3iAgent : public ::testing::Test {
 protected:
  Hc3iAgent()
      : fed(hc3i_federation(3, 2), "hc3i") {}
  /** Starts the federation: every cluster takes its initial CLC (SN 1). */
  std::vector<FakeFederation::Delivered> start() {
    fed.start();
    return fed.settle();
  }
  const std::vector<double>& per_cluster(const std::string& name) { return fed.stats().cluster_values(name); }
  FakeFederation fed;
};

TEST_F(Hc3iAgent, EveryClusterTakesItsInitialClcBeforeComputing) {
  fed.start();
  for (NodeId n = 0; n < 6; n++) EXPECT_TRUE(fed.node(n).paused) << n; // held until SN 1
  auto log = fed.settle();
  hc3i_expect_one_clc(log, 3); // 5 (n - 1) = 5 messages per cluster
  EXPECT_EQ(log.size(), 15u);
  for (NodeId n = 0; n < 6; n++) {
    EXPECT_EQ(fed.node(n).saves, std::vector<std::uint64_t>{1}) << n;
    EXPECT_FALSE(fed.node(n).paused) << n;
  }
  EXPECT_EQ(per_cluster("hc3i.clc_initial"), (std::vector<double>{1, 1, 1}));
  EXPECT_TRUE(per_cluster("hc3i.clc_forced").empty());
}

TEST_F(Hc3iAgent, AMessageWhoseSnExceedsTheDdvEntryForcesAClcBeforeItsDelivery) {
  start();
  // Every SN is 1, every DDV entry of another cluster 0: m (c0 -> c1, SN 1) forces a CLC in c1.
  // Its receiver, node 3, is not the leader: it asks node 2 (CLC_FORCE).
  const AppMessage m = fed.app_send(0, 3);
  auto log = fed.settle();
  EXPECT_EQ(hc3i_count(log, "CLC_FORCE"), 1u);
  hc3i_expect_one_clc(log, 1);
  EXPECT_EQ(hc3i_count(log, "LOG_ACK"), 1u);
  EXPECT_EQ(log.size(), 1u + 1u + 5u + 1u); // m, CLC_FORCE, the CLC, LOG_ACK
  EXPECT_EQ(per_cluster("hc3i.clc_forced"), (std::vector<double>{0, 1, 0}));
  ASSERT_EQ(fed.node(3).delivered.size(), 1u);
  EXPECT_EQ(fed.node(3).delivered[0].first.seq, m.seq);
  // The forced CLC (SN 2) holds the state before the delivery; the acknowledgement names it.
  EXPECT_EQ(fed.node(3).saves, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(fed.node(3).saved.at(2).app->delivered, 0u);
  EXPECT_EQ(hc3i_last_ack_sn(fed, 3), 2u);

  // Now DDV_c1[c0] = 1: another message of c0's interval 1 forces nothing, to either node.
  fed.app_send(1, 2);
  fed.app_send(0, 3);
  log = fed.settle();
  EXPECT_EQ(log.size(), 4u); // the two messages and their LOG_ACKs
  EXPECT_EQ(hc3i_count(log, "LOG_ACK"), 2u);
  EXPECT_EQ(fed.node(2).delivered.size(), 1u);
  EXPECT_EQ(fed.node(3).delivered.size(), 2u);
  EXPECT_EQ(hc3i_last_ack_sn(fed, 2), 2u);
  EXPECT_EQ(per_cluster("hc3i.clc_forced"), (std::vector<double>{0, 1, 0}));
}

TEST_F(Hc3iAgent, AForcedClcAtTheLeaderNeedsNoRequestMessage) {
  start();
  // c1 -> c0 with SN 1 > DDV_c0[c1] = 0, received by c0's leader: it starts the CLC itself.
  fed.app_send(3, 0);
  auto log = fed.settle();
  EXPECT_EQ(hc3i_count(log, "CLC_FORCE"), 0u);
  hc3i_expect_one_clc(log, 1);
  EXPECT_EQ(per_cluster("hc3i.clc_forced"), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(hc3i_last_ack_sn(fed, 0), 2u);
}

TEST_F(Hc3iAgent, AnInterClusterMessageArrivingDuringAClcWaitsForItsCommit) {
  fed.node(2).periods["checkpoint_period"] = 100; // c1's unforced CLCs
  start();
  // c1's CLC at 100 s stops before its commit: node 3's acknowledgement is late (nothing else
  // goes on its channel to the leader until the commit: the channel stays FIFO).
  fed.hold = [](const WireMessage& m) { return m.from == 3 && m.type() == "CLC_ACK"; };
  fed.advance_to(100);
  fed.settle();
  EXPECT_EQ(fed.node(3).saves, (std::vector<std::uint64_t>{1, 2}));
  // m (c0 -> c1, SN 1 > DDV_c1[c0] = 0) arrives meanwhile: queued, not even examined yet.
  const AppMessage m = fed.app_send(0, 3);
  auto log = fed.settle();
  EXPECT_EQ(log.size(), 1u); // m itself
  EXPECT_TRUE(fed.node(3).delivered.empty());

  fed.hold = nullptr;
  for (const auto& held : fed.take_held()) fed.hand(held);
  log = fed.settle();
  // The commit (CLC 2, unforced), then m forces CLC 3 (the unforced CLC did not change
  // DDV_c1[c0]), then m is delivered and acknowledged with SN 3.
  EXPECT_EQ(hc3i_count(log, "CLC_COMMIT"), 2u);
  EXPECT_EQ(hc3i_count(log, "CLC_FORCE"), 1u);
  EXPECT_EQ(per_cluster("hc3i.clc_unforced"), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(per_cluster("hc3i.clc_forced"), (std::vector<double>{0, 1, 0}));
  ASSERT_EQ(fed.node(3).delivered.size(), 1u);
  EXPECT_EQ(fed.node(3).delivered[0].first.seq, m.seq);
  EXPECT_EQ(hc3i_last_ack_sn(fed, 3), 3u);
}

TEST_F(Hc3iAgent, AForceRequestTheClcUnderWayAlreadyHoldsWantsNoOtherClc) {
  start();
  // m1 (c0 -> c1's leader, node 2, SN 1) forces CLC 2 of c1, its DDV_c1[c0] = 1; its request to
  // node 3 is late, so node 3, not in the CLC yet, examines m2 (c0 -> node 3, SN 1) and asks the
  // leader for a forced CLC (CLC_FORCE, SN 1) while CLC 2 runs: CLC 2 holds that entry already.
  fed.hold = [](const WireMessage& m) { return m.from == 2 && m.to == 3 && m.type() == "CLC_REQ"; };
  fed.app_send(0, 2);
  fed.settle();
  const AppMessage m2 = fed.app_send(1, 3);
  auto log = fed.settle();
  EXPECT_EQ(hc3i_count(log, "CLC_FORCE"), 1u);
  fed.hold = nullptr;
  for (const auto& held : fed.take_held()) fed.hand(held);
  log = fed.settle();
  // CLC 2 commits, m2 is delivered, and no other CLC follows (before the fix, the request made
  // the leader want one more: an unforced CLC 3 started at CLC 2's commit).
  EXPECT_EQ(hc3i_count(log, "CLC_COMMIT"), 1u);
  EXPECT_EQ(per_cluster("hc3i.clc_forced"), (std::vector<double>{0, 1, 0}));
  EXPECT_TRUE(per_cluster("hc3i.clc_unforced").empty()); // no unforced CLC at all
  EXPECT_EQ(fed.node(3).saves, (std::vector<std::uint64_t>{1, 2}));
  ASSERT_EQ(fed.node(3).delivered.size(), 1u);
  EXPECT_EQ(fed.node(3).delivered[0].first.seq, m2.seq);
  EXPECT_EQ(hc3i_last_ack_sn(fed, 3), 2u);
}

/* One cluster of 3 nodes, unforced CLCs every 100 s: a CLC waits for the intra-cluster messages
 * sent before it (the drain round), so that none crosses it. */
class Hc3iAgentDrain : public ::testing::Test {
 protected:
  Hc3iAgentDrain()
      : fed(hc3i_federation(1, 3), "hc3i") {
    fed.node(0).periods["checkpoint_period"] = 100;
    fed.start();
    fed.settle();
  }
  FakeFederation fed;
};

TEST_F(Hc3iAgentDrain, TheClcTimerIsArmedAtEachCommit) {
  EXPECT_EQ(fed.node(0).timer(hc3i::kClcTimer.id()), 100);
  fed.advance_to(100);
  auto log = fed.settle();
  EXPECT_EQ(log.size(), 10u); // 5 (n - 1)
  EXPECT_EQ(fed.stats().cluster_values("hc3i.clc_unforced"), std::vector<double>{1});
  EXPECT_EQ(fed.node(0).timer(hc3i::kClcTimer.id()), 200);
}

TEST_F(Hc3iAgentDrain, AClcWaitsForTheIntraClusterMessagesInTransit) {
  // Node 1 sends to node 2 just before the CLC; the message is late (its channel is held).
  fed.hold = [](const WireMessage& m) { return m.from == 1 && m.to == 2; };
  const AppMessage m = fed.app_send(1, 2);
  fed.advance_to(100);
  auto log = fed.settle();
  // READY told the leader node 1 sent 1 message to node 2; SAVE tells node 2 to expect it.
  EXPECT_EQ(hc3i_count(log, "CLC_SAVE"), 2u);
  EXPECT_EQ(fed.node(1).saves, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(fed.node(2).saves, std::vector<std::uint64_t>{1}); // not before the message
  EXPECT_EQ(hc3i_count(log, "CLC_ACK"), 1u);                   // node 1's; the leader's is local
  EXPECT_EQ(hc3i_count(log, "CLC_COMMIT"), 0u);
  EXPECT_TRUE(fed.node(2).paused);

  fed.hold = nullptr;
  for (const auto& held : fed.take_held()) fed.hand(held);
  ASSERT_EQ(fed.node(2).delivered.size(), 1u);
  EXPECT_EQ(fed.node(2).delivered[0].first.seq, m.seq);
  log = fed.settle();
  EXPECT_EQ(fed.node(2).saves, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(fed.node(2).saved.at(2).app->delivered, 1u); // inside the CLC, not across it
  EXPECT_EQ(hc3i_count(log, "CLC_ACK"), 1u);
  EXPECT_EQ(hc3i_count(log, "CLC_COMMIT"), 2u);
  for (NodeId n = 0; n < 3; n++) EXPECT_FALSE(fed.node(n).paused) << n;
}

/* The alert scenario. After the initial CLCs (SN 1 everywhere):
 *   m1: node 5 (c2) -> node 1 (c0), SN 1 > DDV_c0[c2] = 0: forced CLC 2 in c0, whose DDV is
 *       [2, 0, 1]; m1 is acknowledged with SN 2;
 *   m2: node 1 (c0) -> node 3 (c1), SN 2 > DDV_c1[c0] = 0: forced CLC 2 in c1, DDV [2, 2, 0].
 * Node 1 fails: c0 rolls back to its last CLC, 2, and alerts (c0, 2).
 *   c1: DDV_c1[c0] = 2 >= 2: back to its oldest CLC with DDV[c0] >= 2, CLC 2 (before m2's
 *       delivery); it alerts (c1, 2);
 *   c2: DDV_c2[c0] = 0 < 2: no rollback; node 5 re-sends m1, acknowledged with SN 2 >= 2 (c0's
 *       CLC 2 predates m1's delivery);
 *   (c1, 2) at c0 and c2: DDV[c1] = 0 there: no rollback. The recovery line is reached.
 * 4 alerts, each broadcast by its receiving leader to its cluster's other node: 4 ALERT_BCAST.
 * The re-sent m1 forces a CLC in c0 again (its restored DDV_c0[c2] is 0): CLC 3. */
TEST_F(Hc3iAgent, AFailureRollsBackTheClustersThatDependOnALostClcOnly) {
  start();
  const AppMessage m1 = fed.app_send(5, 1);
  fed.settle();
  EXPECT_EQ(hc3i_last_ack_sn(fed, 1), 2u);
  fed.app_send(1, 3);
  fed.settle();
  EXPECT_EQ(per_cluster("hc3i.clc_forced"), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(fed.node(3).delivered.size(), 1u);

  fed.at(10);
  const FailureNotice notice = fed.fail(1, 1);
  auto log = fed.settle(); // node 0, the recovery leader, restores CLC 2 (nobody else to order)
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(fed.node(0).loads, std::vector<std::uint64_t>{2});
  fed.restart(notice);
  log = fed.settle();
  EXPECT_EQ(hc3i_count(log, "RESTARTED"), 1u);
  EXPECT_EQ(hc3i_count(log, "ROLLBACK"), 1u); // to the restarted node, with the cluster's CLCs
  EXPECT_EQ(log.size(), 2u);
  EXPECT_EQ(fed.node(1).loads, std::vector<std::uint64_t>{2});
  fed.advance_to(10); // its restart overhead (0) is paid
  EXPECT_EQ(fed.node(1).restarts_completed, 1);
  EXPECT_EQ(hc3i_count(fed.route(), "ALERT"), 0u); // alerts wait until the failed node is back

  fed.node_back(notice);
  log = fed.settle();
  EXPECT_EQ(hc3i_count(log, "ALERT"), 4u);
  EXPECT_EQ(hc3i_count(log, "ALERT_BCAST"), 4u);
  EXPECT_EQ(per_cluster("hc3i.rollbacks"), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(per_cluster("hc3i.alerts_sent"), (std::vector<double>{1, 1, 0}));
  for (NodeId n : {2, 3}) {
    EXPECT_EQ(fed.node(n).loads, std::vector<std::uint64_t>{2}) << n;
    ASSERT_EQ(fed.node(n).restores.size(), 1u) << n;
  }
  EXPECT_EQ(fed.node(3).app->delivered, 0u); // m2's delivery is undone
  for (NodeId n : {4, 5}) {
    EXPECT_TRUE(fed.node(n).loads.empty()) << n;
    EXPECT_TRUE(fed.node(n).restores.empty()) << n;
  }
  // Re-sends: m1 only (c1 sent nothing; m2 is undone at its sender, which re-executes it).
  ASSERT_EQ(fed.node(5).app_resent.size(), 1u);
  EXPECT_EQ(fed.node(5).app_resent[0].first.seq, m1.seq);
  for (NodeId n : {0, 1, 2, 3, 4}) EXPECT_TRUE(fed.node(n).app_resent.empty()) << n;
  // m1 again at node 1: a forced CLC (CLC 3) first, then the delivery.
  ASSERT_EQ(fed.node(1).delivered.size(), 1u);
  EXPECT_EQ(fed.node(1).delivered[0].first.seq, m1.seq);
  EXPECT_EQ(hc3i_count(log, "CLC_FORCE"), 1u);
  EXPECT_EQ(per_cluster("hc3i.clc_forced"), (std::vector<double>{2, 1, 0}));
  EXPECT_EQ(hc3i_last_ack_sn(fed, 1), 3u);
  for (NodeId n = 0; n < 6; n++) EXPECT_TRUE(fed.agent(n).idle()) << n;
}

} // namespace
} // namespace ckptsim
