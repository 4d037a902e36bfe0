/* Heartbeat suspicion of partitioned nodes (sim/engine/suspicions.hpp): dates by hand, heartbeats
 * every 10 s, a timeout of 25 s. */
#include "sim/engine/suspicions.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

TEST(Suspicions, ACutNodeIsSuspectedAtItsLastBeatThroughPlusTheTimeout) {
  Suspicions s(10, 25, 3);
  ASSERT_TRUE(s.active());
  // Cut at 43 s: the beat of 40 s got through, suspected at 65 s.
  EXPECT_EQ(s.route(1, false, 43), std::optional<double>(65));
  EXPECT_TRUE(s.silent(1));
  EXPECT_EQ(s.route(1, false, 50), std::nullopt); // still cut: scheduled already
  EXPECT_TRUE(s.due(64.9).empty());
  EXPECT_EQ(s.due(65), std::vector<NodeId>{1});
  EXPECT_FALSE(s.silent(1)); // handed over: not twice
  EXPECT_TRUE(s.due(70).empty());
}

TEST(Suspicions, ARouteBackInTimeLiftsTheSuspicion) {
  Suspicions s(10, 25, 2);
  EXPECT_EQ(s.route(0, false, 40), std::optional<double>(65)); // at a beat's date: that beat got through
  EXPECT_EQ(s.route(0, true, 60), std::nullopt);
  EXPECT_TRUE(s.due(65).empty());
  // Cut again at 71 s: a fresh silence, from the beat of 70 s.
  EXPECT_EQ(s.route(0, false, 71), std::optional<double>(95));
}

TEST(Suspicions, SilenceCountsFromARestartAndAFailedNodeIsForgotten) {
  Suspicions s(10, 25, 2);
  s.started(1, 47); // restarted at 47 s behind a cut link: no beat expected before
  EXPECT_EQ(s.route(1, false, 47), std::optional<double>(72));
  s.forget(1); // crashed meanwhile
  EXPECT_TRUE(s.due(100).empty());
  EXPECT_EQ(s.route(0, false, 5), std::optional<double>(25));
  EXPECT_EQ(s.route(1, false, 55), std::optional<double>(75)); // cut again: the beat of 50 s
  EXPECT_EQ(s.due(80), (std::vector<NodeId>{0, 1}));
}

TEST(Suspicions, WithoutHeartbeatsNobodyIsSuspected) {
  Suspicions s(0, 0, 2);
  EXPECT_FALSE(s.active());
  EXPECT_EQ(s.route(0, false, 10), std::nullopt);
  EXPECT_TRUE(s.due(1e9).empty());
}

TEST(Suspicions, ASuspectedNodeIsNotSuspectedAgainUntilHeardOrFailed) {
  Suspicions s(10, 25, 1);
  EXPECT_EQ(s.route(0, false, 43), std::optional<double>(65));
  EXPECT_EQ(s.due(65), std::vector<NodeId>{0});
  EXPECT_EQ(s.route(0, false, 70), std::nullopt); // its fencing is under way (or held back)
  EXPECT_EQ(s.route(0, true, 80), std::nullopt);  // heard again: the fencing lapses
  EXPECT_EQ(s.route(0, false, 85), std::optional<double>(105));
  EXPECT_EQ(s.due(105), std::vector<NodeId>{0});
  s.forget(0); // fenced
  EXPECT_EQ(s.route(0, false, 120), std::optional<double>(145));
}
