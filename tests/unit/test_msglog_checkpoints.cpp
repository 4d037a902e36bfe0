/* Unit tests of msglog::Checkpoints (protocols/msglog/checkpoints.hpp): the periodic independent
 * checkpoints, their commit at the event logger and the garbage collection they allow, on fake
 * nodes. Three processes (0-2), the event logger is endpoint 3; period 10 s. */
#include "tests/unit/test_msglog_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using msglog::Msg;
using msglog_test::ctrl;
using msglog_test::Parts;
using msglog_test::sent_body;

class MsglogCheckpoints : public ::testing::Test {
 protected:
  MsglogCheckpoints()
      : fed(test_support::one_cluster(3), "msglog") {
    for (NodeId n = 0; n < 3; n++) fed.node(n).periods["checkpoint_period"] = 10;
  }
  test_support::FakeFederation fed;
};

TEST_F(MsglogCheckpoints, EachProcessHasItsOwnPhaseByTheGoldenRatio) {
  for (NodeId n = 0; n < 3; n++) {
    Parts p(fed.layout(), n);
    p.checkpoints.read_period(fed.node(n));
    p.checkpoints.arm_timer(fed.node(n));
  }
  EXPECT_NEAR(fed.node(0).timer(msglog::kCkptTimer), 10, 1e-9);          // phase 0: one period
  EXPECT_NEAR(fed.node(1).timer(msglog::kCkptTimer), 6.180339887, 1e-9); // 10 * frac(0.618...)
  EXPECT_NEAR(fed.node(2).timer(msglog::kCkptTimer), 2.360679774, 1e-9); // 10 * frac(1.236...)
}

TEST_F(MsglogCheckpoints, ACheckpointIsCommittedAtTheLoggerThenTheSendersForgetWhatItDelivered) {
  Parts p(fed.layout(), 1);
  auto& ctx = fed.node(1);
  p.checkpoints.read_period(ctx);
  msglog_test::arrive(p, ctx, msglog_test::message(0, 1, 0, 0));
  msglog_test::arrive(p, ctx, msglog_test::message(0, 1, 1, 1));
  ctx.controls.clear();
  ctx.clock = 6.2;
  p.checkpoints.on_timer(ctx);
  EXPECT_EQ(ctx.saves, std::vector<std::uint64_t>{1});
  EXPECT_EQ(p.checkpoints.saving(), 1u);
  EXPECT_EQ(std::any_cast<const msglog::State&>(ctx.saved.at(1).protocol).rsn, 2u);
  EXPECT_NEAR(ctx.timer(msglog::kCkptTimer), 16.180339887, 1e-9);
  p.checkpoints.on_saved(ctx, 1);
  ASSERT_EQ(ctx.control_names(), std::vector<std::string>{"CKPT_DONE"});
  EXPECT_EQ(ctx.controls[0].to, msglog_test::kLogger);
  EXPECT_EQ(sent_body(ctx, 0).get("number"), 1u);
  EXPECT_EQ(sent_body(ctx, 0).get("rsn"), 2u);
  p.control(ctx, msglog_test::kLogger, ctrl(Msg::CkptAck, 0, {{"number", 1}}));
  EXPECT_EQ(p.checkpoints.kept(), 1u);
  EXPECT_EQ(p.checkpoints.saving(), 0u);
  ASSERT_EQ(ctx.control_names(), (std::vector<std::string>{"CKPT_DONE", "LOG_GC"}));
  EXPECT_EQ(ctx.controls[1].to, 0);
  EXPECT_EQ(sent_body(ctx, 1).get("next"), 2u);
  EXPECT_EQ(fed.stats().get("msglog.checkpoints"), 1);
  // The next one replaces it; nothing more was delivered: no LOG_GC.
  p.checkpoints.on_timer(ctx);
  p.checkpoints.on_saved(ctx, 2);
  p.control(ctx, msglog_test::kLogger, ctrl(Msg::CkptAck, 0, {{"number", 2}}));
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{1});
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"CKPT_DONE", "LOG_GC", "CKPT_DONE"}));
}

TEST_F(MsglogCheckpoints, OneIsSkippedWhileThePreviousIsNotCommittedOrARecoveryRuns) {
  Parts p(fed.layout(), 1);
  auto& ctx = fed.node(1);
  p.checkpoints.read_period(ctx);
  p.checkpoints.on_timer(ctx);
  p.checkpoints.on_timer(ctx);
  EXPECT_EQ(ctx.saves, std::vector<std::uint64_t>{1});
  EXPECT_EQ(fed.stats().get("msglog.checkpoints_skipped"), 1);
  p.control(ctx, msglog_test::kLogger, ctrl(Msg::CkptAck, 0, {{"number", 1}}));
  p.recovery.orphaned(4);
  p.checkpoints.on_timer(ctx);
  EXPECT_EQ(ctx.saves, std::vector<std::uint64_t>{1});
  EXPECT_EQ(fed.stats().get("msglog.checkpoints_skipped"), 2);
}

TEST_F(MsglogCheckpoints, OptimisticKeepsTheCommittedOnesAndAnAbandonedOneIsDiscardedOnceWritten) {
  Parts p(fed.layout(), 1, msglog_test::options(msglog::Variant::Optimistic, 2));
  auto& ctx = fed.node(1);
  p.checkpoints.read_period(ctx);
  p.orphans.on_start(ctx);
  p.checkpoints.on_timer(ctx);
  p.checkpoints.on_saved(ctx, 1);
  p.control(ctx, msglog_test::kLogger, ctrl(Msg::CkptAck, 0, {{"number", 1}}));
  ASSERT_EQ(p.orphans.kept().size(), 2u); // the initial state and checkpoint 1
  EXPECT_EQ(p.orphans.kept()[1].number, 1u);
  EXPECT_TRUE(ctx.discards.empty());
  p.checkpoints.on_timer(ctx); // checkpoint 2, abandoned (an orphan rollback) while written
  p.checkpoints.abandon(ctx);
  EXPECT_EQ(p.checkpoints.saving(), 0u);
  EXPECT_TRUE(ctx.discards.empty());
  p.checkpoints.on_saved(ctx, 2);
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{2});
  EXPECT_EQ(ctx.control_names(), std::vector<std::string>{"CKPT_DONE"}); // 1's only
  // Its number is never reused.
  p.checkpoints.on_timer(ctx);
  EXPECT_EQ(ctx.saves, (std::vector<std::uint64_t>{1, 2, 3}));
}

} // namespace
} // namespace ckptsim
