/* The two-level renewal model (sim/advise/two_level.hpp, docs/MODEL.md): Daly's complete model
 * when no failure needs the second level, the failure-free sum without failures, and a Monte Carlo
 * of the very process the model describes (400,000 runs), within 3 standard errors. */
#include "sim/advise/periods.hpp"
#include "sim/advise/two_level.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace ckptsim::advise;

namespace {

// The process of the model, run once: segments of T (+ their checkpoint), failures of two kinds.
double two_level_sample(const TwoLevelModel& m, std::mt19937_64& rng) {
  const double lambda = m.rate1 + m.rate2;
  std::exponential_distribution<double> next_failure(lambda);
  std::uniform_real_distribution<double> unit(0, 1);
  const int n = static_cast<int>(std::ceil(m.work / m.period - 1e-9));
  double t = 0;
  int j = 1;
  while (j <= n) {
    const double d = j == n ? m.work - (n - 1) * m.period : m.period + (j % m.every == 0 ? m.cost2 : m.cost1);
    const double f = next_failure(rng);
    if (f >= d) {
      t += d;
      j++;
      continue;
    }
    t += f;
    int kind = unit(rng) < m.rate1 / lambda ? 1 : 2;
    while (true) { // the recovery, restarted by each failure that strikes it
      const int b = ((j - 1) / m.every) * m.every;
      const double r = kind == 1 ? (j == 1 ? m.restart0 : m.restart1) : (b == 0 ? m.restart0 : m.restart2);
      const double g = next_failure(rng);
      if (g >= r) {
        t += r;
        if (kind == 2) j = b + 1;
        break;
      }
      t += g;
      if (unit(rng) >= m.rate1 / lambda) kind = 2; // a kind-1 failure leaves a kind-2 recovery as it is
    }
  }
  return t;
}

} // namespace

TEST(TwoLevelModel, WithoutFailuresItIsTheWorkAndTheCheckpoints) {
  const TwoLevelModel m{.work = 1000, .period = 300, .every = 2, .cost1 = 5, .cost2 = 50};
  // Segments 300 + 5, 300 + 50, 300 + 5, then 100 with no checkpoint.
  EXPECT_DOUBLE_EQ(two_level_makespan(m), 1000 + 5 + 50 + 5);
}

TEST(TwoLevelModel, WithOneKindOfFailureItIsDalysCompleteModel) {
  const double M = 2000, R = 60, T = 500, C = 50, W = 2000;
  const TwoLevelModel m{.work = W,
                        .period = T,
                        .every = 3,
                        .cost1 = C,
                        .cost2 = C,
                        .rate1 = 1 / M,
                        .restart0 = R,
                        .restart1 = R,
                        .restart2 = R};
  auto S = [&](double x) { return M * std::exp(R / M) * std::expm1(x / M); };
  EXPECT_NEAR(two_level_makespan(m), 3 * S(T + C) + S(T), 1e-6);
  // daly_makespan counts a checkpoint after the last segment too.
  EXPECT_NEAR(two_level_makespan(m) + S(T + C) - S(T), daly_makespan(W, T, C, R, M), 1e-6);
}

TEST(TwoLevelModel, AgreesWithAMonteCarloOfItsProcess) {
  const TwoLevelModel m{.work = 6000,
                        .period = 300,
                        .every = 4,
                        .cost1 = 5,
                        .cost2 = 55,
                        .rate1 = 1 / 2000.0,
                        .rate2 = 1 / 5000.0,
                        .restart0 = 10,
                        .restart1 = 15,
                        .restart2 = 60};
  std::mt19937_64 rng(33);
  const int runs = 400'000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < runs; i++) {
    const double t = two_level_sample(m, rng);
    sum += t;
    sum2 += t * t;
  }
  const double mean = sum / runs, se = std::sqrt((sum2 / runs - mean * mean) / (runs - 1));
  const double expected = two_level_makespan(m);
  std::printf("two-level model %.2f s, Monte Carlo %.2f s (standard error %.2f s)\n", expected, mean, se);
  EXPECT_NEAR(mean, expected, 3 * se);
  EXPECT_GT(expected, 6000 + 19 * 5 + 4 * 50); // failures cost something
}

TEST(TwoLevelModel, ItsBestEveryIsNearTheFirstOrderOne) {
  // C1 = 5 s, C2 = 55 s, lambda1 = 1/2000, lambda2 = 1/50000: n* = sqrt(C2 lambda1 / (C1 lambda2)) =
  // sqrt(11 x 25) = 16.6; the first-order period of level 1 is sqrt(2 C1 / lambda1) = 141 s.
  const LevelPlan plan = first_order_plan({{5, 1 / 2000.0}, {55, 1 / 50000.0}});
  EXPECT_NEAR(plan.periods[0], std::sqrt(2 * 5 * 2000.0), 1e-9);
  EXPECT_EQ(plan.every[1], 17);
  auto at = [&](int k) {
    return TwoLevelModel{.work = 100'000,
                         .period = plan.periods[0],
                         .every = k,
                         .cost1 = 5,
                         .cost2 = 55,
                         .rate1 = 1 / 2000.0,
                         .rate2 = 1 / 50000.0,
                         .restart0 = 10,
                         .restart1 = 15,
                         .restart2 = 60};
  };
  double best = INFINITY;
  int best_every = 0;
  for (int k = 1; k <= 60; k++) {
    const double e = two_level_makespan(at(k));
    if (e < best) best = e, best_every = k;
  }
  std::printf("exact best every %d, first order %d\n", best_every, plan.every[1]);
  EXPECT_NEAR(best_every, plan.every[1], 0.3 * plan.every[1]);
  // The first-order overhead sum sqrt(2 lambda C) against the exact one at the first-order plan.
  const double exact_overhead = two_level_makespan(at(plan.every[1])) / 100'000 - 1;
  std::printf("overhead: exact %.4f, first order %.4f\n", exact_overhead, plan.overhead);
  EXPECT_NEAR(exact_overhead, plan.overhead, 0.25 * plan.overhead);
}
