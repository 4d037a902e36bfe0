/* HC3I's decision logic on hand-made DDV lists (report sections 3.2-3.5), apart from SimGrid. The
 * lists of the figure-4 example are those its section 4 describes, clusters 1..3 as 0..2. */
#include "protocols/hc3i/ddv.hpp"

#include <gtest/gtest.h>

using namespace ckptsim::hc3i;

namespace {
// Figure 4 just before the failure of cluster 2 (index 1).
std::vector<ClcList> figure4() {
  return {
      {{1, {1, 0, 0}}, {2, {2, 0, 0}}, {3, {3, 0, 4}, true}},                       // cluster 1: CLC 3 forced by m5
      {{1, {0, 1, 0}}, {2, {1, 2, 0}, true}, {3, {1, 3, 0}}},                       // cluster 2: CLC 2 forced by m1
      {{1, {0, 0, 1}}, {2, {0, 0, 2}}, {3, {0, 3, 3}, true}, {4, {2, 3, 4}, true}}, // cluster 3: m3, m4
  };
}
} // namespace

TEST(Hc3iDdv, ForcedExactlyWhenTheSnExceedsTheEntry) {
  const Ddv ddv{3, 1, 0};
  EXPECT_FALSE(needs_forced_clc(ddv, 1, 0));
  EXPECT_FALSE(needs_forced_clc(ddv, 1, 1)); // m2 of figure 4: equal, delivered at once
  EXPECT_TRUE(needs_forced_clc(ddv, 1, 2));
  EXPECT_TRUE(needs_forced_clc(ddv, 2, 1)); // first message from cluster 2 (entry 0)
}

TEST(Hc3iDdv, RollbackTargetIsTheOldestClcWithTheEntryAtLeastS) {
  const auto lists = figure4();
  const ClcList& c3 = lists[2];
  EXPECT_EQ(rollback_target(c3, c3.back().ddv, 1, 3), std::optional<Sn>(3)); // "equal in the sample"
  EXPECT_EQ(rollback_target(c3, c3.back().ddv, 1, 2), std::optional<Sn>(3));
  EXPECT_EQ(rollback_target(c3, c3.back().ddv, 1, 4), std::nullopt);         // DDV[2] = 3 < 4
  EXPECT_EQ(rollback_target(c3, c3.back().ddv, 0, 1), std::optional<Sn>(4)); // m4 forced CLC 4
  const ClcList& c1 = lists[0];
  EXPECT_EQ(rollback_target(c1, c1.back().ddv, 1, 3), std::nullopt);         // never received from cluster 2
  EXPECT_EQ(rollback_target(c1, c1.back().ddv, 2, 3), std::optional<Sn>(3)); // "its last CLC which has 4"
  EXPECT_EQ(rollback_target(c1, c1.back().ddv, 2, 5), std::nullopt);
}

TEST(Hc3iDdv, RollbackTargetRejectsAListThatContradictsItsDdv) {
  // The current DDV says a message from cluster 1 with SN 2 was delivered, but no stored CLC
  // records it: a garbage collector removed too much. That is a bug, not a decision.
  const ClcList l{{5, {0, 1}}};
  EXPECT_THROW((void)rollback_target(l, {5, 2}, 1, 2), std::logic_error);
}

TEST(Hc3iDdv, AlertValueOfTheInitialStateUndoesEveryMessage) {
  EXPECT_EQ(alert_value(0), 1u);
  EXPECT_EQ(alert_value(1), 1u);
  EXPECT_EQ(alert_value(7), 7u);
}

TEST(Hc3iDdv, Figure4RecoveryLine) {
  const auto line = recovery_line(figure4(), 1);
  ASSERT_EQ(line.rolled_to.size(), 3u);
  EXPECT_EQ(line.rolled_to[0], std::optional<Sn>(3)); // cluster 1 back to CLC 3 (cluster 3's alert)
  EXPECT_EQ(line.rolled_to[1], std::optional<Sn>(3)); // the failed cluster 2: its last CLC
  EXPECT_EQ(line.rolled_to[2], std::optional<Sn>(3)); // cluster 3: oldest with DDV[2] >= 3
  // The alerts in order: (2,3) to clusters 1 and 3, (3,3) to 1 and 2, (1,3) to 2 and 3.
  ASSERT_EQ(line.steps.size(), 6u);
  const std::vector<std::tuple<int, int, Sn, std::optional<Sn>>> expected{
      {0, 1, 3, std::nullopt}, {2, 1, 3, 3},           {0, 2, 3, 3}, {1, 2, 3, std::nullopt},
      {1, 0, 3, std::nullopt}, {2, 0, 3, std::nullopt}};
  for (std::size_t i = 0; i < expected.size(); i++) {
    const auto& [alerted, from, s, target] = expected[i];
    EXPECT_EQ(line.steps[i].alerted, alerted) << i;
    EXPECT_EQ(line.steps[i].from, from) << i;
    EXPECT_EQ(line.steps[i].s, s) << i;
    EXPECT_EQ(line.steps[i].target, target) << i;
  }
}

