/* Unit tests of the record-keeping parts of a CCK process on a fake node: cck::Lives (the
 * failures known), cck::LocalCheckpoints (the local copies) and cck::Replay (what a partial
 * re-execution repeats, withholds or promises, and how it tells the engine). */
#include "tests/unit/test_cck_parts.hpp"

namespace ckptsim {
namespace {

using cck_test::CckPartsTest;

TEST(CckLives, AFailureVoidsTheVictimsOlderLivesOnly) {
  cck::Lives lives;
  EXPECT_EQ(lives.epoch(), 0u);
  EXPECT_FALSE(lives.stale(1, 0));
  lives.failure(3, {1});
  EXPECT_EQ(lives.epoch(), 3u);
  EXPECT_EQ(lives.life(), 0u);
  EXPECT_TRUE(lives.stale(1, 0));  // sent before failure 3
  EXPECT_TRUE(lives.stale(1, 2));  // a life ended by failure 3 too
  EXPECT_FALSE(lives.stale(1, 3)); // the incarnation restarted after it
  EXPECT_FALSE(lives.stale(2, 0)); // another process
  lives.restarted(5);
  EXPECT_EQ(lives.epoch(), 5u);
  EXPECT_EQ(lives.life(), 5u);
}

TEST_F(CckPartsTest, LocalCopiesKeepTheInitialStateAndTheWavesFromTheLastCommittedOne) {
  cck::LocalCheckpoints copies;
  auto& ctx = fed.node(0);
  copies.start(ctx);
  EXPECT_EQ(copies.numbers(), std::vector<std::uint64_t>{0});
  ctx.app->delivered = 1;
  copies.save(ctx, 1);
  ctx.app->delivered = 2;
  copies.save(ctx, 2);
  EXPECT_EQ(ctx.saves, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(copies.last_saved(), 2u);
  EXPECT_EQ(copies.at(1).delivered, 1u); // a copy, not the running state
  EXPECT_EQ(copies.at(2).delivered, 2u);
  copies.keep_from(ctx, 2); // wave 2 committed: wave 1 will never be restored
  EXPECT_EQ(copies.numbers(), (std::vector<std::uint64_t>{0, 2}));
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{1});
  copies.discard(ctx, 0); // never the initial state
  copies.discard(ctx, 7); // not kept: nothing to tell
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{1});
  copies.roll_back_to(0);
  EXPECT_EQ(copies.last_saved(), 0u);
  ctx.app->delivered = 9;
  copies.reloaded(ctx, 4, ctx.app);
  EXPECT_EQ(copies.numbers(), (std::vector<std::uint64_t>{0, 4}));
  EXPECT_EQ(copies.last_saved(), 4u);
  EXPECT_EQ(copies.at(4).delivered, 9u);
  EXPECT_EQ(copies.at(0).delivered, 0u); // the workload's initial state
}

TEST_F(CckPartsTest, ReplayRepeatsTheSendsAndReceivesOfTheTasksToReexecute) {
  cck::Replay replay;
  auto& ctx = fed.node(1);
  const auto& g = workload.graph();
  const cck::TaskId receive = g.communication(tag(1, 1)).receive;
  replay.repeat(g, {send_task(2, 0), receive});
  EXPECT_TRUE(replay.owes());
  auto [again, pb] = message(tag(2, 0));
  replay.send(ctx, again, pb);
  auto [first, pb3] = message(tag(3, 2));
  replay.send(ctx, first, pb3);
  ASSERT_EQ(ctx.app_resent.size(), 1u);
  EXPECT_EQ(ctx.app_resent[0].first.seq, tag(2, 0));
  ASSERT_EQ(ctx.app_sent.size(), 1u);
  EXPECT_EQ(ctx.app_sent[0].first.seq, tag(3, 2));
  EXPECT_FALSE(replay.owes());
  auto [in, pbin] = message(tag(1, 1));
  replay.deliver(ctx, in, pbin); // its receive is re-executed
  replay.deliver(ctx, in, pbin); // once only: then a first delivery
  ASSERT_EQ(ctx.redelivered.size(), 1u);
  EXPECT_EQ(ctx.redelivered[0].seq, tag(1, 1));
  EXPECT_EQ(ctx.delivered.size(), 1u);
}

TEST_F(CckPartsTest, ReplayPromisesWhatTheOthersReceivedAndWithholdsWhatCTotalDoesNotNeed) {
  cck::Replay replay;
  auto& ctx = fed.node(1);
  // P1 failed; P0 received its cell 2, P2 its cell 3. C_total needs cell 3 again, not cell 2.
  replay.promise(ctx, workload.graph(), {tag(2, 0), tag(3, 2)}, {tag(3, 2)});
  EXPECT_EQ(ctx.promises, (std::vector<std::pair<NodeId, std::uint64_t>>{{0, tag(2, 0)}, {2, tag(3, 2)}}));
  EXPECT_EQ(replay.withheld(), 1u);
  auto [kept, pb] = message(tag(2, 0));
  replay.send(ctx, kept, pb); // the receiver kept it: recorded, not sent
  ASSERT_EQ(ctx.recorded_sends.size(), 1u);
  EXPECT_EQ(ctx.recorded_sends[0].seq, tag(2, 0));
  EXPECT_TRUE(ctx.app_sent.empty());
  EXPECT_EQ(replay.withheld(), 0u);
  EXPECT_TRUE(replay.owes()); // cell 3 is still promised
  auto [needed, pb3] = message(tag(3, 2));
  replay.send(ctx, needed, pb3);
  ASSERT_EQ(ctx.app_sent.size(), 1u);
  EXPECT_EQ(ctx.app_sent[0].first.seq, tag(3, 2));
  EXPECT_FALSE(replay.owes());
}

} // namespace
} // namespace ckptsim
