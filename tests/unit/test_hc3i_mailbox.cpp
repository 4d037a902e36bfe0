/* Unit tests of hc3i::Mailbox (protocols/hc3i/mailbox.hpp): piggybacks, the delivery rules of
 * HC3I's application messages and the inter-cluster inbox, on a fake node. Two clusters of three
 * nodes: c0 = {0, 1, 2}, c1 = {3, 4, 5}; the receiving node is node 4 (c1, led by node 3). */
#include "tests/unit/test_hc3i_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using hc3i::Ddv;
using hc3i_test::message;
using hc3i_test::Parts;
using hc3i_test::sent_hc3i_body;

class Hc3iMailbox : public ::testing::Test {
 protected:
  Hc3iMailbox()
      : fed(hc3i_test::federation(2, 3), "hc3i")
      , p(fed.layout(), 4)
      , ctx(fed.node(4)) {
    hc3i_test::commit_clc(p, 1, {0, 1}); // after c1's initial CLC
  }
  /** Message @p seq from node 0 (c0), with c0's SN @p sn, epoch @p epoch, view of c1's epoch
   *  @p view and channel index @p idx, arrives. */
  void receive(std::uint64_t seq, hc3i::Sn sn, std::uint64_t epoch = 0, std::uint64_t view = 0, std::uint64_t idx = 0) {
    auto [m, pb] = message(0, 4, seq, true, sn, epoch, view, idx);
    p.mailbox.on_app_receive(ctx, m, pb);
  }
  std::vector<std::uint64_t> delivered() const { return hc3i_test::seqs_of(ctx.delivered); }
  test_support::FakeFederation fed;
  Parts p;
  test_support::FakeNode& ctx;
};

TEST_F(Hc3iMailbox, AnInterClusterSendCarriesTheSnAndIsLogged) {
  AppMessage m;
  m.src = 4;
  m.dst = 5;
  p.mailbox.on_app_send(ctx, m); // intra-cluster: the epoch only, counted, not logged
  m.dst = 0;
  p.mailbox.on_app_send(ctx, m);
  m.seq = 1;
  p.mailbox.on_app_send(ctx, m);
  ASSERT_EQ(ctx.app_sent.size(), 3u);
  const auto& intra = static_cast<const hc3i::Piggyback&>(*ctx.app_sent[0].second);
  EXPECT_FALSE(intra.inter);
  EXPECT_EQ(intra.bytes(), 8);
  const auto& second = static_cast<const hc3i::Piggyback&>(*ctx.app_sent[2].second);
  EXPECT_TRUE(second.inter);
  EXPECT_EQ(second.sn, 1u);
  EXPECT_EQ(second.idx, 1u); // its index on the channel to node 0
  EXPECT_TRUE(second.ddv.empty());
  EXPECT_EQ(p.mailbox.counts().sent.at(5), 1u);
  EXPECT_EQ(p.mailbox.counts().inter_sent.at(0), 2u);
  ASSERT_EQ(p.log.entries().size(), 2u);
  EXPECT_EQ(p.log.entries()[1].sn, 1u);
  EXPECT_EQ(p.log.entries()[1].dst_cluster, 0);
  // The transitive variant piggybacks the whole DDV.
  Parts transitive(fed.layout(), 4, hc3i::Options{true});
  hc3i_test::commit_clc(transitive, 1, {0, 1});
  transitive.mailbox.on_app_send(ctx, m);
  EXPECT_EQ(static_cast<const hc3i::Piggyback&>(*ctx.app_sent[3].second).ddv, (Ddv{0, 1}));
}

TEST_F(Hc3iMailbox, AMessageWhoseSnExceedsTheDdvEntryWaitsForAForcedClc) {
  receive(10, 1);
  receive(11, 1, 0, 0, 1);
  EXPECT_TRUE(ctx.delivered.empty());
  // One request to the leader for c0's SN 1, however many messages need it.
  ASSERT_EQ(ctx.control_names(), std::vector<std::string>{"CLC_FORCE"});
  EXPECT_EQ(ctx.controls[0].to, 3);
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("cluster"), 0u);
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("sn"), 1u);
  EXPECT_EQ(ctx.events, std::vector<std::string>{"clc_forced"});
  EXPECT_FALSE(p.mailbox.empty());
  EXPECT_EQ(p.mailbox.pending(), fed.layout().host_name(4) + ": 2 inter-cluster message(s) held");
  // The forced CLC 2 commits with DDV_c1[c0] = 1: both are delivered, acknowledged with SN 2.
  hc3i_test::commit_clc(p, 2, {1, 2});
  p.mailbox.forget_force_requests();
  p.mailbox.process_inbox(ctx);
  EXPECT_EQ(delivered(), (std::vector<std::uint64_t>{10, 11}));
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"CLC_FORCE", "LOG_ACK", "LOG_ACK"}));
  EXPECT_EQ(ctx.controls[1].to, 0);
  EXPECT_EQ(sent_hc3i_body(ctx, 1).get("sn"), 2u);
  EXPECT_EQ(sent_hc3i_body(ctx, 1).get("seq"), 10u);
  EXPECT_TRUE(p.mailbox.empty());
}

