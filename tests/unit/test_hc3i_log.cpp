/* Unit tests of hc3i::InterClusterLog (protocols/hc3i/log.hpp): the optimistic log of the
 * inter-cluster messages a node sent, on a fake node. Two clusters of two nodes: c0 = {0, 1},
 * c1 = {2, 3}; the logging node is node 1 (c0). */
#include "tests/unit/test_hc3i_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using hc3i::LogEntry;
using hc3i_test::Parts;

class Hc3iLog : public ::testing::Test {
 protected:
  Hc3iLog()
      : fed(hc3i_test::federation(2, 2), "hc3i")
      , p(fed.layout(), 1)
      , ctx(fed.node(1)) {}
  /** Logs message @p seq to node 2 (c1), sent in interval @p sn of epoch @p epoch. */
  void log(std::uint64_t seq, hc3i::Sn sn, std::uint64_t epoch = 0, double size = 100) {
    AppMessage m;
    m.src = 1;
    m.dst = 2;
    m.seq = seq;
    m.size = size;
    p.log.record(ctx, LogEntry{m, sn, epoch, 1, std::nullopt, {}, 0, epoch, seq});
  }
  /** LOG_ACK of message @p seq: delivered in c1's interval @p sn of its epoch @p epoch. */
  void ack(std::uint64_t seq, hc3i::Sn sn, std::uint64_t epoch = 0, std::uint64_t sender_epoch = 0) {
    p.log.on_ack(ctx, hc3i_test::body_of({{"seq", seq}, {"sn", sn}, {"epoch", epoch}, {"sender_epoch", sender_epoch}}));
  }
  std::vector<std::uint64_t> resent() const { return hc3i_test::seqs_of(ctx.app_resent); }
  test_support::FakeFederation fed;
  Parts p;
  test_support::FakeNode& ctx;
};

TEST_F(Hc3iLog, EveryEntryIsCountedPerClusterAndPerNode) {
  log(0, 1);
  log(1, 1);
  EXPECT_EQ(fed.stats().cluster_values("hc3i.logged"), (std::vector<double>{2, 0}));
  EXPECT_EQ(fed.stats().cluster_values("hc3i.logged_node_max"), (std::vector<double>{2, 0}));
  EXPECT_EQ(fed.stats().level_of("log.entries", 1), 2);
  p.log.clear(ctx);
  EXPECT_EQ(fed.stats().cluster_values("hc3i.logged"), (std::vector<double>{0, 0}));
  EXPECT_EQ(fed.stats().cluster_values("hc3i.logged_max"), (std::vector<double>{2, 0}));
}

TEST_F(Hc3iLog, AnAcknowledgementNamesTheCopySentInItsEpoch) {
  log(0, 1);
  ack(0, 4, 0, /*sender_epoch=*/1); // for a copy sent in another epoch: not this one
  EXPECT_FALSE(p.log.entries()[0].ack);
  ack(0, 4);
  ASSERT_TRUE(p.log.entries()[0].ack);
  EXPECT_EQ(*p.log.entries()[0].ack, 4u);
  // From an execution of c1 this node knows was rolled back (c1 is in epoch 1 now): ignored.
  p.deps.learn_rollback(1, 1, 2);
  ack(0, 6, 0);
  EXPECT_EQ(*p.log.entries()[0].ack, 4u);
  ack(0, 3, 1);
  EXPECT_EQ(*p.log.entries()[0].ack, 3u);
  EXPECT_EQ(p.log.entries()[0].ack_epoch, 1u);
}

