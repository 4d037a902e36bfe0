/* MPI traces replayed by whole simulations: a ping-pong whose makespan is computed by hand, the
 * shipped traces against the simulated times SMPI's own replay gives on the same platform XML
 * (workloads/mpi/smpi_reference.csv), and every protocol replaying the shipped traces through
 * seeded failures with 0 oracle violations and the failure-free result. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

const std::string kMpiDir = CKPTSIM_SOURCE_DIR "/workloads/mpi";

json mpi_application(const std::string& trace, json extra = json::object()) {
  json a{{"kind", "mpi-trace"}, {"trace", trace}};
  a.update(extra);
  return a;
}

// SMPI's simulated time of each shipped trace on each shipped platform.
std::map<std::pair<std::string, std::string>, double> smpi_reference() {
  std::ifstream in(kMpiDir + "/smpi_reference.csv");
  std::map<std::pair<std::string, std::string>, double> ref;
  std::string line;
  std::getline(in, line); // header
  while (std::getline(in, line)) {
    std::stringstream s(line);
    std::string trace, platform, ranks, time;
    std::getline(s, trace, ',');
    std::getline(s, platform, ',');
    std::getline(s, ranks, ',');
    std::getline(s, time, ',');
    ref[{trace, platform}] = std::stod(time);
  }
  return ref;
}

} // namespace

TEST(MpiTraceRuns, PingPongTakesTheTimeComputedByHand) {
  // One cluster, SAN 10 us / 80 MB/s, CM02 (latency + size / bandwidth): each 1 MB message, with
  // SMPI's 16-byte envelope and protocol none's 8-byte epoch, takes 10e-6 + 1000024 / 80e6 s. Rank 0 computes 2 s (2e9
  // flops at 1 Gf) and sends; rank 1, done computing at 1 s, answers at once.
  RunConfig c =
      make_config(small_topology(1, 2, INFINITY), mpi_application(CKPTSIM_SOURCE_DIR "/tests/data/mpi/pingpong.ti"));
  c.options.network_model = "CM02";
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const double message = 10e-6 + 1000024 / 80e6;
  EXPECT_NEAR(r.document["results"]["makespan"].get<double>(), 2 + 2 * message, 1e-9);
  EXPECT_EQ(r.document["run"]["network_model"], "CM02");
  // Without a choice the mpi-trace kind runs SMPI's network model.
  c.options.network_model.clear();
  auto s = run_in_child(c);
  ASSERT_EQ(s.exit_status, 0) << s.error;
  EXPECT_EQ(s.document["run"]["network_model"], "SMPI");
}

TEST(MpiTraceRuns, ABadTraceIsAnInputErrorBeforeAnythingIsWritten) {
  // From the command line, in another folder: exit 2, the trace's file and line, no output file.
  const std::string trace = temp_path("mt_cli_bad.ti");
  std::ofstream(trace) << "0 init\n1 init\n0 send 1 0 10\n1 compute 1e9\n";
  const std::string app = temp_path("mt_cli_bad.json");
  std::ofstream(app) << json{{"kind", "mpi-trace"}, {"trace", trace}}.dump();
  const std::string out = temp_path("mt_cli_bad_out.json");
  auto r = run_cli("run --protocol coordinated --application " + app + " --output " + out);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find(trace + ": line 3: rank 0's send to rank 1 (tag 0) has no matching receive in rank 1's trace"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(std::ifstream(out).good()) << "an output was written";
  // The shipped application files run from anywhere: their traces are relative to them.
  auto ok = run_cli("run --protocol none --quiet --application " + kMpiDir + "/cg.application.json --topology " +
                    kMpiDir + "/platforms/two-clusters.json");
  EXPECT_EQ(ok.status, 0) << ok.out;
}

TEST(MpiTraceRuns, ShippedTracesAgreeWithSmpiReplay) {
  // Failure-free, protocol none, on the very platform XML SMPI replayed on (docs/MODEL.md, "MPI
  // traces", explains the differences). jacobi2d and cg post their receives before the matching
  // sends: ckptsim's eager transfers then move the data when SMPI does, within 5 %.
  const auto ref = smpi_reference();
  for (const std::string trace : {"jacobi2d", "cg"})
    for (const std::string platform : {"two-clusters", "four-clusters"}) {
      json topo{{"platform", kMpiDir + "/platforms/" + platform + ".xml"}};
      RunConfig c = make_config(topo, mpi_application(kMpiDir + "/traces/" + trace + "/" + trace + ".ti"));
      auto r = run_in_child(c);
      ASSERT_EQ(r.exit_status, 0) << trace << " on " << platform << ": " << r.error;
      const double smpi = ref.at({trace, platform});
      const double ours = r.document["results"]["makespan"].get<double>();
      EXPECT_NEAR(ours / smpi, 1, 0.05) << trace << " on " << platform << ": ckptsim " << ours << " s, SMPI " << smpi;
    }
}

TEST(MpiTraceRuns, CoordinatedCheckpointsAtTheTracesCollectives) {
  // The LAM/MPI paper's rule (coordinated, trigger collective) on cg: every wave starts when rank
  // 0 reaches a collective of the trace (its allreduces), none from the period alone.
  json topo = small_topology(2, 8, 5.0);
  for (auto& cl : topo["clusters"]) cl["checkpoint_size"] = "1MB";
  RunConfig c = make_config(
      topo, mpi_application(kMpiDir + "/traces/cg/cg.ti", {{"compute_scale", 5000}, {"placement", "round-robin"}}),
      {{"default", {{"checkpoint_period", 2}}}});
  c.options.protocol = "coordinated";
  c.options.params["trigger"] = "collective";
  c.options.seed = 4;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  EXPECT_GT(r.document["results"]["failures"].get<int>(), 0);
  EXPECT_GE(counter(r, "coordinated.waves_collective"), 5);
  EXPECT_EQ(counter(r, "coordinated.waves_collective"), counter(r, "coordinated.waves_started"));
}

// The shipped jacobi2d and cg traces (16 ranks, computations x 5000: about 14 s of work) on
// 2 x 8 nodes, federation MTBF 5 s, checkpoints every 2 s: seeds until 100 runs had failures, the
// protocol's variants taking turns.
class MpiTraceThroughFailures : public ::testing::TestWithParam<std::string> {};

TEST_P(MpiTraceThroughFailures, HundredFailingRunsKeepTheStateConsistentAndTheResult) {
  const std::string protocol = GetParam();
  const std::map<std::string, std::vector<std::map<std::string, std::string>>> variants{
      {"none", {{}}},
      {"coordinated", {{}}},
      {"hc3i", {{}, {{"transitive", "true"}}}},
      {"independent", {{{"unit", "process"}}, {{"unit", "cluster"}}}},
      {"msglog", {{{"variant", "pessimistic"}}, {{"variant", "causal"}}, {{"variant", "optimistic"}}}},
  };
  std::map<std::string, json> failure_free;
  for (const std::string trace : {"jacobi2d", "cg"}) {
    RunConfig c = make_config(small_topology(2, 8, INFINITY),
                              mpi_application(kMpiDir + "/traces/" + trace + "/" + trace + ".ti",
                                              {{"compute_scale", 5000}, {"placement", "round-robin"}}));
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << r.error;
    failure_free[trace] = r.document["results"]["result_checksum"];
  }
  const auto& mine = variants.at(protocol);
  int failing = 0;
  for (int seed = 1; failing < 100 && seed <= 150; seed++) {
    const std::string trace = seed % 2 ? "jacobi2d" : "cg";
    json topo = small_topology(2, 8, 5.0);
    for (auto& cl : topo["clusters"]) cl["checkpoint_size"] = "1MB";
    RunConfig c = make_config(topo,
                              mpi_application(kMpiDir + "/traces/" + trace + "/" + trace + ".ti",
                                              {{"compute_scale", 5000}, {"placement", "round-robin"}}),
                              {{"default", {{"checkpoint_period", 2}, {"gc_period", 6}}}});
    c.options.protocol = protocol;
    c.options.params = mine[static_cast<std::size_t>(seed) % mine.size()];
    c.options.seed = static_cast<std::uint64_t>(seed);
    c.options.end_date = 100000;
    auto r = run_in_child(c);
    const std::string what = protocol + (c.options.params.empty() ? "" : " " + c.options.params.begin()->second) +
                             " seed " + std::to_string(seed) + " " + trace;
    ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << what;
    EXPECT_EQ(res["consistency"]["violations"].get<int>(), 0) << what;
    EXPECT_EQ(res["result_checksum"], failure_free[trace]) << what;
    failing += res["failures"].get<int>() > 0;
  }
  EXPECT_EQ(failing, 100) << protocol << ": fewer than 100 of 150 seeds drew a failure";
}

INSTANTIATE_TEST_SUITE_P(Protocols, MpiTraceThroughFailures,
                         ::testing::Values("none", "coordinated", "hc3i", "independent", "msglog"));
