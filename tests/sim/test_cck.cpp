/* Protocol cck end to end on the stencil application (CCK thesis chapters 4 and 5):
 *   - a wave costs exactly 2N + 3 sum(V_i) control messages, V_i computed from the graph here and
 *     by hand for small cases (boundary processes have fewer neighbours);
 *   - partial restarts leave a consistent state (0 oracle violations over 200 seeded runs with
 *     failures) and the stencil's result checksum equals the failure-free run's;
 *   - no non-failed process re-executes more than a global restart would, and a process that is
 *     not a data-flow ancestor of the failed one re-executes nothing;
 *   - coordinated runs the stencil too (global restart), with the same result. */
#include "protocols/cck/dataflow.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <numeric>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

json stencil_topology(int nodes, double mtbf) {
  json t = small_topology(1, nodes, mtbf);
  t["storage"] = {{"model", "servers"}, {"servers", 2}};
  t["failures"] = {{"downtime", 0.005}};
  return t;
}

json stencil_1d(int width, int iterations) {
  return {{"kind", "stencil"}, {"dims", 1}, {"width", width}, {"iterations", iterations}, {"task_cost", 0.001}};
}

RunConfig cck_config(json topology, json application, double period, std::uint64_t seed) {
  RunConfig c =
      make_config(std::move(topology), std::move(application), {{"default", {{"checkpoint_period", period}}}});
  c.options.protocol = "cck";
  c.options.seed = seed;
  return c;
}

/** sum(V_i) at a wave where every process still expects data from all its graph neighbours. */
long graph_sum_v(const dataflow::JacobiSpec& spec) {
  dataflow::Jacobi j(spec);
  auto v = dataflow::neighbour_counts(j.graph());
  return std::accumulate(v.begin(), v.end(), 0L);
}

void expect_wave_counts(const json& doc, int n, long expected_sum_v) {
  const auto& waves = doc["stats"]["series"]["cck.waves"];
  ASSERT_GE(waves.size(), 2u);
  for (const auto& w : waves) { // measured traffic = the formula with the V_i the processes reported
    const long sum_v = w["sum_v"].get<long>();
    EXPECT_EQ(w["messages"].get<double>(), 2.0 * n + 3.0 * sum_v) << w.dump();
  }
  // The first waves come long before the last iteration: every neighbour is still expected.
  EXPECT_EQ(waves[0]["sum_v"].get<long>(), expected_sum_v);
  EXPECT_EQ(waves[1]["sum_v"].get<long>(), expected_sum_v);
  const auto& counters = doc["stats"]["counters"];
  const double count = static_cast<double>(waves.size());
  EXPECT_EQ(counters["ctrl.INIT"].get<double>(), count * n);
  EXPECT_EQ(counters["ctrl.ACK"].get<double>(), count * n);
  EXPECT_EQ(counters["ctrl.PING"].get<double>(), counters["ctrl.PONG"].get<double>());
  EXPECT_EQ(counters["ctrl.PING"].get<double>(), counters["ctrl.CONT"].get<double>());
  EXPECT_EQ(doc["results"]["consistency"]["violations"], 0);
}

} // namespace

TEST(CckWave, MessageCountJacobi1d) {
  // 8 processes in a line: the two ends have one neighbour, the 6 others two: sum(V_i) = 14.
  auto r = run_in_child(cck_config(stencil_topology(8, INFINITY), stencil_1d(64, 40), 0.1, 1));
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(graph_sum_v({.dims = 1, .width = 64, .iterations = 40, .processes = 8}), 14);
  expect_wave_counts(r.document, 8, 14);
  EXPECT_EQ(r.document["stats"]["series"]["cck.waves"].size(), 3u); // at 0.1, 0.2, 0.3 s of a 0.32 s run
}

TEST(CckWave, MessageCountJacobi2d) {
  // 2 x 2 blocks of an 8 x 8 domain: each process has 2 neighbours, sum(V_i) = 8 (by hand).
  json app{{"kind", "stencil"}, {"dims", 2}, {"width", 8}, {"height", 8}, {"iterations", 60}, {"task_cost", 0.001}};
  auto r = run_in_child(cck_config(stencil_topology(4, INFINITY), app, 0.2, 1));
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(graph_sum_v({.dims = 2, .width = 8, .height = 8, .iterations = 60, .processes = 4}), 8);
  expect_wave_counts(r.document, 4, 8);

  // The thesis instance, 32 x 64 cells on 32 processes (a 4 x 8 grid of 8 x 8 blocks): 52 grid
  // edges, each counted by both ends.
  const dataflow::JacobiSpec thesis{.dims = 2, .width = 32, .height = 64, .iterations = 10, .processes = 32};
  ASSERT_EQ(graph_sum_v(thesis), 104);
  json big{{"kind", "stencil"}, {"dims", 2}, {"width", 32}, {"height", 64}, {"iterations", 10}, {"task_cost", 0.001}};
  auto r2 = run_in_child(cck_config(stencil_topology(32, INFINITY), big, 0.15, 1));
  ASSERT_EQ(r2.exit_status, 0) << r2.error;
  expect_wave_counts(r2.document, 32, 104);
}

