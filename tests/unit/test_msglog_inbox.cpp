/* Unit tests of msglog::Inbox (protocols/msglog/inbox.hpp): the application messages a process
 * receives, filed per channel, dropped when duplicate or stale, delivered in their turn or in the
 * replay's order, on fake nodes. Three processes (0-2); the receiver is node 1. */
#include "tests/unit/test_msglog_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using msglog::Det;
using msglog_test::arrive;
using msglog_test::deliveries;
using msglog_test::message;
using msglog_test::Parts;
using Delivered = std::vector<std::pair<NodeId, std::uint64_t>>;

class MsglogInbox : public msglog_test::NodeOneOfThree {};

TEST_F(MsglogInbox, EachChannelIsDeliveredInOrder) {
  arrive(p, ctx, message(0, 1, 11, 1)); // index 1 of node 0's channel: waits for index 0
  EXPECT_TRUE(ctx.delivered.empty());
  EXPECT_FALSE(p.inbox.empty());
  arrive(p, ctx, message(2, 1, 20, 0));
  arrive(p, ctx, message(0, 1, 10, 0));
  EXPECT_EQ(deliveries(ctx), (Delivered{{2, 20}, {0, 10}, {0, 11}}));
  EXPECT_TRUE(p.inbox.empty());
  EXPECT_EQ(p.exec.state().rsn, 3u);
  EXPECT_EQ(p.exec.state().delivered.at(0).next(), 2u);
}

TEST_F(MsglogInbox, DuplicatesAndMessagesOfAFailedIncarnationAreDropped) {
  arrive(p, ctx, message(0, 1, 10, 0));
  arrive(p, ctx, message(0, 1, 10, 0)); // a re-sent copy
  EXPECT_EQ(fed.stats().get("msglog.duplicates"), 1);
  arrive(p, ctx, message(0, 1, 12, 2, /*epoch=*/0)); // waits for index 1
  // Node 0's incarnation 1 sends index 1: what incarnation 0 sent and waits is dropped (the
  // re-execution sends it again), and what it sends later is stale.
  arrive(p, ctx, message(0, 1, 11, 1, /*epoch=*/1));
  EXPECT_TRUE(p.inbox.empty());
  arrive(p, ctx, message(0, 1, 12, 2, /*epoch=*/0));
  EXPECT_EQ(fed.stats().get("msglog.stale"), 1);
  EXPECT_EQ(deliveries(ctx), (Delivered{{0, 10}, {0, 11}}));
}

TEST_F(MsglogInbox, ARestartedPeersOldMessagesAreDroppedOnItsResendRequest) {
  arrive(p, ctx, message(0, 1, 11, 1, /*epoch=*/0)); // waits for index 0
  p.inbox.peer_restarted(0, 1);
  EXPECT_TRUE(p.inbox.empty());
  arrive(p, ctx, message(0, 1, 11, 1, /*epoch=*/0));
  EXPECT_EQ(fed.stats().get("msglog.stale"), 1);
}

TEST_F(MsglogInbox, WhileAReplayRunsTheLoggedOrderComesFirst) {
  // A recovery (failure 9) whose replay is: node 2's index 0, then node 0's index 0.
  p.recovery.orphaned(9);
  arrive(p, ctx, message(0, 1, 10, 0));
  EXPECT_TRUE(ctx.delivered.empty()); // the replay order is not known yet
  p.replay.set_logger_dets({Det{1, 2, 0, 1}, Det{1, 0, 0, 2}});
  p.replay.begin(ctx, 9, 0);
  p.inbox.try_deliver(ctx);
  EXPECT_TRUE(ctx.delivered.empty()); // node 0's message waits for node 2's
  arrive(p, ctx, message(2, 1, 20, 0));
  EXPECT_EQ(deliveries(ctx), (Delivered{{2, 20}, {0, 10}}));
  EXPECT_EQ(p.replay.replayed(), 2u);
  EXPECT_EQ(fed.stats().get("msglog.replayed"), 2);
  EXPECT_EQ(ctx.events, (std::vector<std::string>{"replay_begin", "replay_deliver", "replay_deliver", "replay_end"}));
  EXPECT_TRUE(ctx.reported.empty()); // no peer has caught up yet
}

TEST_F(MsglogInbox, ADeterminantNamingADeliveredMessageIsAnError) {
  arrive(p, ctx, message(0, 1, 10, 0));
  p.recovery.orphaned(9);
  p.replay.set_logger_dets({Det{1, 0, 0, 2}}); // index 0 of node 0 is delivered already
  p.replay.begin(ctx, 9, 0);
  EXPECT_THROW(p.inbox.try_deliver(ctx), std::logic_error);
}

} // namespace
} // namespace ckptsim