TEST(Hc3iDdv, PropagationReachesAFixedPointThroughAChain) {
  // 0 <- 1 <- 2 <- 3: each cluster depends on the next one's interval 2 (forced CLC 2 when it
  // received SN 2). A failure of 3 back to its CLC 2 rolls the whole chain back to CLC 2.
  std::vector<ClcList> lists{
      {{1, {1, 0, 0, 0}}, {2, {2, 2, 0, 0}, true}, {3, {3, 2, 0, 0}}},
      {{1, {0, 1, 0, 0}}, {2, {0, 2, 2, 0}, true}, {3, {0, 3, 2, 0}}},
      {{1, {0, 0, 1, 0}}, {2, {0, 0, 2, 2}, true}, {3, {0, 0, 3, 2}}},
      {{1, {0, 0, 0, 1}}, {2, {0, 0, 0, 2}}},
  };
  const auto line = recovery_line(lists, 3);
  for (int c = 0; c < 4; c++) EXPECT_EQ(line.rolled_to[c], std::optional<Sn>(2)) << c;
  // A failure of 0 (nobody depends on it) rolls back only 0, to its last CLC.
  const auto alone = recovery_line(lists, 0);
  EXPECT_EQ(alone.rolled_to[0], std::optional<Sn>(3));
  for (int c = 1; c < 4; c++) EXPECT_EQ(alone.rolled_to[c], std::nullopt) << c;
}

TEST(Hc3iDdv, ACycleRollsBackTwiceAndStops) {
  // 0 and 1 depend on each other; 1's alert after 0's rollback takes 0 further back.
  std::vector<ClcList> lists{
      {{1, {1, 0}}, {2, {2, 2}, true}, {3, {3, 3}, true}},
      {{1, {0, 1}}, {2, {1, 2}, true}, {3, {2, 3}, true}},
  };
  // Failure of 0: back to 3 -> alert (0,3): 1 has DDV[0] = 2 < 3: stays. Fixed point at once.
  auto line = recovery_line(lists, 0);
  EXPECT_EQ(line.rolled_to[0], std::optional<Sn>(3));
  EXPECT_EQ(line.rolled_to[1], std::nullopt);
  // Failure of 1: back to 3 -> alert (1,3): 0 has DDV[1] = 3 -> back to CLC 3 (oldest with >= 3),
  // alert (0,3): 1 has DDV[0] = 2 < 3: stops.
  line = recovery_line(lists, 1);
  EXPECT_EQ(line.rolled_to[0], std::optional<Sn>(3));
  EXPECT_EQ(line.rolled_to[1], std::optional<Sn>(3));
  // With 1's last CLC at 2: alert (1,2) takes 0 back to its oldest CLC with DDV[1] >= 2, CLC 2;
  // its alert (0,2) finds 1 at CLC 2, whose DDV[0] = 1 < 2: the line stops there.
  lists[1].pop_back(); // 1's last CLC is now 2
  line = recovery_line(lists, 1);
  EXPECT_EQ(line.rolled_to[1], std::optional<Sn>(2));
  EXPECT_EQ(line.rolled_to[0], std::optional<Sn>(2));
}

TEST(Hc3iDdv, WorstSnsOfFigure4) {
  // Failure of 1 (index 0): 0 -> 3, nobody depends on cluster 1 with SN >= 3. Failure of 2: as
  // above, everybody at 3. Failure of 3: 3 -> 4, alert (3,4): cluster 1 has DDV[3] = 4 -> CLC 3.
  const auto worst = worst_sns(figure4());
  EXPECT_EQ(worst, (std::vector<Sn>{3, 3, 3}));
  // Everything below can go: 2 CLCs of cluster 1, 2 of cluster 2, 2 of cluster 3 are removed.
}

TEST(Hc3iDdv, WorstSnsKeepWhatAnOldDependencyNeeds) {
  // Cluster 1 delivered a message of cluster 0's interval 1 after its CLC 2 (forced CLC 2 with
  // DDV[0] = 1) and took 3 more CLCs since. Cluster 0's failure rolls it back to its last CLC
  // 4 and alerts (0,4): cluster 1 has DDV[0] = 1 < 4, stays. Worst: {4, 5}.
  std::vector<ClcList> lists{
      {{1, {1, 0}}, {2, {2, 0}}, {3, {3, 0}}, {4, {4, 0}}},
      {{1, {0, 1}}, {2, {1, 2}, true}, {3, {1, 3}}, {4, {1, 4}}, {5, {1, 5}}},
  };
  EXPECT_EQ(worst_sns(lists), (std::vector<Sn>{4, 5}));
  // If cluster 0 had never checkpointed after sending (last CLC 1), its failure undoes SN >= 1:
  // cluster 1 goes back to CLC 2, the one taken before the delivery.
  lists[0].resize(1);
  EXPECT_EQ(worst_sns(lists), (std::vector<Sn>{1, 2}));
}

TEST(Hc3iDdv, ThePoolHandsOutOneCopyPerValueAlive) {
  DdvPool pool;
  SharedDdv a = pool.intern({1, 2, 3});
  SharedDdv b = pool.intern({1, 2, 3});
  SharedDdv c = pool.intern({1, 2, 4});
  EXPECT_EQ(&a.get(), &b.get()); // the same vector: every node of a cluster stores one copy
  EXPECT_NE(&a.get(), &c.get());
  EXPECT_EQ(a, (Ddv{1, 2, 3}));
  EXPECT_EQ(c, (Ddv{1, 2, 4}));
  EXPECT_EQ(c[2], 4u);
  // Once nobody holds a value, interning it again makes a fresh copy with the same content (at an
  // address that may be the old one's: only the content is comparable).
  c = SharedDdv{};
  EXPECT_TRUE(c.empty());
  for (int i = 0; i < 3000; i++) pool.intern({static_cast<Sn>(i)}); // sweeps the forgotten values
  SharedDdv d = pool.intern({1, 2, 4});
  EXPECT_EQ(d, (Ddv{1, 2, 4}));
  EXPECT_EQ(&pool.intern({1, 2, 3}).get(), &a.get()); // still alive, still shared
}
