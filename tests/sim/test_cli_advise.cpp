/* `ckptsim advise` (issue 33, item 4; docs/ADVISE.md). On one cluster of 4 nodes with the levels
 * [partner, pfs]: its failure-free probes measure C1 = 25 MB over 5 MB/s = 5 s and C2 = 5 s + 4 x
 * 25 MB through 2 MB/s = 55 s; node failures of federation MTBF 2000 s go to the partner level,
 * cluster outages of MTBF 50000 s to the pfs level; so the plan is T = sqrt(2 C1 / lambda1) =
 * sqrt(2 x 5 x 2000) = 141.4 s and every = round(sqrt(C2 lambda1 / (C1 lambda2))) =
 * round(sqrt(11 x 25)) = 17, and the pfs level alone gets Young sqrt(2 x 55 x 1923.1) = 459.9 s.
 * One level (servers, 50 s checkpoints, MTBF 2000 s): Daly's 414.5 s. The sweep, the timer file,
 * and the input errors. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

using namespace ckptsim::test_support;

namespace {

std::string advise_write(const std::string& name, const nlohmann::json& doc) {
  const std::string path = temp_path(name);
  std::ofstream(path) << doc.dump();
  return path;
}

// The two-level scenario; the application computes @p work seconds.
std::string advise_inputs(double work) {
  const auto topo = advise_write("advise-topology.json", nlohmann::json::parse(R"({
    "clusters": [{"name": "c0", "nodes": 4, "san": {"latency": 0, "bandwidth": "5MBps"}, "checkpoint_size": "25MB"}],
    "mtbf": 2000,
    "storage": {"model": "levels", "levels": [{"kind": "partner"},
                {"kind": "pfs", "every": 4, "bandwidth": "2MBps", "latency": 0}]},
    "controller": {"latency": 0, "bandwidth": 1e12},
    "failures": {"downtime": 0, "detection_delay": 0, "restart_overhead": 2,
                 "correlated": [{"scope": "cluster", "mtbf": 50000}]}})"));
  nlohmann::json app{{"kind", "stochastic"},
                     {"total_time", work},
                     {"clusters", {{{"cluster", "c0"}, {"compute", {{"distribution", "constant"}, {"mean", work}}}}}}};
  return "--topology " + topo + " --application " + advise_write("advise-application.json", app);
}

bool has(const std::string& out, const std::string& what) { return out.find(what) != std::string::npos; }

} // namespace

TEST(CliAdvise, TwoLevelsGetTheFirstOrderPlanFromTheMeasuredCosts) {
  const std::string timers = temp_path("advise-timers.json");
  auto o = run_cli("advise " + advise_inputs(20000) + " --output " + timers);
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_TRUE(has(o.out, "failure-free time 20000.0 s")) << o.out;
  EXPECT_TRUE(has(o.out, "node             1.8 per hour  recovered from L1 partner")) << o.out;
  EXPECT_TRUE(has(o.out, "cluster        0.072 per hour  recovered from L2 pfs")) << o.out;
  EXPECT_TRUE(has(o.out, "L1 partner     C =      5.00 s")) << o.out;
  EXPECT_TRUE(has(o.out, "L2 pfs         C =     55.00 s")) << o.out;
  EXPECT_TRUE(has(o.out, "Young  period 459.9 s")) << o.out;
  EXPECT_TRUE(has(o.out, "checkpoint_period 141.4 s, storage/levels/1/every = 17")) << o.out;
  EXPECT_TRUE(has(o.out, "expected overhead 11.76 % (first order")) << o.out;
  EXPECT_TRUE(has(o.out, "--set timers/default/checkpoint_period=141.42")) << o.out;
  EXPECT_TRUE(has(o.out, "s --set topology/storage/levels/1/every=17")) << o.out;
  // The timer file runs as is (the costs are measured: microseconds of the controller's messages).
  const auto written = nlohmann::json::parse(slurp(timers));
  EXPECT_EQ(written["default"]["checkpoint_period"].get<std::string>().substr(0, 6), "141.42");
  auto run = run_cli("run " + advise_inputs(2000) + " --timers " + timers +
                     " --set topology/storage/levels/1/every=17 --seed 3 -q");
  EXPECT_EQ(run.status, 0) << run.out;
}

TEST(CliAdvise, OneLevelGetsYoungAndDaly) {
  auto o = run_cli("advise --topology " CKPTSIM_SOURCE_DIR
                   "/workloads/experiments/daly/topology.json --application " CKPTSIM_SOURCE_DIR
                   "/workloads/experiments/daly/application.json");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_TRUE(has(o.out, "servers        C =     50.00 s")) << o.out;
  EXPECT_TRUE(has(o.out, "Young  period 447.2 s")) << o.out;
  EXPECT_TRUE(has(o.out, "Daly   period 414.5 s")) << o.out;
  EXPECT_TRUE(has(o.out, "suggested plan: --set timers/default/checkpoint_period=414.501s")) << o.out;
  EXPECT_FALSE(has(o.out, "multi-level")) << o.out;
}

TEST(CliAdvise, VerifySweepsAroundThePlanAndRanksTheProtocols) {
  const std::string timers = temp_path("advise-verified.json"), plot = temp_path("advise-sweep.png");
  auto o = run_cli("advise " + advise_inputs(3000) + " --verify 3 --jobs 2 --protocols coordinated,none --output " +
                   timers + " --plot " + plot);
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_GT(slurp(plot).size(), 10'000u) << "plots/advise.py drew nothing";
  // 5 periods x 3 everys (16, 17, 18) per protocol.
  for (const char* row : {"70.7     16", "141.4     17", "282.8     18"}) EXPECT_TRUE(has(o.out, row)) << row << o.out;
  EXPECT_TRUE(has(o.out, "   <- suggested")) << o.out;
  EXPECT_TRUE(has(o.out, "verify coordinated: 3 seeds a point (from seed 1)")) << o.out;
  EXPECT_TRUE(has(o.out, "simulated optimum: period")) << o.out;
  EXPECT_TRUE(has(o.out, "protocols ranked by their best mean makespan\n  1. coordinated")) << o.out;
  // The timer file holds the simulated optimum's period, one of the five.
  const std::string period = nlohmann::json::parse(slurp(timers))["default"]["checkpoint_period"];
  const double p = std::stod(period);
  bool one_of = false;
  for (double f : {0.5, 0.7, 1.0, 1.4, 2.0}) one_of |= std::abs(p - f * 141.42) < 0.1;
  EXPECT_TRUE(one_of) << period;
}

TEST(CliAdvise, BadOptionsAreInputErrors) {
  const std::string in = advise_inputs(2000);
  auto zero = run_cli("advise " + in + " --verify 0");
  EXPECT_EQ(zero.status, 2);
  EXPECT_TRUE(has(zero.out, "--verify: \"0\": expected an integer from 1 to 100000")) << zero.out;
  auto plot = run_cli("advise " + in + " --plot " + temp_path("p.png"));
  EXPECT_EQ(plot.status, 2);
  EXPECT_TRUE(has(plot.out, "--plot: draws the --verify sweep: give --verify N")) << plot.out;
  auto unknown = run_cli("advise " + in + " --protocols coordinated,nosuch");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_TRUE(has(unknown.out, "nosuch")) << unknown.out;
  auto trace = run_cli("advise " + in + " --event-trace t.jsonl");
  EXPECT_EQ(trace.status, 2);
  EXPECT_TRUE(has(trace.out, "advise makes many runs: trace one with `ckptsim run`")) << trace.out;
  auto cck = run_cli("advise " + in + " --protocol cck");
  EXPECT_EQ(cck.status, 2) << cck.out;
}