TEST_F(Hc3iMailbox, AtTheLeaderTheForcedClcStartsAtOnce) {
  Parts leader(fed.layout(), 3);
  auto& lctx = fed.node(3);
  hc3i_test::commit_clc(leader, 1, {0, 1});
  auto [m, pb] = message(0, 3, 5, true, 1);
  leader.mailbox.on_app_receive(lctx, m, pb);
  EXPECT_TRUE(leader.leader.active());
  EXPECT_EQ(lctx.control_names(), (std::vector<std::string>{"CLC_REQ", "CLC_REQ"}));
  EXPECT_EQ(sent_hc3i_body(lctx, 0).ddv, (Ddv{1, 2}));
}

TEST_F(Hc3iMailbox, ReSentDuplicatesAreAcknowledgedAgainAndDropped) {
  hc3i_test::commit_clc(p, 2, {1, 2});
  receive(10, 1, 0, 0, 0);
  receive(10, 1, 0, 0, 0); // the same channel index, re-sent (its sender lost the acknowledgement)
  EXPECT_EQ(delivered(), std::vector<std::uint64_t>{10});
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"LOG_ACK", "LOG_ACK"}));
  EXPECT_EQ(sent_hc3i_body(ctx, 1).get("seq"), 10u);
  EXPECT_EQ(sent_hc3i_body(ctx, 1).get("sn"), 2u);
  EXPECT_EQ(fed.stats().get("hc3i.duplicates_dropped"), 1);
}

TEST_F(Hc3iMailbox, MessagesOfAnUndoneExecutionAreDroppedAndLaterOnesWait) {
  hc3i_test::commit_clc(p, 2, {1, 2});
  p.deps.learn_rollback(0, 1, 1); // c0 rolled back to SN 1: its epoch-0 messages of SN >= 1 are undone
  receive(10, 1);
  EXPECT_EQ(fed.stats().get("hc3i.orphans_dropped"), 1);
  EXPECT_EQ(ctx.events, std::vector<std::string>{"orphan_dropped"});
  // From c0's epoch 2, whose alert has not come yet: waits, and what follows it too.
  receive(11, 1, 2, 0, 1);
  receive(12, 1, 2, 0, 2);
  EXPECT_TRUE(ctx.delivered.empty());
  p.deps.learn_rollback(0, 2, 1);
  p.mailbox.process_inbox(ctx);
  EXPECT_EQ(delivered(), (std::vector<std::uint64_t>{11, 12}));
  // Sent to an execution of c1 its rollback undid (view 0, c1 in epoch 1 now): dropped unacknowledged.
  p.deps.set_epoch(1);
  receive(13, 1, 2, 0, 3);
  EXPECT_EQ(fed.stats().get("hc3i.superseded_dropped"), 1);
  EXPECT_EQ(ctx.delivered.size(), 2u);
}

TEST_F(Hc3iMailbox, IntraClusterMessagesOfAnotherEpochAreDroppedOrHeld) {
  p.deps.set_epoch(1);
  auto [old_m, old_pb] = message(5, 4, 1, false, 0, 0);
  p.mailbox.on_app_receive(ctx, old_m, old_pb);
  EXPECT_EQ(fed.stats().get("hc3i.stale_dropped"), 1);
  auto [new_m, new_pb] = message(5, 4, 2, false, 0, 2);
  p.mailbox.on_app_receive(ctx, new_m, new_pb); // a rollback to epoch 2 not applied here yet
  EXPECT_TRUE(ctx.delivered.empty());
  EXPECT_FALSE(p.mailbox.empty());
  p.deps.set_epoch(2);
  p.mailbox.process_early_intra(ctx);
  EXPECT_EQ(delivered(), std::vector<std::uint64_t>{2});
  EXPECT_EQ(p.mailbox.counts().received.at(5), 1u);
  EXPECT_TRUE(p.mailbox.empty());
}

TEST_F(Hc3iMailbox, AFailureDropsTheInboxAndForgetsTheRequests) {
  receive(10, 1);
  p.mailbox.drop_inbox(1); // a rollback to epoch 1
  EXPECT_TRUE(p.mailbox.empty());
  receive(11, 1, 0, 0, 1); // asks again: the request was forgotten
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"CLC_FORCE", "CLC_FORCE"}));
}

TEST_F(Hc3iMailbox, ARollbackKeepsTheMessagesSentOnceTheSenderKnewOfIt) {
  // c1 (epoch 0) holds two messages from c0: one sent before c0 heard of c1's rollback to epoch
  // 1 (view 0), one after (view 1: a re-send answering c1's alert, or a later send) that arrived
  // before this node's rollback order (a delayed order). The rollback drops the first (its
  // sender re-sends it on the alert) and keeps the second, delivered once the rollback is applied.
  receive(20, 0, 0, 0, 1); // c0's SN 0 <= the DDV entry: deliverable, unless it waits
  receive(21, 0, 0, 1, 2);
  EXPECT_EQ(delivered(), std::vector<std::uint64_t>{20});
  EXPECT_FALSE(p.mailbox.empty()); // 21 waits: view 1 > c1's epoch 0
  p.deps.set_epoch(1);
  p.mailbox.drop_inbox(1);
  EXPECT_FALSE(p.mailbox.empty());
  p.mailbox.process_inbox(ctx);
  EXPECT_EQ(delivered(), (std::vector<std::uint64_t>{20, 21}));
  EXPECT_TRUE(p.mailbox.empty());
}

} // namespace
} // namespace ckptsim
