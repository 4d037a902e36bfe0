/* plan_maxmin_precision (sim/engine/precision.hpp): SimGrid's max-min precision chosen from the
 * loads of a platform's shared links, on hand-written loads. */
#include "sim/engine/precision.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace ckptsim;

namespace {
constexpr double kEps = std::numeric_limits<double>::epsilon();

// Every pair routed (no scaling), one shared link of @p flows flows of usage @p each.
PrecisionRequest one_link(double flows, double each) {
  PrecisionRequest r;
  r.pairs = r.sampled_pairs = flows;
  r.links = {{flows, flows * each}};
  r.max_route_penalty = 1e-3;
  return r;
}
} // namespace

TEST(MaxminPrecision, SimGridsDefaultStaysWhenTheRoundingIsBelowIt) {
  // 10,000 flows of usage 1,000 (1 ms routes): 7 eps * 1e7 * 100 = 1.55e-6.
  const PrecisionPlan p = plan_maxmin_precision(one_link(1e4, 1e3));
  EXPECT_DOUBLE_EQ(p.needed, kRoundingMargin * kEps * 1e7 * 100);
  EXPECT_EQ(p.precision, 1e-5);
  EXPECT_FALSE(p.chosen);
  EXPECT_TRUE(p.error.empty());
}

TEST(MaxminPrecision, AboveItTheNextPowerOfTenIsChosen) {
  // 1e5 flows of usage 1,000: 7 eps * 1e8 * 316 = 4.9e-5, so 1e-4.
  PrecisionPlan p = plan_maxmin_precision(one_link(1e5, 1e3));
  EXPECT_NEAR(p.needed, kRoundingMargin * kEps * 1e8 * std::sqrt(1e5), 1e-12);
  EXPECT_DOUBLE_EQ(p.precision, 1e-4);
  EXPECT_TRUE(p.chosen);
  EXPECT_FALSE(p.retried);
  EXPECT_TRUE(p.error.empty()) << p.error;
  // 1e6 flows: 1.55e-3, but the estimate chooses no more than 1e-3 (only an abort raises it more).
  p = plan_maxmin_precision(one_link(1e6, 1e3));
  EXPECT_NEAR(p.needed, 1.554e-3, 1e-6);
  EXPECT_DOUBLE_EQ(p.precision, kMaxEstimatedPrecision);
  EXPECT_TRUE(p.error.empty()) << p.error;
}

TEST(MaxminPrecision, TheWorstLinkDecides) {
  PrecisionRequest r = one_link(1e4, 1e3);
  r.links.push_back({1e5, 1e5 * 1e3}); // 7 eps * 1e8 * 316 = 4.9e-5
  r.links.push_back({10, 10 * 1e5});
  const PrecisionPlan p = plan_maxmin_precision(r);
  EXPECT_NEAR(p.needed, kRoundingMargin * kEps * 1e8 * std::sqrt(1e5), 1e-12);
  EXPECT_DOUBLE_EQ(p.precision, 1e-4);
}

TEST(MaxminPrecision, ASampleOfPairsIsScaledToThePlatform) {
  // 1 pair in 100 routed: a link crossed by 1e4 sampled routes carries 1e6 flows.
  PrecisionRequest r = one_link(1e4, 1e3);
  r.pairs = 100 * r.sampled_pairs;
  const PrecisionPlan p = plan_maxmin_precision(r);
  EXPECT_NEAR(p.needed, kRoundingMargin * kEps * 1e9 * 1e3, 1e-12);
  EXPECT_DOUBLE_EQ(p.precision, 1e-3);
}

TEST(MaxminPrecision, NoMoreFlowsThanFitInMemoryAreAssumed) {
  // 1e12 flows scaled down to 1e7 (usage with them), of usage 10: 7 eps * 1e8 * sqrt(1e7) = 4.9e-4.
  PrecisionRequest r = one_link(1e4, 10);
  r.pairs = 1e8 * r.sampled_pairs;
  r.max_route_penalty = 1e-6;
  const PrecisionPlan p = plan_maxmin_precision(r);
  EXPECT_NEAR(p.needed, kRoundingMargin * kEps * kMaxConcurrentFlows * 10 * std::sqrt(kMaxConcurrentFlows), 1e-12);
  EXPECT_DOUBLE_EQ(p.precision, 1e-3);
}

TEST(MaxminPrecision, AfterAnAbortTenTimesThePrecisionItHappenedAt) {
  PrecisionRequest r = one_link(1e4, 1e3); // needs no more than the default
  r.aborted_at = 1e-5;
  PrecisionPlan p = plan_maxmin_precision(r);
  EXPECT_DOUBLE_EQ(p.precision, 1e-4);
  EXPECT_TRUE(p.chosen && p.retried);
  r.aborted_at = 1e-3; // an abort at what the estimate chose for a large platform
  r.links = one_link(1e6, 1e3).links;
  r.pairs = r.sampled_pairs = 1e6;
  p = plan_maxmin_precision(r);
  EXPECT_DOUBLE_EQ(p.precision, 1e-2);
  EXPECT_TRUE(p.retried);
  EXPECT_TRUE(p.error.empty()) << p.error;
  r.aborted_at = 1e-2; // 1e-1 is more than ckptsim chooses by itself
  p = plan_maxmin_precision(r);
  EXPECT_NE(p.error.find("aborted on its rounding errors at precision 0.01"), std::string::npos) << p.error;
  EXPECT_NE(p.error.find("--cfg=maxmin/precision:VALUE"), std::string::npos) << p.error;
}

TEST(MaxminPrecision, AUsersPrecisionWinsAsGiven) {
  PrecisionRequest r = one_link(1e6, 1e3);
  r.user = 3e-6;
  const PrecisionPlan p = plan_maxmin_precision(r);
  EXPECT_EQ(p.precision, 3e-6);
  EXPECT_FALSE(p.chosen);
  EXPECT_TRUE(p.error.empty());
}

TEST(MaxminPrecision, TheSlowestRouteBoundsTheChoiceAndAnAbortPastItNamesTheOption) {
  // 1e-3 needed, but a route of 10 s (usage 0.1) must stay 100 times above: 1e-3 at most.
  PrecisionRequest r = one_link(1e6, 1e3);
  r.max_route_penalty = 10;
  PrecisionPlan p = plan_maxmin_precision(r);
  EXPECT_DOUBLE_EQ(p.precision, 1e-3);
  EXPECT_TRUE(p.error.empty()) << p.error;
  r.max_route_penalty = 100; // 1e-4 at most
  EXPECT_DOUBLE_EQ(plan_maxmin_precision(r).precision, 1e-4);
  r.aborted_at = 1e-4; // then 1e-3 would be needed: the user must choose
  p = plan_maxmin_precision(r);
  EXPECT_NE(p.error.find("slowest route, of penalty 100 s"), std::string::npos) << p.error;
  EXPECT_NE(p.error.find("--cfg=maxmin/precision:VALUE"), std::string::npos) << p.error;
}

TEST(MaxminPrecision, NothingRoutedKeepsTheDefault) {
  PrecisionRequest r;
  r.pairs = 10;
  const PrecisionPlan p = plan_maxmin_precision(r);
  EXPECT_EQ(p.precision, 1e-5);
  EXPECT_FALSE(p.chosen);
  EXPECT_EQ(p.needed, 0);
}
