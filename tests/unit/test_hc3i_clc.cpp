/* Unit tests of the two sides of an HC3I cluster-level checkpoint, hc3i::ClcLeader and
 * hc3i::ClcParticipant (protocols/hc3i/leader.hpp, participant.hpp), on fake nodes. Two clusters
 * of three nodes: c0 = {0, 1, 2} led by node 0, c1 = {3, 4, 5}. The test plays the other nodes
 * of the CLC by calling the part with the messages they would send. */
#include "tests/unit/test_hc3i_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using hc3i::Ddv;
using hc3i_test::body_of;
using hc3i_test::Parts;
using hc3i_test::sent_hc3i_body;

class Hc3iClc : public ::testing::Test {
 protected:
  Hc3iClc()
      : fed(hc3i_test::federation(2, 3), "hc3i") {}
  /** READY from @p from for CLC @p number, saying it sent @p sent to each peer. */
  static hc3i::Body ready(hc3i::Sn number, std::map<NodeId, std::uint64_t> sent = {}) {
    hc3i::Body b = body_of({{"number", number}});
    for (const auto& [peer, n] : sent) b.counts[peer] = n;
    return b;
  }
  test_support::FakeFederation fed;
};

TEST_F(Hc3iClc, TheLeaderRunsTheInitialClcInThreeRoundsAndCommitsIt) {
  Parts p(fed.layout(), 0);
  auto& ctx = fed.node(0);
  ctx.periods["checkpoint_period"] = 100;
  p.leader.maybe_start(ctx); // SN 0: the initial CLC
  ASSERT_TRUE(p.leader.active());
  EXPECT_TRUE(p.participant.active()); // the leader takes part: its READY is a local call
  EXPECT_TRUE(ctx.paused);
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"CLC_REQ", "CLC_REQ"}));
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("number"), 1u);
  EXPECT_EQ(sent_hc3i_body(ctx, 0).ddv, (Ddv{1, 0}));
  EXPECT_EQ(ctx.events, std::vector<std::string>{"ckpt_begin"});
  p.leader.on_ready(ctx, 1, ready(1, {{2, 3}})); // node 1 sent 3 messages to node 2
  EXPECT_EQ(ctx.controls.size(), 2u);            // 2 of 3 READY
  p.leader.on_ready(ctx, 2, ready(1, {{0, 1}}));
  // CLC_SAVE to each node, the leader's own a local call: it expects 1 message from node 2.
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"CLC_REQ", "CLC_REQ", "CLC_SAVE", "CLC_SAVE"}));
  EXPECT_TRUE(sent_hc3i_body(ctx, 2).counts.empty()); // node 1: nothing
  EXPECT_EQ(sent_hc3i_body(ctx, 3).counts.at(1), 3u); // node 2: 3 from node 1
  EXPECT_TRUE(ctx.saves.empty());                     // not before node 2's message
  auto [m, pb] = hc3i_test::message(2, 0, 7);
  p.mailbox.on_app_receive(ctx, m, pb);
  EXPECT_EQ(ctx.saves, std::vector<std::uint64_t>{1});
  const auto& st = std::any_cast<const hc3i::SavedState&>(ctx.saved.at(1).protocol);
  EXPECT_EQ(st.sn, 1u);
  EXPECT_EQ(st.ddv, (Ddv{1, 0}));
  EXPECT_EQ(st.channels->received.at(2), 1u);
  p.participant.on_saved(ctx, 1); // the leader's ACK: local
  p.leader.on_ack(ctx, body_of({{"number", 1}}));
  EXPECT_EQ(ctx.controls.size(), 4u);
  p.leader.on_ack(ctx, body_of({{"number", 1}}));
  EXPECT_EQ(ctx.control_names(),
            (std::vector<std::string>{"CLC_REQ", "CLC_REQ", "CLC_SAVE", "CLC_SAVE", "CLC_COMMIT", "CLC_COMMIT"}));
  EXPECT_FALSE(p.leader.active());
  EXPECT_FALSE(p.participant.active());
  EXPECT_EQ(p.deps.sn(), 1u);
  EXPECT_EQ(p.deps.ddv(), (Ddv{1, 0}));
  EXPECT_EQ(p.deps.clcs().size(), 1u);
  EXPECT_FALSE(ctx.paused);
  EXPECT_EQ(ctx.timer(hc3i::kClcTimer.id()), 100);
  EXPECT_EQ(fed.stats().cluster_values("hc3i.clc_initial"), (std::vector<double>{1, 0}));
  EXPECT_EQ(fed.stats().cluster_values("hc3i.clcs_stored"), (std::vector<double>{1, 0}));
}

