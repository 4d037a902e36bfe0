/* Unit tests of msglog::Determinants (protocols/msglog/determinants.hpp): the determinants of a
 * process' deliveries on their way to the event logger, their stability and the causal copies,
 * on fake nodes. Three processes (0-2), the event logger is endpoint 3; a determinant is
 * (owner, src, idx, rsn). */
#include "tests/unit/test_msglog_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using msglog::Det;
using msglog::Msg;
using msglog_test::ctrl;
using msglog_test::Parts;
using msglog_test::sent_body;

class MsglogDeterminants : public ::testing::Test {
 protected:
  MsglogDeterminants()
      : fed(test_support::one_cluster(3), "msglog") {}
  test_support::FakeFederation fed;
};

TEST_F(MsglogDeterminants, OneDetIsOutstandingAtATimeTheOthersWaitAndGoTogether) {
  Parts p(fed.layout(), 1);
  auto& ctx = fed.node(1);
  for (std::uint64_t i = 0; i < 3; i++) msglog_test::arrive(p, ctx, msglog_test::message(0, 1, i, i));
  ASSERT_EQ(ctx.control_names(), std::vector<std::string>{"DET"});
  EXPECT_EQ(ctx.controls[0].to, msglog_test::kLogger);
  EXPECT_EQ(sent_body(ctx, 0).dets, (std::vector<Det>{{1, 0, 0, 1}}));
  EXPECT_FALSE(p.dets.idle());
  p.control(ctx, msglog_test::kLogger, ctrl(Msg::DetAck, 0, {{"stable", 1}}));
  EXPECT_EQ(p.dets.stable(), 1u);
  ASSERT_EQ(ctx.control_names(), (std::vector<std::string>{"DET", "DET"}));
  EXPECT_EQ(sent_body(ctx, 1).dets, (std::vector<Det>{{1, 0, 1, 2}, {1, 0, 2, 3}}));
  p.control(ctx, msglog_test::kLogger, ctrl(Msg::DetAck, 0, {{"stable", 3}}));
  EXPECT_EQ(p.dets.stable(), 3u);
  EXPECT_TRUE(p.dets.idle());
  EXPECT_EQ(fed.stats().get("msglog.det_messages"), 2);
  EXPECT_EQ(fed.stats().get("msglog.determinants"), 3);
  EXPECT_EQ(fed.stats().get("msglog.det_bytes"), (16 + 24) + (16 + 2 * 24));
}

TEST_F(MsglogDeterminants, AnAcknowledgementToAPreviousIncarnationIsIgnored) {
  Parts p(fed.layout(), 1);
  auto& ctx = fed.node(1);
  msglog_test::arrive(p, ctx, msglog_test::message(0, 1, 0, 0));
  p.control(ctx, msglog_test::kLogger, ctrl(Msg::DetAck, 5, {{"stable", 1}}));
  EXPECT_EQ(p.dets.stable(), 0u);
  EXPECT_FALSE(p.dets.idle()); // still outstanding
}

TEST_F(MsglogDeterminants, AReplayedDeliveryKnownStableIsNotLoggedAgain) {
  Parts p(fed.layout(), 1);
  auto& ctx = fed.node(1);
  const msglog::Piggyback pb;
  p.dets.restart_at(2);
  p.dets.on_delivered(ctx, Det{1, 0, 0, 1}, pb, /*replayed=*/true);
  p.dets.on_delivered(ctx, Det{1, 2, 0, 2}, pb, true);
  EXPECT_TRUE(ctx.controls.empty());
  p.dets.on_delivered(ctx, Det{1, 0, 1, 3}, pb, true); // a peer's copy only: the logger lacks it
  ASSERT_EQ(ctx.control_names(), std::vector<std::string>{"DET"});
  EXPECT_EQ(sent_body(ctx, 0).dets, (std::vector<Det>{{1, 0, 1, 3}}));
}

TEST_F(MsglogDeterminants, AnOrphanRollbackSendsTheDeterminantsAfterItsCheckpointAgain) {
  Parts p(fed.layout(), 1);
  auto& ctx = fed.node(1);
  msglog_test::arrive(p, ctx, msglog_test::message(0, 1, 0, 0)); // DET outstanding
  const std::map<std::uint64_t, Det> history{
      {1, {1, 0, 0, 1}}, {2, {1, 2, 0, 2}}, {3, {1, 0, 1, 3}}, {4, {1, 2, 1, 4}}};
  p.dets.rewind(2, history);
  EXPECT_EQ(p.dets.stable(), 2u);
  p.dets.flush(ctx); // not outstanding any more: goes at once
  ASSERT_EQ(ctx.control_names(), (std::vector<std::string>{"DET", "DET"}));
  EXPECT_EQ(sent_body(ctx, 1).dets, (std::vector<Det>{{1, 0, 1, 3}, {1, 2, 1, 4}}));
}

TEST_F(MsglogDeterminants, CausalPiggybacksTheUnstableOnesAndKeepsCopiesUntilStable) {
  Parts p(fed.layout(), 1, msglog_test::options(msglog::Variant::Causal));
  auto& ctx = fed.node(1);
  // From node 0, which delivered node 2's index 0 as its rsn 1, not stable yet.
  auto m = msglog_test::message(0, 1, 0, 0);
  m.second->causal = true;
  m.second->dets = {{0, 2, 0, 1}};
  msglog_test::arrive(p, ctx, m);
  EXPECT_EQ(p.dets.copies_of(0), (std::vector<Det>{{0, 2, 0, 1}}));
  EXPECT_EQ(fed.stats().level_of("msglog.det_copies", 1), 1);
  msglog::Piggyback to2, to0;
  p.dets.fill(to2, 2);
  p.dets.fill(to0, 0);
  EXPECT_EQ(to2.dets, (std::vector<Det>{{1, 0, 0, 1}, {0, 2, 0, 1}})); // its own, then the copies
  EXPECT_EQ(to0.dets, (std::vector<Det>{{1, 0, 0, 1}}));               // node 0 has its own
  EXPECT_EQ(to2.stable, 0u);
  // Node 0 says its determinants are stable up to 1: the copy goes.
  auto m2 = msglog_test::message(0, 1, 1, 1);
  m2.second->causal = true;
  m2.second->stable = 1;
  msglog_test::arrive(p, ctx, m2);
  EXPECT_TRUE(p.dets.copies_of(0).empty());
  EXPECT_EQ(fed.stats().level_of("msglog.det_copies", 1), 0);
  // Its own become stable: nothing left to piggyback.
  p.control(ctx, msglog_test::kLogger, ctrl(Msg::DetAck, 0, {{"stable", 2}}));
  msglog::Piggyback later;
  p.dets.fill(later, 2);
  EXPECT_TRUE(later.dets.empty());
  EXPECT_EQ(later.stable, 2u);
}

} // namespace
} // namespace ckptsim
