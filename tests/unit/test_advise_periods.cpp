/* The analytic checkpoint periods (sim/advise/periods.hpp), against hand computations and
 * Daly's own examples (SPEC.md, "Optimal periods": Ts 500 h, R 10 min, C 5 min). */
#include "sim/advise/periods.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace ckptsim::advise;

TEST(AdvisePeriods, YoungIsTheSquareRootOfTwiceCostTimesMtbf) {
  EXPECT_DOUBLE_EQ(young_period(300, 86400), 7200); // sqrt(2 x 300 x 86,400)
  EXPECT_DOUBLE_EQ(young_period(50, 1), 10);
}

TEST(AdvisePeriods, DalysPeriodsOfHisOwnExamples) {
  // C = 5 min: M = 24 h -> 117 min, 6 h -> 57 min, 15 min -> 9.1 min.
  EXPECT_NEAR(daly_period(300, 24 * 3600.0) / 60, 116.69, 0.01); // 7200 x 1.014082 - 300 = 7001.4 s
  EXPECT_NEAR(daly_period(300, 6 * 3600.0) / 60, 56.71, 0.01);   // 3600 x 1.028549 - 300 = 3402.8 s
  EXPECT_NEAR(daly_period(300, 15 * 60.0) / 60, 9.14, 0.01);     // 734.85 x 1.154600 - 300 = 548.5 s
  EXPECT_DOUBLE_EQ(daly_period(300, 100), 100);                  // C >= 2M: the MTBF itself
}

TEST(AdvisePeriods, DalysCompleteModelIsSmallestNearHisPeriod) {
  const double ts = 500 * 3600.0, r = 600, c = 300, m = 6 * 3600.0;
  const double tau = daly_period(c, m);
  const double at = daly_makespan(ts, tau, c, r, m);
  // M e^(R/M) (e^((tau + C)/M) - 1) Ts / tau, by hand for tau = 3402.8 s: 21600 x 1.028167 x
  // 0.186995 x 528.98 = 2.19678e6 s = 610.2 h.
  EXPECT_NEAR(at, 21600 * std::exp(600 / 21600.0) * std::expm1((tau + 300) / 21600) * ts / tau, 1e-6 * at);
  EXPECT_NEAR(at / 3600, 610.22, 0.01);
  for (double f : {0.5, 0.7, 1.4, 2.0}) EXPECT_GT(daly_makespan(ts, f * tau, c, r, m), at) << f;
  // Without failures (M -> infinity) the makespan is the work plus one checkpoint per period.
  EXPECT_NEAR(daly_makespan(1000, 100, 5, 0, 1e12), 1050, 1e-3);
}

TEST(AdvisePeriods, TwoLevelsFirstOrderPlan) {
  // Partner copies (C1 = 10 s) for node failures every 5 h, the parallel file system (C2 = 250 s)
  // for cluster outages every 100 h: periods sqrt(2 C / lambda) = 600 s and 13,416 s; n* =
  // sqrt(C2 lambda1 / (C1 lambda2)) = sqrt(25 x 20) = 22.36 -> 22; overhead sqrt(2 x 10 / 18,000)
  // + sqrt(2 x 250 / 360,000) = 0.03333 + 0.03727.
  const LevelPlan p = first_order_plan({{10, 1 / 18000.0}, {250, 1 / 360000.0}});
  ASSERT_EQ(p.periods.size(), 2u);
  EXPECT_NEAR(p.periods[0], 600, 1e-9);
  EXPECT_NEAR(p.periods[1], std::sqrt(2 * 250 * 360000.0), 1e-6);
  EXPECT_NEAR(p.periods[1] / p.periods[0], std::sqrt(250 / 10.0 * (360000.0 / 18000.0)), 1e-9);
  EXPECT_EQ(p.every, (std::vector<int>{1, 22}));
  EXPECT_NEAR(p.schedule[1], 600 * 22, 1e-9);
  EXPECT_NEAR(p.overhead, std::sqrt(2 * 10 / 18000.0) + std::sqrt(2 * 250 / 360000.0), 1e-12);
}

TEST(AdvisePeriods, ALevelWithoutFailuresOfItsOwnIsNeverWritten) {
  const LevelPlan p = first_order_plan({{10, 1 / 18000.0}, {250, 0}});
  EXPECT_TRUE(std::isinf(p.periods[1]));
  EXPECT_EQ(p.every, (std::vector<int>{1, 0}));
  EXPECT_TRUE(std::isinf(p.schedule[1]));
  EXPECT_NEAR(p.overhead, std::sqrt(2 * 10 / 18000.0), 1e-12);
}