TEST_F(Hc3iLog, AnAlertReSendsTheMessagesAcknowledgedWithAnSnAtLeastItsOrNot) {
  log(0, 1);
  log(1, 1);
  log(2, 2);
  ack(0, 2); // delivered before c1's CLC 3: survives c1's rollback to 3
  ack(1, 3); // delivered in c1's interval 3: undone
  // Message 2 is not acknowledged: maybe never delivered.
  p.deps.learn_rollback(1, 1, 3);
  p.log.replay(ctx, 1, 3);
  EXPECT_EQ(resent(), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(fed.stats().cluster_values("hc3i.replays"), (std::vector<double>{2, 0}));
  const auto& pb = static_cast<const hc3i::Piggyback&>(*ctx.app_resent[0].second);
  EXPECT_TRUE(pb.inter);
  EXPECT_EQ(pb.sn, 1u);
  EXPECT_EQ(pb.epoch, 0u);
  EXPECT_EQ(pb.view, 1u); // c1's epoch after the rollback: delivered after it
  EXPECT_EQ(pb.idx, 1u);
  EXPECT_FALSE(p.log.entries()[1].ack); // the receiver acknowledges the new delivery
  EXPECT_EQ(*p.log.entries()[0].ack, 2u);
  // A restarted node re-sends them all under its cluster's new epoch.
  p.log.resend_all(ctx, 2);
  EXPECT_EQ(resent(), (std::vector<std::uint64_t>{1, 2, 0, 1, 2}));
  EXPECT_EQ(static_cast<const hc3i::Piggyback&>(*ctx.app_resent[2].second).epoch, 2u);
  EXPECT_EQ(p.log.entries()[0].sent_epoch, 2u);
}

TEST_F(Hc3iLog, ACheckpointSharesTheLogCopyWhileTheLogIsUnchanged) {
  log(0, 1);
  const auto first = p.log.saved_copy();
  EXPECT_EQ(p.log.saved_copy(), first);
  ack(0, 1);
  const auto second = p.log.saved_copy();
  EXPECT_NE(second, first);
  EXPECT_EQ(second->size(), 1u);
  EXPECT_TRUE((*second)[0].ack);
  EXPECT_FALSE((*first)[0].ack);
}

TEST_F(Hc3iLog, ARollbackDropsTheUndoneSendsAndARestartTakesTheCheckpointsCopy) {
  log(0, 1);
  log(1, 2);
  ack(0, 5);
  hc3i::SavedState st;
  st.log = p.log.saved_copy();
  log(2, 2);
  log(3, 3);
  // Back to CLC 2: the messages sent in intervals 2 and 3 are undone.
  p.log.restore(ctx, st, 2, /*lost=*/false);
  ASSERT_EQ(p.log.entries().size(), 1u);
  EXPECT_EQ(p.log.entries()[0].msg.seq, 0u);
  EXPECT_EQ(fed.stats().cluster_values("hc3i.logged"), (std::vector<double>{1, 0}));
  // A restarted node: the CLC's copy, its acknowledgements forgotten (they may be stale).
  Parts restarted(fed.layout(), 1);
  restarted.log.restore(ctx, st, 2, /*lost=*/true);
  ASSERT_EQ(restarted.log.entries().size(), 2u);
  EXPECT_FALSE(restarted.log.entries()[0].ack);
  EXPECT_EQ(fed.stats().level_of("log.entries", 1), 2);
}

TEST_F(Hc3iLog, TheCollectorDropsWhatWasAcknowledgedBelowTheWorstSnInItsEpoch) {
  log(0, 1);
  log(1, 1);
  log(2, 1);
  log(3, 1);
  ack(0, 2);
  ack(1, 4);
  ack(2, 2, 1); // in c1's epoch 1
  // c1's worst SN 3 in its epoch 0: message 0 goes; 1 (SN 4), 2 (another epoch) and 3 (not
  // acknowledged) stay.
  p.log.collect(ctx, hc3i::Ddv{1, 3}, {0, 0});
  std::vector<std::uint64_t> left;
  for (const auto& e : p.log.entries()) left.push_back(e.msg.seq);
  EXPECT_EQ(left, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(fed.stats().cluster_values("hc3i.logged"), (std::vector<double>{3, 0}));
}

} // namespace
} // namespace ckptsim
