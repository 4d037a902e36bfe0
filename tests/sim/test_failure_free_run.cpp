/* The overhead of a run whose processes wait for each other (issue 35, item 1): measured against a
 * failure-free simulation of the same inputs under protocol none, which `ckptsim run` makes first,
 * not against the longest computation (an MPI trace without failures showed 3697 % overhead).
 * Times by hand: one cluster of 2 nodes, SAN 10 us / 80 MB/s, CM02; rank 0 computes 1 s (1e9 flops
 * at 1 Gf) and sends 1,000 bytes that rank 1 waits for, then rank 1 computes 1 s. */
#include "sim/cli/failure_free.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace ckptsim;
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

TEST(FailureFreeRun, CommandsOfManyRunsShareOneReferenceSimulationPerInputs) {
  // compare, sweep and advise name a cache folder before they fork their runs: runs whose
  // failure-free inputs are the same (here two protocols at one seed) read the reference the
  // first one simulated, runs of other inputs (another seed) simulate their own.
  const std::string dir = temp_folder("failure-free-cache");
  std::ofstream(dir + "/app.ti") << "0 compute 1e9\n0 send 1 0 1000 2\n1 recv 0 0 1000 2\n1 compute 1e9\n";
  RunConfig config = make_config(small_topology(1, 2, 3600), {{"kind", "mpi-trace"}, {"trace", dir + "/app.ti"}});
  config.options.network_model = "CM02";
  const double makespan = 2 + 10e-6 + (1000 + 24) / 80e6;
  auto files = [](const std::string& d) {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(d)) out.push_back(e.path());
    return out;
  };
  const std::string cache_dir = dir + "/cache";
  {
    const cli::FailureFreeCache cache(cache_dir);
    EXPECT_NEAR(cli::failure_free_makespan(config, "ckptsim", {}), makespan, 1e-9);
    const auto stored = files(cache_dir);
    ASSERT_EQ(stored.size(), 1u);
    // The next run of the same inputs reads the file (altered here to tell it from a simulation),
    // whatever its protocol and failures.
    std::ifstream in(stored[0]);
    auto doc = nlohmann::json::parse(in);
    doc["makespan"] = 123.0;
    std::ofstream(stored[0]) << doc.dump();
    RunConfig other_protocol = config;
    other_protocol.options.protocol = "coordinated";
    other_protocol.options.params["unit"] = "cluster";
    EXPECT_DOUBLE_EQ(cli::failure_free_makespan(other_protocol, "ckptsim", {}), 123.0);
    // Another seed is other inputs: a simulation of its own, a file of its own.
    RunConfig other_seed = config;
    other_seed.options.seed = 7;
    EXPECT_NEAR(cli::failure_free_makespan(other_seed, "ckptsim", {}), makespan, 1e-9);
    EXPECT_EQ(files(cache_dir).size(), 2u);
    // A file whose key is not the inputs' (a hash collision) is not used.
    doc["key"] = "something else";
    std::ofstream(stored[0]) << doc.dump();
    EXPECT_NEAR(cli::failure_free_makespan(config, "ckptsim", {}), makespan, 1e-9);
  }
  EXPECT_FALSE(std::filesystem::exists(cache_dir)) << "the folder goes with the cache";
  // Without a cache (a lone `ckptsim run`): simulated each time, nothing written.
  EXPECT_NEAR(cli::failure_free_makespan(config, "ckptsim", {}), makespan, 1e-9);
  EXPECT_FALSE(std::filesystem::exists(cache_dir));
}