TEST_F(Hc3iClc, AParticipantSavesOnceItHasWhatItsPeersSentAndCommitsOnTheLeadersWord) {
  Parts p(fed.layout(), 2);
  auto& ctx = fed.node(2);
  hc3i::Body req = body_of({{"number", 1}, {"epoch", 1}});
  p.participant.on_req(ctx, req); // another epoch: from an undone execution
  req.ints["epoch"] = 0;
  req.ints["number"] = 2;
  p.participant.on_req(ctx, req); // not the next CLC
  EXPECT_FALSE(p.participant.active());
  EXPECT_TRUE(ctx.controls.empty());
  req.ints["number"] = 1;
  req.ddv = p.deps.intern({1, 0});
  p.participant.on_req(ctx, req);
  EXPECT_TRUE(p.participant.active());
  EXPECT_TRUE(ctx.paused);
  ASSERT_EQ(ctx.control_names(), std::vector<std::string>{"CLC_READY"});
  EXPECT_EQ(ctx.controls[0].to, 0);
  EXPECT_TRUE(sent_hc3i_body(ctx, 0).counts.empty());
  hc3i::Body save = body_of({{"number", 1}});
  save.counts[1] = 2;
  p.participant.on_save(ctx, save);
  for (std::uint64_t seq : {0, 1}) {
    EXPECT_TRUE(ctx.saves.empty()) << seq;
    auto [m, pb] = hc3i_test::message(1, 2, seq);
    p.mailbox.on_app_receive(ctx, m, pb); // delivered during the CLC: sent before it
  }
  EXPECT_EQ(ctx.saves, std::vector<std::uint64_t>{1});
  EXPECT_EQ(ctx.saved.at(1).app->delivered, 2u);
  p.participant.on_saved(ctx, 1);
  p.participant.on_saved(ctx, 1); // once
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"CLC_READY", "CLC_ACK"}));
  p.participant.on_commit(ctx, body_of({{"number", 1}, {"forced", 0}}));
  EXPECT_FALSE(p.participant.active());
  EXPECT_FALSE(ctx.paused);
  EXPECT_EQ(p.deps.sn(), 1u);
  ASSERT_EQ(p.deps.clcs().size(), 1u);
  EXPECT_EQ(p.deps.clcs()[0].base, (Ddv{1, 0}));
  EXPECT_TRUE(fed.stats().cluster_values("hc3i.clcs_stored").empty() ||
              fed.stats().cluster_values("hc3i.clcs_stored")[0] == 0); // the leader counts, not node 2
}

TEST_F(Hc3iClc, AForceRequestStartsAForcedClcHoldingTheEntryAskedFor) {
  Parts p(fed.layout(), 0);
  auto& ctx = fed.node(0);
  hc3i_test::commit_clc(p, 1, {1, 0});
  p.leader.on_force(ctx, body_of({{"cluster", 1}, {"sn", 2}}));
  ASSERT_TRUE(p.leader.active());
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("number"), 2u);
  EXPECT_EQ(sent_hc3i_body(ctx, 0).ddv, (Ddv{2, 2}));
  // Asked again for an entry the CLC under way holds: nothing more. Asked for SN 3: one more
  // CLC, once this one commits.
  p.leader.on_force(ctx, body_of({{"cluster", 1}, {"sn", 2}}));
  p.leader.on_force(ctx, body_of({{"cluster", 1}, {"sn", 3}}));
  EXPECT_EQ(ctx.controls.size(), 2u);
  p.leader.on_ready(ctx, 1, ready(2));
  p.leader.on_ready(ctx, 2, ready(2));
  p.participant.on_saved(ctx, 2);
  p.leader.on_ack(ctx, body_of({{"number", 2}}));
  p.leader.on_ack(ctx, body_of({{"number", 2}}));
  EXPECT_EQ(fed.stats().cluster_values("hc3i.clc_forced"), (std::vector<double>{1, 0}));
  EXPECT_EQ(p.deps.ddv(), (Ddv{2, 2}));
  // CLC 3 started at the commit, for SN 3.
  ASSERT_TRUE(p.leader.active());
  EXPECT_EQ(ctx.controls.back().msg.type, "CLC_REQ");
  EXPECT_EQ(sent_hc3i_body(ctx, ctx.controls.size() - 1).get("number"), 3u);
  EXPECT_EQ(sent_hc3i_body(ctx, ctx.controls.size() - 1).ddv, (Ddv{3, 3}));
}

