/* Unit tests of cck::Mailbox (protocols/cck/mailbox.hpp) on a fake node: the piggyback of a send,
 * and a received message dropped (dead incarnation), held (sent after a save this process has not
 * made) or delivered, a duplicate kept visible. Process P1 of the stencil of test_cck_parts.hpp,
 * which receives cell 1 from P0 and cell 4 from P2. */
#include "tests/unit/test_cck_parts.hpp"

namespace ckptsim {
namespace {

using cck_test::CckPartsTest;

TEST_F(CckPartsTest, ASendCarriesTheLastWaveSavedAndTheSendersLife) {
  cck::Parts p(workload, cck_test::kCoordinator, false);
  auto& ctx = fed.node(1);
  p.checkpoints.start(ctx);
  p.checkpoints.save(ctx, 2);
  p.lives.restarted(4);
  p.mailbox.send(ctx, message(tag(2, 0)).first);
  ASSERT_EQ(ctx.app_sent.size(), 1u);
  const auto& pb = static_cast<const cck::Piggyback&>(*ctx.app_sent[0].second);
  EXPECT_EQ(pb.wave, 2u);
  EXPECT_EQ(pb.life, 4u);
}

TEST_F(CckPartsTest, AMessageOfADeadIncarnationIsDropped) {
  cck::Parts p(workload, cck_test::kCoordinator, false);
  auto& ctx = fed.node(1);
  p.checkpoints.start(ctx);
  p.lives.failure(2, {0}); // P0 died in failure 2
  auto [old, old_pb] = message(tag(1, 1), 0, 0);
  p.mailbox.receive(ctx, old, old_pb);
  EXPECT_TRUE(ctx.delivered.empty());
  EXPECT_EQ(fed.stats().get("cck.stale_dropped"), 1);
  auto [fresh, fresh_pb] = message(tag(1, 1), 0, 2); // from its incarnation restarted after it
  p.mailbox.receive(ctx, fresh, fresh_pb);
  ASSERT_EQ(ctx.delivered.size(), 1u);
  EXPECT_TRUE(workload.received(ctx.app_state(), tag(1, 1)));
}

TEST_F(CckPartsTest, AMessageSentAfterASaveThisProcessHasNotMadeWaitsForItsSave) {
  cck::Parts p(workload, cck_test::kCoordinator, false);
  auto& ctx = fed.node(1);
  p.checkpoints.start(ctx);
  auto [m, pb] = message(tag(1, 1), 1); // P0 saved wave 1, P1 has saved nothing
  p.mailbox.receive(ctx, m, pb);
  EXPECT_TRUE(ctx.delivered.empty());
  EXPECT_EQ(p.mailbox.held(), 1u);
  EXPECT_EQ(fed.stats().get("cck.held"), 1);
  p.mailbox.deliver_held(ctx); // no save yet: held again
  EXPECT_EQ(p.mailbox.held(), 1u);
  p.checkpoints.save(ctx, 1);
  EXPECT_FALSE(workload.received(*ctx.saved.at(1).app, tag(1, 1))); // not in the checkpoint
  p.mailbox.deliver_held(ctx);
  EXPECT_TRUE(p.mailbox.empty());
  ASSERT_EQ(ctx.delivered.size(), 1u);
  EXPECT_EQ(ctx.delivered[0].first.seq, tag(1, 1));
  EXPECT_EQ(fed.stats().get("cck.held"), 2); // held twice, delivered once
}

TEST_F(CckPartsTest, DuringARestartNothingIsHeld) {
  cck::Parts p(workload, cck_test::kCoordinator, false);
  auto& ctx = fed.node(1);
  p.checkpoints.start(ctx);
  ctx.step_under_way = true; // the restart waits for the application's step: it stays active
  p.restart.on_failure_detected(ctx, cck_test::notice(1, 2));
  ASSERT_TRUE(p.restart.active());
  auto [m, pb] = message(tag(1, 1), 1); // from the aborted wave 1: the flush needs it received
  p.mailbox.receive(ctx, m, pb);
  EXPECT_TRUE(p.mailbox.empty());
  EXPECT_EQ(ctx.delivered.size(), 1u);
}

TEST_F(CckPartsTest, ADuplicateIsCountedAndTracedNotDelivered) {
  cck::Parts p(workload, cck_test::kCoordinator, false);
  auto& ctx = fed.node(1);
  p.checkpoints.start(ctx);
  auto [m, pb] = message(tag(4, 1));
  p.mailbox.receive(ctx, m, pb);
  p.mailbox.receive(ctx, m, pb);
  EXPECT_EQ(ctx.delivered.size(), 1u);
  EXPECT_EQ(fed.stats().get("cck.duplicates"), 1);
  EXPECT_EQ(ctx.events, std::vector<std::string>{"cck_duplicate"});
}

} // namespace
} // namespace ckptsim
