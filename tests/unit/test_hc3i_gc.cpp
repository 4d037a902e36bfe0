/* Unit tests of hc3i::GarbageCollector (protocols/hc3i/gc.hpp) on a fake node. Three clusters of
 * two nodes: c0 = {0, 1}, c1 = {2, 3}, c2 = {4, 5}; node 0, the leader of c0, is the collector.
 * The CLCs: c0 stores 1, 2, 3 (no dependency); c1 stores 1, 2 and 3, whose DDVs depend on c0's
 * interval 3 from CLC 2 on; c2 stores 1. A failure of c0 takes c0 back to 3, whose alert (c0, 3)
 * takes c1 back to CLC 2 (its oldest with DDV[c0] >= 3); nothing else rolls back: the worst SNs
 * are (3, 2, 1). */
#include "tests/unit/test_hc3i_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using hc3i::Ddv;
using hc3i::StoredClc;
using hc3i_test::Parts;

class Hc3iGarbageCollector : public ::testing::Test {
 protected:
  Hc3iGarbageCollector()
      : fed(hc3i_test::federation(3, 2), "hc3i")
      , p(fed.layout(), 0)
      , ctx(fed.node(0)) {
    ctx.periods["gc_period"] = 50;
    for (hc3i::Sn n = 1; n <= 3; n++) hc3i_test::commit_clc(p, n, {n, 0, 0});
  }
  /** GC_RESP of cluster @p c's leader for round @p round. */
  void respond(int c, hc3i::ClcList clcs, std::uint64_t round = 1, FailureId failure = 0) {
    hc3i::Body b = hc3i_test::body_of({{"round", round}, {"failure", failure}, {"epoch", 0}});
    b.clcs = std::move(clcs);
    b.epochs = {0, 0, 0};
    p.gc.on_resp(ctx, fed.layout().cluster(c).first, b);
  }
  void respond_all(std::uint64_t round = 1) {
    respond(1, {StoredClc{1, Ddv{0, 1, 0}}, StoredClc{2, Ddv{3, 2, 0}}, StoredClc{3, Ddv{3, 3, 0}}}, round);
    respond(2, {StoredClc{1, Ddv{0, 0, 1}}}, round);
  }
  test_support::FakeFederation fed;
  Parts p;
  test_support::FakeNode& ctx;
};

TEST_F(Hc3iGarbageCollector, OnlyTheLeaderOfClusterZeroArmsTheTimer) {
  p.gc.arm_timer(ctx);
  EXPECT_EQ(ctx.timer(hc3i::kGcTimer.id()), 50);
  Parts other(fed.layout(), 2);
  fed.node(2).periods["gc_period"] = 50;
  other.gc.arm_timer(fed.node(2));
  EXPECT_EQ(fed.node(2).timer(hc3i::kGcTimer.id()), -1);
}

TEST_F(Hc3iGarbageCollector, ARoundAsksEveryOtherLeaderAndCollectsTheWorstSns) {
  p.gc.start(ctx, false);
  EXPECT_TRUE(p.gc.active());
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"GC_REQ", "GC_REQ"}));
  EXPECT_EQ(ctx.controls[0].to, 2);
  EXPECT_EQ(ctx.controls[1].to, 4);
  EXPECT_EQ(ctx.timer(hc3i::kGcTimer.id()), 50); // the next round's
  EXPECT_EQ(p.gc.pending(), "GC round 1 waits for " + fed.layout().host_name(2) + ", " + fed.layout().host_name(4));
  respond_all();
  EXPECT_FALSE(p.gc.active());
  // In cluster order: the collector's own cluster first (GC_APPLY to node 1), then GC_COLLECT
  // to the other leaders.
  EXPECT_EQ(ctx.control_names(),
            (std::vector<std::string>{"GC_REQ", "GC_REQ", "GC_APPLY", "GC_COLLECT", "GC_COLLECT"}));
  EXPECT_EQ(ctx.controls[2].to, 1);
  EXPECT_EQ(ctx.controls[3].to, 2);
  EXPECT_EQ(hc3i_test::sent_hc3i_body(ctx, 3).ddv, (Ddv{3, 2, 1}));
  EXPECT_EQ(hc3i_test::sent_hc3i_body(ctx, 3).epochs, (std::vector<std::uint64_t>{0, 0, 0}));
  // The collector applies it: its CLCs below 3 go.
  EXPECT_EQ(ctx.discards, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(p.deps.last_clc(), 3u);
  EXPECT_EQ(p.deps.clcs().size(), 1u);
  EXPECT_EQ(fed.stats().get("hc3i.gc_rounds"), 1);
  const auto& round = fed.stats().series("hc3i.gc").at(0);
  EXPECT_EQ(round["before"], (nlohmann::json{3, 3, 1}));
  EXPECT_EQ(round["after"], (nlohmann::json{1, 2, 1}));
}

