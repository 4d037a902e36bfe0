/* Unit tests of msglog::Orphans (protocols/msglog/orphans.hpp), the optimistic variant: the
 * checkpoints and deliveries kept in memory, the rollbacks announced and the rollback of an
 * orphan, on fake nodes. Three processes (0-2), the event logger is endpoint 3; a determinant is
 * (owner, src, idx, rsn). */
#include "tests/unit/test_msglog_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using msglog::Det;
using msglog::kEpochStride;
using msglog::Msg;
using msglog_test::arrive;
using msglog_test::ctrl;
using msglog_test::message;
using msglog_test::Parts;
using msglog_test::sent_body;

class MsglogOrphans : public ::testing::Test {
 protected:
  MsglogOrphans()
      : fed(test_support::one_cluster(3), "msglog", {{"variant", "optimistic"}})
      , p(fed.layout(), 1, msglog_test::options(msglog::Variant::Optimistic))
      , ctx(fed.node(1)) {
    p.exec.begin_incarnation(0, true);
    p.orphans.on_start(ctx);
  }
  test_support::FakeFederation fed;
  Parts p;
  test_support::FakeNode& ctx;
};

TEST_F(MsglogOrphans, AMessageIsUndoneWhenSentAfterTheTargetInAnOlderEpoch) {
  p.orphans.learn(0, 5, 3); // node 0 went back to its delivery 3 in epoch 5
  EXPECT_TRUE(p.orphans.undone(0, 4, 4));
  EXPECT_FALSE(p.orphans.undone(0, 4, 3));                     // before the target: kept
  EXPECT_FALSE(p.orphans.undone(0, 5, 9));                     // sent in the new epoch
  EXPECT_FALSE(p.orphans.undone(0, msglog::kUnknownEpoch, 9)); // sender unknown
  EXPECT_FALSE(p.orphans.undone(2, 4, 9));                     // another sender
}

TEST_F(MsglogOrphans, OnlyTheLastCheckpointsAndTheDeliveriesSinceTheOldestAreKept) {
  for (std::uint64_t r = 1; r <= 8; r++) p.orphans.record_delivery(Det{1, 0, r - 1, r}, 0, r);
  EXPECT_EQ(p.exec.state().dv.at(0).at(0), 8u);
  p.orphans.keep(ctx, 1, 2, Snapshot{});
  p.orphans.keep(ctx, 2, 4, Snapshot{});
  EXPECT_EQ(p.orphans.kept().size(), 3u); // the initial state, 1 and 2 (keep = 3)
  p.orphans.keep(ctx, 3, 6, Snapshot{});
  EXPECT_TRUE(ctx.discards.empty());         // the initial state is not a stored checkpoint
  EXPECT_EQ(p.orphans.history().size(), 6u); // deliveries 3 to 8
  p.orphans.keep(ctx, 4, 8, Snapshot{});
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{1});
  ASSERT_EQ(p.orphans.kept().size(), 3u);
  EXPECT_EQ(p.orphans.kept().front().number, 2u);
  EXPECT_EQ(p.orphans.history().begin()->first, 5u); // after checkpoint 2's delivery 4
}

/* Node 1 delivers node 0's messages sent after node 0's deliveries 1, 2 and 3; node 0 then goes
 * back to its delivery 1: node 1's deliveries 2 and 3 are orphans. */
TEST_F(MsglogOrphans, AnOrphanGoesBackToItsCheckpointBeforeTheUndoneDeliveryAndAnnouncesIt) {
  for (std::uint64_t i = 0; i < 3; i++) arrive(p, ctx, message(0, 1, 10 + i, i, 0, i + 1));
  ASSERT_EQ(p.exec.state().rsn, 3u);
  p.control(ctx, 0, ctrl(Msg::RollbackNotice, kEpochStride, {{"failure", 5}, {"target", 1}}));
  EXPECT_EQ(p.recovery.failure(), 5u);
  EXPECT_TRUE(p.recovery.recovering());
  EXPECT_EQ(p.exec.epoch(), 1u);
  EXPECT_EQ(fed.stats().get("msglog.orphan_rollbacks"), 1);
  // Back to the initial state (the only one kept), replaying delivery 1.
  ASSERT_EQ(ctx.restores.size(), 1u);
  EXPECT_EQ(p.exec.state().rsn, 0u);
  ASSERT_EQ(p.replay.size(), 1u);
  EXPECT_EQ(p.replay.next(), (Det{1, 0, 0, 1}));
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"DET", "ROLLBACK_NOTICE", "ROLLBACK_NOTICE",
                                                           "ROLLBACK_NOTICE", "RESEND_REQ", "RESEND_REQ"}));
  EXPECT_EQ(ctx.controls[1].to, msglog_test::kLogger);
  EXPECT_EQ(sent_body(ctx, 1).get("target"), 1u);
  EXPECT_EQ(sent_body(ctx, 1).get("number"), 0u);
  EXPECT_EQ(ctx.controls[2].to, 0);
  EXPECT_EQ(sent_body(ctx, 2).get("next"), 1u); // node 0's index 0 stays delivered once replayed
  EXPECT_EQ(sent_body(ctx, 2).inc, 1u);
  // Node 0's index 0 comes again and is replayed; its index 1 of the undone interval is dropped.
  arrive(p, ctx, message(0, 1, 10, 0, 0, 1));
  arrive(p, ctx, message(0, 1, 11, 1, 0, 2));
  EXPECT_EQ(p.exec.state().rsn, 1u);
  EXPECT_TRUE(p.replay.done());
  EXPECT_EQ(fed.stats().get("msglog.stale"), 1);
  // The same notice again changes nothing.
  p.control(ctx, 0, ctrl(Msg::RollbackNotice, kEpochStride, {{"failure", 5}, {"target", 1}}));
  EXPECT_EQ(fed.stats().get("msglog.orphan_rollbacks"), 1);
}

} // namespace
} // namespace ckptsim
