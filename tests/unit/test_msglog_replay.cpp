/* Unit tests of msglog::Replay (protocols/msglog/replay.hpp) and msglog::CatchUp
 * (protocols/msglog/catchup.hpp): the order a recovering process delivers again in, and what its
 * peers expect its re-execution to send again. Process 1 of three; a determinant is
 * (owner, src, idx, rsn). */
#include "tests/unit/test_msglog_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using msglog::Det;
using msglog_test::Parts;

class MsglogReplay : public msglog_test::NodeOneOfThree {};

TEST_F(MsglogReplay, TheReplayIsTheRunOfConsecutiveDeliveriesAfterTheCheckpoint) {
  p.exec.state().rsn = 1; // the checkpoint contains delivery 1
  p.replay.set_logger_dets({Det{1, 0, 0, 1}, Det{1, 2, 0, 2}, Det{1, 0, 1, 3}, Det{1, 2, 1, 5}});
  p.replay.begin(ctx, 4, 1);
  EXPECT_TRUE(p.replay.started());
  ASSERT_EQ(p.replay.size(), 2u); // 2 and 3; 5 does not follow 3
  EXPECT_EQ(p.replay.next(), (Det{1, 2, 0, 2}));
  EXPECT_EQ(fed.stats().get("msglog.replay_from_peers"), 0);
  p.replay.pop(ctx);
  EXPECT_EQ(p.replay.next(), (Det{1, 0, 1, 3}));
  EXPECT_EQ(p.replay.replayed(), 1u);
}

TEST_F(MsglogReplay, CausalPeersCopiesFillWhatTheLoggerLacks) {
  p.replay.set_logger_dets({Det{1, 0, 0, 1}});
  p.replay.add_peer_dets({Det{1, 2, 0, 2}, Det{0, 1, 0, 3}}); // its own rsn 2; another process'
  p.replay.add_peer_dets({Det{1, 0, 0, 1}});                  // a copy the logger has too
  p.replay.begin(ctx, 4, 0);
  ASSERT_EQ(p.replay.size(), 2u);
  EXPECT_EQ(fed.stats().get("msglog.replay_from_peers"), 1);
  EXPECT_EQ(ctx.events, std::vector<std::string>{"replay_begin"});
}

TEST_F(MsglogReplay, AnEmptyReplayEndsAtOnce) {
  p.replay.begin(ctx, 4, 0);
  EXPECT_TRUE(p.replay.done());
  EXPECT_EQ(ctx.events, (std::vector<std::string>{"replay_begin", "replay_end"}));
}

TEST_F(MsglogReplay, AnOrphanRollbackShortensOrReplacesTheReplay) {
  p.replay.set_logger_dets({Det{1, 0, 0, 1}, Det{1, 2, 0, 2}, Det{1, 0, 1, 3}});
  p.replay.begin(ctx, 4, 0);
  p.replay.pop(ctx);
  p.replay.truncate(2);
  EXPECT_EQ(p.replay.size(), 1u);
  p.replay.restart_with({Det{1, 0, 0, 1}});
  p.replay.resume();
  EXPECT_EQ(p.replay.replayed(), 0u);
  EXPECT_EQ(p.replay.next(), (Det{1, 0, 0, 1}));
  p.replay.reset();
  EXPECT_FALSE(p.replay.started());
}

TEST_F(MsglogReplay, CatchUpIsCompleteWithEveryPeerAndCoveredByTheSends) {
  EXPECT_FALSE(p.catchup.complete());
  p.catchup.record(0, IndexSet(2, {}), 3); // node 0 delivered indices 0, 1 from node 1
  EXPECT_FALSE(p.catchup.complete());
  p.catchup.record(2, IndexSet(0, {}), 1);
  EXPECT_TRUE(p.catchup.complete());
  EXPECT_EQ(p.catchup.resent(), 4u);
  std::map<NodeId, IndexSet> sent{{0, IndexSet(1, {})}};
  EXPECT_FALSE(p.catchup.covered_by(sent)); // index 1 to node 0 is not sent again yet
  sent[0].insert(1);
  EXPECT_TRUE(p.catchup.covered_by(sent));
  // Node 0 rolls back and keeps only index 0: the expectation drops, now and for its answer.
  p.catchup.cap(0, IndexSet(1, {}));
  EXPECT_EQ(p.catchup.delivered(0)->next(), 1u);
  p.catchup.record(0, IndexSet(2, {}), 0);
  EXPECT_EQ(p.catchup.delivered(0)->next(), 1u);
  p.catchup.reset();
  EXPECT_EQ(p.catchup.delivered(0), nullptr);
  EXPECT_EQ(p.catchup.resent(), 0u);
}

} // namespace
} // namespace ckptsim