TEST_F(Hc3iGarbageCollector, NoRoundStartsWhileARecoveryIsUnderWay) {
  p.gc.start(ctx, /*recovery_under_way=*/true);
  EXPECT_FALSE(p.gc.active());
  EXPECT_TRUE(ctx.controls.empty());
  EXPECT_EQ(fed.stats().get("hc3i.gc_skipped"), 1);
  p.deps.hear_of(1); // a failure whose victim is not back
  p.gc.start(ctx, false);
  EXPECT_EQ(fed.stats().get("hc3i.gc_skipped"), 2);
  p.deps.back(1);
  p.gc.start(ctx, false);
  EXPECT_TRUE(p.gc.active());
  p.gc.start(ctx, false); // a round under way
  EXPECT_EQ(fed.stats().get("hc3i.gc_skipped"), 3);
}

TEST_F(Hc3iGarbageCollector, ARoundOverlappingAFailureIsAbandoned) {
  p.gc.start(ctx, false);
  respond(1, {StoredClc{1, Ddv{0, 1, 0}}}, 1, /*failure=*/1); // c1's leader heard of failure 1
  EXPECT_FALSE(p.gc.active());
  EXPECT_EQ(fed.stats().get("hc3i.gc_aborted"), 1);
  respond(2, {StoredClc{1, Ddv{0, 0, 1}}});
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"GC_REQ", "GC_REQ"})); // nothing collected
  // The collector itself hears of a failure during its next round.
  p.gc.start(ctx, false);
  p.deps.hear_of(2);
  respond_all(2);
  EXPECT_EQ(fed.stats().get("hc3i.gc_aborted"), 2);
  EXPECT_TRUE(ctx.discards.empty());
}

TEST_F(Hc3iGarbageCollector, ALeaderAnswersWithItsClcsAndTheEpochsItKnows) {
  Parts leader(fed.layout(), 2);
  hc3i_test::commit_clc(leader, 1, {0, 1, 0});
  leader.deps.learn_rollback(2, 1, 1);
  leader.deps.hear_of(4);
  leader.gc.on_req(fed.node(2), 0, hc3i_test::body_of({{"round", 7}}));
  ASSERT_EQ(fed.node(2).controls.size(), 1u);
  EXPECT_EQ(fed.node(2).controls[0].to, 0);
  const auto& r = hc3i_test::sent_hc3i_body(fed.node(2), 0);
  EXPECT_EQ(r.get("round"), 7u);
  EXPECT_EQ(r.get("failure"), 4u);
  EXPECT_EQ(r.get("epoch"), 0u);
  EXPECT_EQ(r.epochs, (std::vector<std::uint64_t>{0, 0, 1}));
  ASSERT_EQ(r.clcs.size(), 1u);
  EXPECT_EQ(r.clcs[0].sn, 1u);
}

TEST_F(Hc3iGarbageCollector, ACollectionSinceOvertakenByAFailureOrARollbackIsIgnored) {
  hc3i::Body b = hc3i_test::body_of({{"round", 1}, {"failure", 0}});
  b.ddv = p.deps.intern({3, 1, 1});
  b.epochs = {0, 0, 0};
  p.deps.set_epoch(1); // c0 rolled back since the lists were gathered
  p.gc.apply(ctx, b);
  p.deps.set_epoch(0);
  p.deps.hear_of(1); // a failure since
  p.gc.apply(ctx, b);
  EXPECT_EQ(fed.stats().get("hc3i.gc_ignored"), 2);
  EXPECT_TRUE(ctx.discards.empty());
}

} // namespace
} // namespace ckptsim