TEST_F(Hc3iClc, TheTimerStartsAnUnforcedClc) {
  Parts p(fed.layout(), 0);
  auto& ctx = fed.node(0);
  ctx.periods["checkpoint_period"] = 100;
  hc3i_test::commit_clc(p, 1, {1, 0});
  p.leader.arm_timer(ctx);
  EXPECT_EQ(ctx.timer(hc3i::kClcTimer.id()), 100);
  p.leader.maybe_start(ctx);
  EXPECT_FALSE(p.leader.active()); // nothing due
  p.leader.on_timer(ctx);
  ASSERT_TRUE(p.leader.active());
  EXPECT_EQ(sent_hc3i_body(ctx, 0).ddv, (Ddv{2, 0}));
  EXPECT_EQ(ctx.timer(hc3i::kClcTimer.id()), -1); // cancelled until the commit
  Parts member(fed.layout(), 1);
  member.leader.on_timer(fed.node(1)); // not a leader: starts nothing
  EXPECT_TRUE(fed.node(1).controls.empty());
}

TEST_F(Hc3iClc, AnAbortedParticipantKeepsASavedClcInDoubtOrDiscardsIt) {
  Parts p(fed.layout(), 1);
  auto& ctx = fed.node(1);
  hc3i::Body req = body_of({{"number", 1}, {"epoch", 0}});
  req.ddv = p.deps.intern({1, 0});
  p.participant.on_req(ctx, req);
  p.participant.on_save(ctx, body_of({{"number", 1}}));
  EXPECT_EQ(ctx.saves, std::vector<std::uint64_t>{1});
  EXPECT_FALSE(p.participant.abort(ctx, true)); // saved, not acknowledged: not in doubt
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{1});
  p.participant.on_req(ctx, req);
  p.participant.on_save(ctx, body_of({{"number", 1}}));
  p.participant.on_saved(ctx, 1);
  const auto doubt = p.participant.abort(ctx, true);
  ASSERT_TRUE(doubt);
  EXPECT_EQ(doubt->sn, 1u);
  EXPECT_EQ(doubt->ddv, (Ddv{1, 0}));
  EXPECT_FALSE(doubt->forced);
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{1}); // kept
  EXPECT_FALSE(p.participant.active());
}

// The per-channel counts a CLC saves are one immutable copy shared by the node's consecutive
// checkpoints while no count changes (a storm of forced CLCs held millions of copies of the same
// counts), and a new copy, with the new counts, once one has.
TEST_F(Hc3iClc, ConsecutiveClcsShareTheCountsUntilAMessageChangesThem) {
  Parts p(fed.layout(), 0);
  auto& ctx = fed.node(0);
  const auto none = p.mailbox.saved_counts();
  EXPECT_EQ(p.mailbox.saved_counts(), none); // nothing sent or delivered: the same copy
  auto [m, pb] = hc3i_test::message(1, 0, 1);
  p.mailbox.on_app_receive(ctx, m, pb);
  const auto one = p.mailbox.saved_counts();
  EXPECT_NE(one, none);
  EXPECT_TRUE(none->received.empty()); // the saved copy did not move with the counts
  EXPECT_EQ(one->received.at(1), 1u);
  EXPECT_EQ(p.mailbox.saved_counts(), one);
  p.mailbox.restore(none); // a rollback to the first CLC: its copy is the counts again
  EXPECT_TRUE(p.mailbox.counts().received.empty());
  EXPECT_EQ(p.mailbox.saved_counts(), none);
  p.mailbox.restore(nullptr); // to the initial state: no count
  EXPECT_TRUE(p.mailbox.counts().received.empty());
  EXPECT_EQ(*p.mailbox.saved_counts(), hc3i::ChannelCounts{});
}

} // namespace
} // namespace ckptsim
