/* Unit tests of msglog::SenderLog (protocols/msglog/sender_log.hpp): channel indices, the
 * sender-based log, the held sends of the pessimistic variant, LOG_GC and the answer to a
 * restarted peer, on fake nodes. Three processes (0-2), the event logger is endpoint 3. */
#include "tests/unit/test_msglog_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using msglog::Msg;
using msglog_test::ctrl;
using msglog_test::Parts;
using msglog_test::piggyback_of;
using msglog_test::sent_body;

class MsglogSenderLog : public ::testing::Test {
 protected:
  MsglogSenderLog()
      : fed(test_support::one_cluster(3), "msglog") {}
  /** The application of @p p on @p node sends message @p seq of @p size bytes to @p dst. */
  static void send(Parts& p, test_support::FakeNode& node, NodeId dst, std::uint64_t seq, double size = 100) {
    AppMessage m;
    m.src = node.self();
    m.dst = dst;
    m.seq = seq;
    m.size = size;
    p.log.on_app_send(node, m);
  }
  test_support::FakeFederation fed;
};

TEST_F(MsglogSenderLog, EverySendGetsItsChannelsNextIndexAndStaysInTheLog) {
  Parts p(fed.layout(), 0);
  auto& ctx = fed.node(0);
  send(p, ctx, 1, 0, 100);
  send(p, ctx, 1, 1, 50);
  send(p, ctx, 2, 2, 30);
  ASSERT_EQ(ctx.app_sent.size(), 3u);
  EXPECT_EQ(piggyback_of(ctx.app_sent[0].second).idx, 0u);
  EXPECT_EQ(piggyback_of(ctx.app_sent[1].second).idx, 1u);
  EXPECT_EQ(piggyback_of(ctx.app_sent[2].second).idx, 0u); // another channel
  EXPECT_EQ(p.exec.state().log.at(1).size(), 2u);
  EXPECT_EQ(p.exec.state().log.at(2).size(), 1u);
  EXPECT_EQ(p.log.entries(), 3);
  EXPECT_EQ(p.log.bytes(), 180);
  EXPECT_EQ(fed.stats().level_of("log.entries", 0), 3);
  EXPECT_EQ(fed.stats().get("msglog.sends"), 3);
}

TEST_F(MsglogSenderLog, PessimisticSendsWaitInOrderForTheDeterminantsTheyDependOn) {
  Parts p(fed.layout(), 1);
  auto& ctx = fed.node(1);
  msglog_test::arrive(p, ctx, msglog_test::message(0, 1, 0, 0)); // delivery 1: its DET goes out
  ctx.clock = 1;
  send(p, ctx, 2, 10);
  ctx.clock = 2;
  send(p, ctx, 0, 11);
  EXPECT_TRUE(ctx.app_sent.empty());
  EXPECT_EQ(p.exec.state().held.size(), 2u);
  EXPECT_EQ(fed.stats().get("msglog.held"), 2);
  ctx.clock = 5;
  p.control(ctx, msglog_test::kLogger, ctrl(Msg::DetAck, 0, {{"stable", 1}}));
  ASSERT_EQ(ctx.app_sent.size(), 2u);
  EXPECT_EQ(ctx.app_sent[0].first.seq, 10u);
  EXPECT_EQ(ctx.app_sent[1].first.seq, 11u);
  EXPECT_EQ(piggyback_of(ctx.app_sent[0].second).rsn, 1u);
  EXPECT_TRUE(p.exec.state().held.empty());
  EXPECT_EQ(fed.stats().get("msglog.hold_time"), 4 + 3);
  EXPECT_EQ(fed.stats().get("msglog.hold_max"), 4);
  // Stable now: the next send leaves at once.
  send(p, ctx, 2, 12);
  EXPECT_EQ(ctx.app_sent.size(), 3u);
}

TEST_F(MsglogSenderLog, LogGcDropsWhatTheReceiversCheckpointDelivered) {
  Parts p(fed.layout(), 0);
  auto& ctx = fed.node(0);
  for (std::uint64_t s = 0; s < 3; s++) send(p, ctx, 1, s, 100);
  auto gc = ctrl(Msg::LogGc, 0, {{"next", 2}}); // node 1 delivered indices 0 and 1
  p.control(ctx, 1, gc);
  ASSERT_EQ(p.exec.state().log.at(1).size(), 1u);
  EXPECT_EQ(p.exec.state().log.at(1)[0].idx, 2u);
  EXPECT_EQ(p.log.entries(), 1);
  EXPECT_EQ(p.log.bytes(), 100);
  EXPECT_EQ(fed.stats().get("msglog.log_gc_dropped"), 2);
}

TEST_F(MsglogSenderLog, ARestartedPeerGetsWhatItLacksAndWhatItMustSendAgain) {
  Parts p(fed.layout(), 0);
  auto& ctx = fed.node(0);
  for (std::uint64_t s = 0; s < 3; s++) send(p, ctx, 1, s);
  msglog_test::arrive(p, ctx, msglog_test::message(1, 0, 7, 0)); // node 0 delivered node 1's index 0
  // Node 1's incarnation 1 has delivered index 0 (its checkpoint): 1 and 2 go again.
  p.control(ctx, 1, ctrl(Msg::ResendReq, 1, {{"failure", 4}, {"next", 1}}));
  ASSERT_EQ(ctx.app_resent.size(), 2u);
  EXPECT_EQ(piggyback_of(ctx.app_resent[0].second).idx, 1u);
  EXPECT_EQ(piggyback_of(ctx.app_resent[1].second).idx, 2u);
  ASSERT_EQ(ctx.control_names(), (std::vector<std::string>{"DET", "CATCHUP"}));
  EXPECT_EQ(ctx.controls[1].to, 1);
  const auto& c = sent_body(ctx, 1);
  EXPECT_EQ(c.get("failure"), 4u);
  EXPECT_EQ(c.get("resent"), 2u);
  EXPECT_EQ(c.get("round"), 1u);
  EXPECT_EQ(c.get("next"), 1u); // what node 0 delivered from node 1: its re-execution sends it again
  EXPECT_EQ(ctx.reported, std::vector<FailureId>{4});
  EXPECT_EQ(fed.stats().get("msglog.resent"), 2);
}

} // namespace
} // namespace ckptsim
