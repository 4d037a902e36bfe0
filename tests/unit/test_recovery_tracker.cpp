/* The recovery tracker (sim/engine/recovery_tracker.hpp) on scripted sequences, as the Run feeds
 * it: strikes, detections and the notices they send, notices processed, restarts, reports,
 * quiescence; and what it decides: when a failure's "node back" signal goes out, when its
 * recovery ends. No SimGrid. */
#include "sim/engine/recovery_tracker.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

namespace {
using Ids = std::vector<FailureId>;
using Nodes = std::set<NodeId>;
} // namespace

TEST(RecoveryTracker, ANoticeProtocolsRecoveryEndsWhenTheVictimIsBackAndEveryNoticeProcessed) {
  RecoveryTracker t; // default rules: no reports, no quiescence
  EXPECT_EQ(t.next_id(), 1u);
  EXPECT_EQ(t.strike({1}, 10.0, {0, 2}), 1u);
  EXPECT_EQ(t.open(), 1);
  EXPECT_EQ(t.struck(), 1u);
  EXPECT_TRUE(t.at(1).to_report.empty()); // reports only when the protocol asks for them
  EXPECT_TRUE(t.awaiting_detection());
  EXPECT_FALSE(t.send_back_now(1, false));

  t.detect(1);
  for (NodeId e : {0, 2, 3}) t.notice_sent(1, e); // 3: a service
  EXPECT_FALSE(t.awaiting_detection());
  EXPECT_EQ(t.latest_detected(), 1u);
  EXPECT_EQ(t.at(1).notices, (Nodes{0, 2, 3}));
  EXPECT_TRUE(t.notice_processed(1, 0));
  EXPECT_TRUE(t.notice_processed(1, 3));
  EXPECT_FALSE(t.notice_processed(7, 0)); // no such failure
  EXPECT_EQ(t.restart_complete(1, 1), (Ids{1}));
  EXPECT_FALSE(t.send_back_now(1, true)); // node 2 has not processed the notice yet
  EXPECT_TRUE(t.notice_processed(1, 2));
  EXPECT_FALSE(t.send_back_now(1, false)); // the victim is down again
  EXPECT_FALSE(t.end_now(1, true));        // not before the node-back signal
  EXPECT_TRUE(t.send_back_now(1, true));
  EXPECT_FALSE(t.send_back_now(1, true)); // once
  EXPECT_TRUE(t.end_now(1, false));       // quiescence is not asked for
  EXPECT_EQ(t.open(), 0);
  EXPECT_FALSE(t.end_now(1, true)); // once
  EXPECT_TRUE(t.at(1).done);
}

TEST(RecoveryTracker, AReportingProtocolsRecoveryWaitsForEveryNodesReportAndTheVictims) {
  RecoveryTracker t;
  t.set_rules({.nodes_report = true});
  const FailureId f = t.strike({2}, 5.0, {0, 1});
  EXPECT_EQ(t.at(f).to_report, (Nodes{0, 1, 2}));
  t.detect(f);
  t.notice_sent(f, 0);
  t.notice_sent(f, 1);
  t.notice_processed(f, 0);
  t.notice_processed(f, 1);
  t.restart_complete(f, 2);
  EXPECT_TRUE(t.send_back_now(f, true));
  EXPECT_FALSE(t.end_now(f, true));
  EXPECT_EQ(t.node_recovered(f, 0), (Ids{f}));
  EXPECT_EQ(t.node_recovered(f, 0), Ids{}); // reported already
  EXPECT_EQ(t.node_recovered(f, 2), (Ids{f}));
  EXPECT_FALSE(t.end_now(f, true));
  EXPECT_EQ(t.node_recovered(f, 1), (Ids{f}));
  EXPECT_TRUE(t.end_now(f, false));
}

TEST(RecoveryTracker, AQuiescentRecoveryWaitsForQuiescence) {
  RecoveryTracker t;
  t.set_rules({.needs_quiescence = true});
  const FailureId f = t.strike({0}, 1.0, {1});
  t.detect(f);
  t.notice_sent(f, 1);
  t.notice_processed(f, 1);
  t.restart_complete(f, 0);
  EXPECT_TRUE(t.send_back_now(f, true));
  EXPECT_FALSE(t.end_now(f, false));
  EXPECT_EQ(t.open_ids(), (Ids{f}));
  EXPECT_TRUE(t.end_now(f, true));
  EXPECT_EQ(t.open_ids(), Ids{});
}

TEST(RecoveryTracker, ANodeThatFailsDuringAnotherRecoveryOwesItNeitherItsNoticeNorItsReport) {
  RecoveryTracker t;
  t.set_rules({.nodes_report = true});
  const FailureId first = t.strike({0}, 1.0, {1, 2, 3});
  t.detect(first);
  for (NodeId e : {1, 2, 3}) t.notice_sent(first, e);
  const FailureId second = t.strike({3}, 2.0, {1, 2}); // node 3 dies before processing the first notice
  EXPECT_EQ(t.at(first).notices, (Nodes{1, 2}));
  EXPECT_EQ(t.at(first).to_report, (Nodes{0, 1, 2})); // its restart reports for it
  EXPECT_EQ(t.at(second).to_report, (Nodes{1, 2, 3}));
  EXPECT_EQ(t.open_ids(), (Ids{first, second}));
  EXPECT_EQ(t.open_after(0), first);
  EXPECT_EQ(t.open_after(first), second);
  EXPECT_EQ(t.open_after(second), std::nullopt);
  EXPECT_EQ(t.not_back(second), (Ids{first})); // what the restarted node 3 is told is still down
  // Node 0 restarts while node 3 is down: it rolls back for the second failure too.
  t.restarting(first, 0);
  EXPECT_EQ(t.at(second).to_report, (Nodes{0, 1, 2, 3}));
}

