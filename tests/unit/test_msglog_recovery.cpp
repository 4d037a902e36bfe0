/* Unit tests of msglog::Recovery (protocols/msglog/recovery.hpp): the restart of a failed process,
 * its restore, its replay and the report of its recovery once its peers caught up, on fake nodes.
 * Three processes (0-2), the event logger is endpoint 3; process 1 fails (failure 4, at date 1)
 * and restarts as incarnation 1 at date 2, with a restart overhead of 0.5 s. */
#include "tests/unit/test_msglog_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using msglog::Det;
using msglog::Msg;
using msglog_test::arrive;
using msglog_test::ctrl;
using msglog_test::message;
using msglog_test::Parts;
using msglog_test::sent_body;

class MsglogRecovery : public ::testing::Test {
 protected:
  MsglogRecovery()
      : fed(test_support::one_cluster(3), "msglog")
      , node(fed.layout(), 1, /*incarnation=*/1, &fed.stats()) {
    node.periods["checkpoint_period"] = 10;
    node.clock = 2;
    node.overhead = 0.5;
    own.id = 4;
    own.victims = {1};
    own.date = 1;
  }
  test_support::FakeFederation fed;
  test_support::FakeNode node; // the restarted process
  FailureNotice own;
};

TEST_F(MsglogRecovery, TheRestartedProcessReplaysTheLoggedOrderAndReportsOnceItsPeersCaughtUp) {
  Parts p(fed.layout(), 1);
  p.recovery.on_restart(node, own);
  ASSERT_EQ(node.control_names(), std::vector<std::string>{"REPLAY_REQ"});
  EXPECT_EQ(node.controls[0].to, msglog_test::kLogger);
  EXPECT_EQ(sent_body(node, 0).inc, 1u);
  EXPECT_EQ(sent_body(node, 0).get("failure"), 4u);
  EXPECT_FALSE(p.recovery.restored());
  EXPECT_TRUE(p.recovery.restarting());
  // A message before the restore waits (the channel indices are in the checkpoint).
  arrive(p, node, message(0, 1, 10, 0));
  EXPECT_TRUE(node.delivered.empty());
  // From the initial state; the logger holds deliveries 1 (node 2's index 0) and 2 (node 0's).
  p.control(node, msglog_test::kLogger,
            ctrl(Msg::Replay, 1, {{"number", 0}, {"rsn", 0}, {"stable", 2}}, {Det{1, 2, 0, 1}, Det{1, 0, 0, 2}}));
  EXPECT_EQ(node.restores.size(), 1u);
  EXPECT_EQ(p.dets.stable(), 2u);
  EXPECT_EQ(node.control_names(), (std::vector<std::string>{"REPLAY_REQ", "RESEND_REQ", "RESEND_REQ"}));
  EXPECT_EQ(node.controls[1].to, 0);
  EXPECT_EQ(node.controls[2].to, 2);
  EXPECT_EQ(p.replay.size(), 2u);
  EXPECT_DOUBLE_EQ(node.timer(msglog::kRestartTimer), 2.5);
  EXPECT_TRUE(node.delivered.empty()); // the restart overhead is not paid yet
  node.clock = 2.5;
  EXPECT_TRUE(p.recovery.on_timer(node, msglog::kRestartTimer));
  EXPECT_EQ(node.restarts_completed, 1);
  EXPECT_NEAR(node.timer(msglog::kCkptTimer), 6.180339887, 1e-9);
  EXPECT_TRUE(node.delivered.empty()); // node 0's message waits for node 2's
  arrive(p, node, message(2, 1, 20, 0));
  EXPECT_EQ(msglog_test::deliveries(node), (std::vector<std::pair<NodeId, std::uint64_t>>{{2, 20}, {0, 10}}));
  EXPECT_EQ(node.controls.size(), 3u); // both determinants are stable: no DET
  p.control(node, 0, ctrl(Msg::Catchup, 0, {{"failure", 4}, {"resent", 1}, {"next", 0}}));
  EXPECT_TRUE(node.reported.empty());
  p.control(node, 2, ctrl(Msg::Catchup, 0, {{"failure", 4}, {"resent", 1}, {"next", 0}}));
  EXPECT_EQ(node.reported, std::vector<FailureId>{4});
  EXPECT_FALSE(p.recovery.active());
  const auto& rec = fed.stats().series("msglog.recoveries");
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0]["replayed"].get<std::uint64_t>(), 2u);
  EXPECT_EQ(rec[0]["resent"].get<std::uint64_t>(), 2u);
  EXPECT_EQ(rec[0]["checkpoint"].get<std::uint64_t>(), 0u);
  EXPECT_DOUBLE_EQ(rec[0]["duration"].get<double>(), 1.5);
}

TEST_F(MsglogRecovery, TheReExecutionMustSendAgainWhatThePeersDelivered) {
  Parts p(fed.layout(), 1);
  p.recovery.on_restart(node, own);
  p.control(node, msglog_test::kLogger, ctrl(Msg::Replay, 1, {{"number", 0}, {"stable", 0}}));
  p.recovery.on_timer(node, msglog::kRestartTimer);
  p.control(node, 0, ctrl(Msg::Catchup, 0, {{"failure", 4}, {"next", 1}})); // node 0 delivered index 0
  p.control(node, 2, ctrl(Msg::Catchup, 0, {{"failure", 4}, {"next", 0}}));
  EXPECT_TRUE(node.reported.empty());
  AppMessage m;
  m.src = 1;
  m.dst = 0;
  p.log.on_app_send(node, m); // index 0 to node 0 again
  EXPECT_EQ(node.reported, std::vector<FailureId>{4});
}

TEST_F(MsglogRecovery, RequestsAndNoticesBeforeTheRestoreWaitForIt) {
  Parts p(fed.layout(), 1, msglog_test::options(msglog::Variant::Optimistic));
  const std::uint64_t epoch = msglog::kEpochStride + 1; // node 0 after an orphan rollback
  p.recovery.on_restart(node, own);
  EXPECT_TRUE(p.recovery.recovering());
  p.control(node, 2, ctrl(Msg::ResendReq, 5, {{"failure", 4}, {"next", 0}}));
  p.control(node, 0, ctrl(Msg::RollbackNotice, epoch, {{"failure", 3}, {"target", 3}}));
  EXPECT_EQ(node.control_names(), std::vector<std::string>{"REPLAY_REQ"});
  EXPECT_FALSE(p.orphans.undone(0, epoch - 1, 4)); // not applied yet
  p.control(node, msglog_test::kLogger, ctrl(Msg::Replay, msglog::kEpochStride, {{"number", 0}, {"stable", 0}}));
  // Its own rollback announced, the peers asked, then the notice and the request that waited.
  EXPECT_EQ(node.control_names(), (std::vector<std::string>{"REPLAY_REQ", "ROLLBACK_NOTICE", "ROLLBACK_NOTICE",
                                                            "RESEND_REQ", "RESEND_REQ", "CATCHUP"}));
  EXPECT_EQ(node.controls[5].to, 2);
  EXPECT_EQ(sent_body(node, 5).get("round"), 5u);
  EXPECT_TRUE(p.orphans.undone(0, epoch - 1, 4));
  EXPECT_FALSE(p.orphans.undone(0, epoch - 1, 3));
}

} // namespace
} // namespace ckptsim