TEST(CckRestart, TwoHundredRunsWithFailuresAreConsistentAndComputeTheSameResult) {
  // MTBF 1 s on a 0.8 s run: about half the runs have failures. (Much shorter MTBFs livelock, as
  // they would on a real machine: failures deferred during a restart strike again before the
  // next wave, so the recovery line never moves; the end date makes such a run fail, not hang.)
  const json app = stencil_1d(64, 100);
  RunConfig reference = cck_config(stencil_topology(8, INFINITY), app, 0.1, 1);
  reference.options.protocol = "none";
  auto ref = run_in_child(reference);
  ASSERT_EQ(ref.exit_status, 0) << ref.error;
  const auto checksum = ref.document["results"]["result_checksum"].get<std::uint64_t>();
  ASSERT_NE(checksum, 0u);

  int with_failures = 0, failures = 0, partial = 0;
  for (std::uint64_t seed = 1; with_failures < 200 && seed < 1000; seed++) {
    json application = app;
    if (seed % 3 == 0) application["schedule"] = "reorder";
    RunConfig c = cck_config(stencil_topology(8, 1.0), application, 0.1, seed);
    c.options.end_date = 20;
    if (seed % 2 == 0) c.options.params["reuse"] = "true";
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << "seed " << seed;
    EXPECT_EQ(res["consistency"]["violations"], 0) << "seed " << seed;
    EXPECT_EQ(res["result_checksum"].get<std::uint64_t>(), checksum) << "seed " << seed;
    const double f = res["failures"].get<double>();
    if (f == 0) continue;
    with_failures++;
    failures += static_cast<int>(f);
    for (const auto& e : r.document["stats"]["series"]["cck.restart"]) {
      if (e["failed"].get<bool>()) continue;
      EXPECT_LE(e["reexecuted"].get<int>(), e["global"].get<int>()) << "seed " << seed << " " << e.dump();
      partial += e["reexecuted"].get<int>() > 0;
    }
  }
  EXPECT_EQ(with_failures, 200);
  EXPECT_GT(failures, 220);
  EXPECT_GT(partial, 100); // non-failed processes did re-execute tasks: the check above was exercised
}

TEST(CckRestart, ProcessesThatAreNotAncestorsOfTheFailedOneReexecuteNothing) {
  // 8 processes of 16 cells: a value needs 16 iterations to cross a block, i.e. 16 x 16 ms of
  // computation. With a checkpoint every 100 ms and one failure, the work since the recovery
  // line spans fewer iterations: only the failed process' direct neighbours can hold tasks
  // whose results it needs again.
  const json app = stencil_1d(128, 30);
  int neighbours_reexecuting = 0;
  for (int k = 0; k < 40; k++) {
    const int victim = k % 8;
    const double date = 0.03 + 0.0113 * k;
    const std::string trace = temp_path("cck-failure-" + std::to_string(k) + ".txt");
    std::ofstream(trace) << date << " " << victim << "\n";
    json topo = stencil_topology(8, INFINITY);
    topo["failures"] = {{"model", "trace"}, {"trace", trace}, {"downtime", 0.005}};
    auto r = run_in_child(cck_config(topo, app, 0.1, 1));
    ASSERT_EQ(r.exit_status, 0) << r.error;
    ASSERT_EQ(r.document["results"]["failures"], 1) << "failure " << k;
    EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
    for (const auto& e : r.document["stats"]["series"]["cck.restart"]) {
      if (e["failed"].get<bool>()) continue;
      const int p = e["process"].get<int>();
      const int reexecuted = e["reexecuted"].get<int>();
      EXPECT_LE(reexecuted, e["global"].get<int>());
      if (std::abs(p - victim) >= 2) {
        EXPECT_EQ(reexecuted, 0) << "failure " << k << " process " << p;
      }
      if (std::abs(p - victim) == 1 && reexecuted > 0) neighbours_reexecuting++;
    }
    std::remove(trace.c_str());
  }
  EXPECT_GT(neighbours_reexecuting, 20); // the neighbours do re-execute: the rule is not vacuous
}

TEST(CckRestart, CoordinatedRunsTheStencilWithAGlobalRestartAndTheSameResult) {
  const json app = stencil_1d(64, 60);
  RunConfig reference = cck_config(stencil_topology(8, INFINITY), app, 0.1, 1);
  reference.options.protocol = "none";
  const auto checksum = run_in_child(reference).document["results"]["result_checksum"].get<std::uint64_t>();
  int with_failures = 0;
  for (std::uint64_t seed = 1; seed <= 30; seed++) {
    RunConfig c = cck_config(stencil_topology(8, 0.4), app, 0.1, seed);
    c.options.protocol = "coordinated";
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << r.error;
    EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0) << seed;
    EXPECT_EQ(r.document["results"]["result_checksum"].get<std::uint64_t>(), checksum) << seed;
    with_failures += r.document["results"]["failures"].get<double>() > 0;
  }
  EXPECT_GT(with_failures, 15);
}

TEST(CckInput, NeedsAStencilApplicationAndABooleanReuse) {
  RunConfig c = make_config(small_topology(1, 4, INFINITY), small_application(1, 1.0, 10.0, 0.1, 0.0));
  c.application_file = "app.json";
  c.options.protocol = "cck";
  auto r = run_in_child(c);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("app.json: /kind: protocol \"cck\" needs a data-flow application"), std::string::npos)
      << r.error;
  RunConfig d = cck_config(stencil_topology(4, INFINITY), stencil_1d(16, 4), 0.1, 1);
  d.options.params["reuse"] = "maybe";
  auto r2 = run_in_child(d);
  EXPECT_EQ(r2.exit_status, 2);
  EXPECT_NE(r2.error.find("--param reuse: expected true or false"), std::string::npos) << r2.error;
}