TEST(RecoveryTracker, AVictimThatFailsAgainBeforeItIsBackIsBackOnlyAfterItsNextRestart) {
  RecoveryTracker t;
  const FailureId first = t.strike({1}, 1.0, {0});
  t.detect(first);
  t.notice_sent(first, 0);
  EXPECT_EQ(t.restart_complete(first, 1), (Ids{first}));
  const FailureId second = t.strike({1}, 3.0, {0}); // before node 0 processed the first notice
  EXPECT_FALSE(t.at(first).restarted());
  t.notice_processed(first, 0);
  EXPECT_FALSE(t.send_back_now(first, true));
  EXPECT_EQ(t.restart_complete(second, 1), (Ids{first, second})); // one restart settles both
  EXPECT_TRUE(t.send_back_now(first, true));
  EXPECT_FALSE(t.send_back_now(second, true)); // not detected yet
  EXPECT_TRUE(t.end_now(first, false));
  // A failure whose node-back signal went out stays settled when its victim fails again.
  t.strike({1}, 5.0, {0});
  EXPECT_TRUE(t.at(first).restarted());
}

TEST(RecoveryTracker, RollbacksCountInTheRecoveriesUnderWayOnly) {
  RecoveryTracker t;
  const FailureId first = t.strike({0}, 1.0, {1, 2});
  t.detect(first);
  t.notice_sent(first, 1);
  t.notice_sent(first, 2);
  t.notice_processed(first, 1);
  t.notice_processed(first, 2);
  t.restart_complete(first, 0);
  t.node_rolled_back(0);
  t.send_back_now(first, true);
  t.end_now(first, false);
  const FailureId second = t.strike({1}, 2.0, {0, 2});
  t.node_rolled_back(2);
  t.node_rolled_back(2);
  EXPECT_EQ(t.at(first).rolled_back, (Nodes{0}));
  EXPECT_EQ(t.at(second).rolled_back, (Nodes{2}));
}

TEST(RecoveryTracker, TheDecisionsAsPlainFunctions) {
  Recovery rec{.victims = {4}, .detected = true}; // restarted: no victim left down
  EXPECT_TRUE(node_back_due(rec, true));
  EXPECT_FALSE(node_back_due(rec, false));
  rec.notices = {1};
  EXPECT_FALSE(node_back_due(rec, true));
  rec.notices.clear();
  rec.back_sent = true;
  EXPECT_FALSE(node_back_due(rec, true));
  EXPECT_TRUE(recovery_over(rec, {}, false));
  EXPECT_FALSE(recovery_over(rec, {.needs_quiescence = true}, false));
  rec.to_report = {2};
  EXPECT_FALSE(recovery_over(rec, {}, true));
}

TEST(RecoveryTracker, AnEventWithManyVictimsIsOneRecoveryBackOnceEveryVictimRunsAgain) {
  RecoveryTracker t;
  t.set_rules({.nodes_report = true});
  const FailureId f = t.strike({2, 3}, 4.0, {0, 1}); // a rack of two nodes
  EXPECT_EQ(t.open(), 1);
  EXPECT_EQ(t.struck(), 1u);
  EXPECT_EQ(t.at(f).victims, (std::vector<NodeId>{2, 3}));
  EXPECT_TRUE(t.at(f).struck(3));
  EXPECT_FALSE(t.at(f).struck(1));
  EXPECT_EQ(t.at(f).down, (Nodes{2, 3}));
  EXPECT_EQ(t.at(f).to_report, (Nodes{0, 1, 2, 3})); // the survivors and every victim
  t.detect(f);
  t.notice_sent(f, 0);
  t.notice_sent(f, 1);
  t.notice_processed(f, 0);
  t.notice_processed(f, 1);
  EXPECT_EQ(t.restart_complete(f, 2), (Ids{f}));
  EXPECT_FALSE(t.at(f).restarted());
  EXPECT_FALSE(t.send_back_now(f, true));     // node 3 is still restarting
  EXPECT_EQ(t.restart_complete(f, 2), Ids{}); // once
  EXPECT_EQ(t.restart_complete(f, 3), (Ids{f}));
  EXPECT_TRUE(t.at(f).restarted());
  EXPECT_FALSE(t.send_back_now(f, false)); // a victim is down again
  EXPECT_TRUE(t.send_back_now(f, true));
  for (NodeId n : {0, 1, 2}) t.node_recovered(f, n);
  EXPECT_FALSE(t.end_now(f, true));
  t.node_recovered(f, 3);
  EXPECT_TRUE(t.end_now(f, true));
  EXPECT_EQ(t.open(), 0);
}

TEST(RecoveryTracker, OneVictimOfAnEventFailingAgainHoldsTheEventUntilItsNextRestart) {
  RecoveryTracker t;
  const FailureId rack = t.strike({1, 2}, 1.0, {0});
  t.detect(rack);
  t.notice_sent(rack, 0);
  t.restart_complete(rack, 1);
  t.restart_complete(rack, 2);
  const FailureId again = t.strike({2}, 2.0, {0, 1}); // before node 0 processed the rack's notice
  EXPECT_EQ(t.at(rack).down, (Nodes{2}));
  t.notice_processed(rack, 0);
  EXPECT_FALSE(t.send_back_now(rack, true));
  EXPECT_EQ(t.restart_complete(again, 2), (Ids{rack, again}));
  EXPECT_TRUE(t.send_back_now(rack, true));
}
