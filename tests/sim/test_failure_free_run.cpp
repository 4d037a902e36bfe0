/* The overhead of a run whose processes wait for each other (issue 35, item 1): measured against a
 * failure-free simulation of the same inputs under protocol none, which `ckptsim run` makes first,
 * not against the longest computation (an MPI trace without failures showed 3697 % overhead).
 * Times by hand: one cluster of 2 nodes, SAN 10 us / 80 MB/s, CM02; rank 0 computes 1 s (1e9 flops
 * at 1 Gf) and sends 1,000 bytes that rank 1 waits for, then rank 1 computes 1 s. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fstream>

using namespace ckptsim::test_support;

namespace {
struct Inputs {
  std::string args;
};

Inputs waiting_trace() {
  const std::string dir = temp_folder("failure-free-run");
  std::ofstream(dir + "/app.ti") << "0 compute 1e9\n0 send 1 0 1000 2\n1 recv 0 0 1000 2\n1 compute 1e9\n";
  std::ofstream(dir + "/application.json") << R"({"kind": "mpi-trace", "trace": "app.ti"})";
  std::ofstream(dir + "/topology.json") << small_topology(1, 2, INFINITY).dump();
  return {" --topology " + dir + "/topology.json --application " + dir + "/application.json --network-model CM02"};
}

nlohmann::json results_of(const std::string& args) {
  const std::string out = temp_path("failure-free-run.json");
  const auto o = run_cli("run --quiet --output " + out + args);
  EXPECT_EQ(o.status, 0) << o.out;
  std::ifstream in(out);
  return nlohmann::json::parse(in)["results"];
}
} // namespace

TEST(FailureFreeRun, AnMpiTracesOverheadIsMeasuredAgainstAFailureFreeSimulation) {
  const Inputs in = waiting_trace();
  // A message of B bytes: 10e-6 + (B + 16 + 8) / 80e6 s (SMPI's envelope, protocol none's epoch).
  const double makespan = 2 + 10e-6 + (1000 + 24) / 80e6;
  auto r = results_of(" --protocol none" + in.args);
  EXPECT_NEAR(r["makespan"].get<double>(), makespan, 1e-9);
  EXPECT_EQ(r["failure_free_from"], "simulation");
  EXPECT_NEAR(r["failure_free_time"].get<double>(), makespan, 1e-9);
  EXPECT_NEAR(r["overhead_pct"].get<double>(), 0, 1e-9);
  // Against the computation alone (1 s, the longest rank's), the waiting looks like overhead.
  r = results_of(" --protocol none --failure-free-run false" + in.args);
  EXPECT_EQ(r["failure_free_from"], "computation");
  EXPECT_NEAR(r["failure_free_time"].get<double>(), 1, 1e-9);
  EXPECT_NEAR(r["overhead_pct"].get<double>(), 100 * (makespan - 1), 1e-6);
}

TEST(FailureFreeRun, AStochasticApplicationKeepsItsComputationAsReference) {
  // Its processes never wait for a message: the computation is its failure-free duration, and
  // no failure-free simulation is run.
  auto r = results_of(" --set application/total_time=1h --set topology/mtbf=inf --protocol none");
  EXPECT_EQ(r["failure_free_from"], "computation");
  EXPECT_NEAR(r["failure_free_time"].get<double>(), 3600, 1e-9);
}
