/* Protocol none: consistent over many failing runs, and its makespan agrees with the analytic
 * expectation of restart-from-scratch under exponential failures. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace ckptsim;
using namespace ckptsim::test_support;

TEST(None, NoViolationOver200SeedsWithFailures) {
  int failures = 0, runs_with_failures = 0;
  for (int seed = 1; seed <= 200; seed++) {
    // 2 x 3 nodes, 100 s of work, federation MTBF 60 s: about 4 failures per run. Detection delay
    // and downtime vary with the seed (zero included) to cover the orders of events.
    json topo = small_topology(2, 3, 60.0);
    topo["failures"] = {
        {"downtime", (seed % 3) * 2.0}, {"detection_delay", (seed % 2) * 0.5}, {"restart_overhead", (seed % 4) * 0.25}};
    RunConfig c = make_config(topo, small_application(2, 1.0, 100.0, 0.5, 0.2));
    c.options.seed = static_cast<std::uint64_t>(seed);
    c.options.end_date = 10000; // 100 times the work: a run that never ends fails instead of hanging
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["consistency"]["violations"].get<int>(), 0) << "seed " << seed;
    ASSERT_EQ(res["status"], "completed");
    const int f = res["failures"].get<int>();
    failures += f;
    runs_with_failures += f > 0;
    // Every process completed its 100 s after the last restart.
    EXPECT_GE(res["makespan"].get<double>(), 100.0);
    if (f > 0) { // a global restart rolls back every process
      EXPECT_GE(res["rollbacks"].get<int>(), 6) << "seed " << seed;
    }
  }
  EXPECT_GT(runs_with_failures, 150);
  RecordProperty("failures", failures);
}

TEST(None, MeanMakespanMatchesRestartFromScratchModel) {
  // One process, work Ts, MTBF M, downtime D, restart cost R; failures may strike during R but
  // not during D. E[T] = (M + D) e^{R/M} (e^{Ts/M} - 1).
  const double M = 1000, Ts = 1000, D = 100, R = 50;
  const int runs = 1000;
  const double expected = (M + D) * std::exp(R / M) * (std::exp(Ts / M) - 1); // 1987.0 s
  json topo = small_topology(1, 1, M);
  topo["failures"] = {{"downtime", D}, {"restart_overhead", R}, {"detection_delay", 0}, {"overlap", "allow"}};
  json app = json::parse(R"({"kind": "stochastic", "total_time": 1000,
    "clusters": [{"cluster": "c0", "compute": {"distribution": "constant", "mean": 1000}}]})");
  double sum = 0, sum2 = 0;
  for (int seed = 1; seed <= runs; seed++) {
    RunConfig c = make_config(topo, app);
    c.options.seed = static_cast<std::uint64_t>(seed);
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << r.error;
    double t = r.document["results"]["makespan"].get<double>();
    sum += t;
    sum2 += t * t;
  }
  const double mean = sum / runs;
  const double se = std::sqrt((sum2 / runs - mean * mean) / (runs - 1));
  std::printf("none vs restart-from-scratch model: %d runs, mean %.1f s, expected %.1f s, standard error %.1f s\n",
              runs, mean, expected, se);
  EXPECT_NEAR(mean, expected, 3 * se) << "mean " << mean << " expected " << expected << " se " << se;
}
