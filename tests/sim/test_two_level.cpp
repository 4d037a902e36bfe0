/* Two-level checkpointing against its renewal model (issue 33, item 3; docs/MODEL.md, "Two-level
 * checkpointing"). One cluster of 4 nodes runs 6000 s of computation under coordinated
 * checkpointing every 300 s to the levels [partner, pfs every k]: a partner wave costs C1 = 25 MB
 * over 5 MB/s links = 5 s, a pfs wave that and the flush of 4 x 25 MB through the file system's
 * 2 MB/s, C2 = 55 s. Node failures (federation MTBF 2000 s) are recovered from the partner copies
 * (R1 = restart overhead 2 s + 5 s), cluster outages (MTBF 5000 s) from the file system (R2 = 2 +
 * 50 s); a rollback to the start costs R0 = 2 s. No downtime, no detection delay, an instantaneous
 * controller. The mean makespan over 1000 seeds agrees with two_level_makespan within 3 standard
 * errors (the model ignores a second failure that takes a node's partner copy during the recovery
 * or its re-replication, a few seconds per failure: well inside the error). */
#include "sim/advise/two_level.hpp"
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

struct TwoLevelSample {
  double mean = 0, se = 0;
};

TwoLevelSample two_level_runs(int every, int runs, double mtbf1, double mtbf2) {
  json topo = small_topology(1, 4, mtbf1);
  topo["clusters"][0]["checkpoint_size"] = 25e6;
  topo["clusters"][0]["san"] = {{"latency", 0}, {"bandwidth", 5e6}};
  topo["storage"] = {
      {"model", "levels"},
      {"levels", json::array({json{{"kind", "partner"}},
                              json{{"kind", "pfs"}, {"every", every}, {"bandwidth", 2e6}, {"latency", 0}}})}};
  topo["controller"] = {{"latency", 0}, {"bandwidth", 1e12}};
  topo["failures"] = {{"downtime", 0}, {"detection_delay", 0}, {"restart_overhead", 2}};
  if (std::isfinite(mtbf2)) topo["failures"]["correlated"] = json::array({json{{"scope", "cluster"}, {"mtbf", mtbf2}}});
  json app = json::parse(R"({"kind": "stochastic", "total_time": 6000,
    "clusters": [{"cluster": "c0", "compute": {"distribution": "constant", "mean": 6000}}]})");
  json timers = {{"default", {{"checkpoint_period", 300}}}};
  const MeanSe m = coordinated_makespans(topo, app, timers, runs);
  return {m.mean, m.se};
}

advise::TwoLevelModel two_level_of(int every, double mtbf1, double mtbf2) {
  return {.work = 6000,
          .period = 300,
          .every = every,
          .cost1 = 5,
          .cost2 = 55,
          .rate1 = 1 / mtbf1,
          .rate2 = std::isfinite(mtbf2) ? 1 / mtbf2 : 0.0,
          .restart0 = 2,
          .restart1 = 7,
          .restart2 = 52};
}

} // namespace

TEST(TwoLevelRuns, WithoutFailuresTheWavesCostWhatTheModelSays) {
  // 19 waves: 4 of them (the 4th, 8th, 12th, 16th) pfs ones.
  const TwoLevelSample s = two_level_runs(4, 1, INFINITY, INFINITY);
  EXPECT_NEAR(s.mean, 6000 + 15 * 5 + 4 * 55, 0.01);
  EXPECT_NEAR(advise::two_level_makespan(two_level_of(4, INFINITY, INFINITY)), 6000 + 15 * 5 + 4 * 55, 1e-9);
}

TEST(TwoLevelRuns, MeanMakespanMatchesTheRenewalModel) {
  for (int every : {2, 5}) {
    const TwoLevelSample s = two_level_runs(every, 1000, 2000, 5000);
    const double expected = advise::two_level_makespan(two_level_of(every, 2000, 5000));
    std::printf("two levels, pfs every %d: 1000 runs, mean %.1f s, model %.1f s, standard error %.1f s\n", every,
                s.mean, expected, s.se);
    EXPECT_NEAR(s.mean, expected, 3 * s.se) << "every " << every;
  }
}
