/* Runs on the platforms of platforms/, given with --platform alone and the one-entry application
 * file written for any platform: `none` and `coordinated`, both with failures, complete with no
 * consistency violation on every shape (the coordinator on the controller ckptsim adds talks to
 * every node); the XML `ckptsim platform` writes runs exactly as the topology it came from; the
 * command line's platform options and their mistakes (exit 2, file and reason); a "*" entry runs
 * exactly as its explicit equivalent. */
#include "sim/config/topology.hpp"
#include "sim/platform/platform.hpp"
#include "sim/scenario/readers.hpp"
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

const std::string kPlatformDir = std::string(CKPTSIM_SOURCE_DIR) + "/platforms/";
const std::string kAnyApplication = kPlatformDir + "any-platform.application.json";

struct ShippedPlatform {
  std::string file;
  int nodes;
  int failure_free_s; // of the application cut to 20 min of work at 1 Gf, at the platform's slowest node
};

void PrintTo(const ShippedPlatform& p, std::ostream* os) { *os << p.file; }

class ShippedPlatformRuns : public testing::TestWithParam<ShippedPlatform> {
 protected:
  // A run with failures (MTBF @p mtbf_s, recovery times of seconds) and a checkpoint every tenth of
  // the failure-free time; its results document.
  nlohmann::json run(const std::string& protocol, int mtbf_s) {
    const ShippedPlatform& p = GetParam();
    const std::string out = temp_path("platform-run.json");
    const auto o = run_cli(fmt::format(
        "run --protocol {} --platform {} --application {} --set application/total_time=20min --set topology/mtbf={} "
        "--set 'topology/failures={{\"downtime\":\"10s\",\"detection_delay\":\"1s\",\"restart_overhead\":\"5s\"}}' "
        "--set 'timers/default={{\"checkpoint_period\":{}}}' --seed 1 --quiet --output {}",
        protocol, kPlatformDir + p.file, kAnyApplication, mtbf_s, p.failure_free_s / 10, out));
    EXPECT_EQ(o.status, 0) << o.out;
    std::ifstream in(out);
    return nlohmann::json::parse(in);
  }
};

// Runs @p a and @p b (with failures) and expects the same results and statistics; returns @p a's.
ChildResult expect_same_runs(const RunConfig& a, const RunConfig& b) {
  const ChildResult ra = run_in_child(a);
  const ChildResult rb = run_in_child(b);
  EXPECT_EQ(ra.exit_status, 0) << ra.error;
  EXPECT_EQ(rb.exit_status, 0) << rb.error;
  EXPECT_GT(ra.document["results"]["failures"].get<double>(), 0);
  EXPECT_EQ(without_wall_clock(ra.document)["results"], without_wall_clock(rb.document)["results"]);
  EXPECT_EQ(ra.document["stats"], rb.document["stats"]);
  return ra;
}

} // namespace

TEST_P(ShippedPlatformRuns, NoneRestartsFromScratchAndCompletes) {
  const auto doc = run("none", GetParam().failure_free_s / 2);
  EXPECT_EQ(doc["run"]["nodes"], GetParam().nodes);
  // Each node computes at its own host's speed: the slowest one sets the failure-free time.
  EXPECT_DOUBLE_EQ(doc["results"]["failure_free_time"].get<double>(), GetParam().failure_free_s);
  EXPECT_EQ(doc["results"]["status"], "completed");
  EXPECT_GT(doc["results"]["failures"].get<double>(), 0);
  EXPECT_EQ(doc["results"]["consistency"]["violations"], 0);
  EXPECT_EQ(doc["run"]["checkpoint_servers"], 1);
}

TEST_P(ShippedPlatformRuns, CoordinatedRollsBackEveryNodeAndCompletes) {
  const auto doc = run("coordinated", GetParam().failure_free_s / 4);
  EXPECT_EQ(doc["results"]["status"], "completed");
  EXPECT_GT(doc["results"]["failures"].get<double>(), 0);
  EXPECT_GT(doc["results"]["control_messages"].get<double>(), 0);
  EXPECT_EQ(doc["results"]["consistency"]["violations"], 0);
  // Every failure rolls every node back: the coordinator reached them all.
  EXPECT_EQ(doc["results"]["rolled_back_per_failure"], GetParam().nodes);
}

INSTANTIATE_TEST_SUITE_P(Platforms, ShippedPlatformRuns,
                         testing::Values(ShippedPlatform{"federation.xml", 48, 150},
                                         ShippedPlatform{"topologies.xml", 24, 300},
                                         ShippedPlatform{"fat-tree.xml", 16, 600},
                                         ShippedPlatform{"routed-zones.xml", 7, 1200},
                                         ShippedPlatform{"flat-routers.xml", 8, 1200}),
                         [](const testing::TestParamInfo<ShippedPlatform>& info) {
                           std::string name = info.param.file.substr(0, info.param.file.find('.'));
                           std::erase(name, '-');
                           return name;
                         });

TEST(PlatformCli, ClustersAtAndControllerOptions) {
  const std::string out = temp_path("sites.json");
  auto o =
      run_cli("run --protocol none --platform " + kPlatformDir + "federation.xml --clusters-at sites --controller " +
              "lyon-a-0 --application " + kAnyApplication + " --quiet --output " + out);
  ASSERT_EQ(o.status, 0) << o.out;
  std::ifstream in(out);
  const auto doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["run"]["clusters"], 3);
  EXPECT_EQ(doc["run"]["nodes"], 47); // lyon-a-0 is the controller
  EXPECT_EQ(doc["inputs"]["topology"]["clusters_at"], "sites");
  EXPECT_EQ(doc["inputs"]["topology"]["controller"], nlohmann::json({{"host", "lyon-a-0"}}));
}

TEST(PlatformCli, MistakesExitWithStatus2NamingTheFileAndTheReason) {
  const std::string app = " --application " + kAnyApplication;
  auto unknown_level = run_cli("run --platform " + kPlatformDir + "federation.xml --clusters-at racks" + app);
  EXPECT_EQ(unknown_level.status, 2);
  EXPECT_NE(unknown_level.out.find("ckptsim: command line: --clusters-at: unknown level \"racks\""), std::string::npos)
      << unknown_level.out;
  auto no_sites = run_cli("run --platform " + kPlatformDir + "fat-tree.xml --clusters-at sites" + app);
  EXPECT_EQ(no_sites.status, 2);
  EXPECT_NE(no_sites.out.find("fat-tree.xml: /: no site level"), std::string::npos) << no_sites.out;
  auto no_host = run_cli("run --platform " + kPlatformDir + "fat-tree.xml --controller node-16" + app);
  EXPECT_EQ(no_host.status, 2);
  EXPECT_NE(no_host.out.find("fat-tree.xml: /: no host named \"node-16\" in this platform"), std::string::npos)
      << no_host.out;
  auto no_platform = run_cli("run --controller node-1" + app);
  EXPECT_EQ(no_platform.status, 2);
  EXPECT_NE(no_platform.out.find("command line: --controller: only meaningful with a platform XML"), std::string::npos)
      << no_platform.out;
  const std::string empty = temp_path("empty-platform.xml");
  std::ofstream(empty) << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                          "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"/></platform>\n";
  auto nothing = run_cli("run --platform " + empty + app);
  EXPECT_EQ(nothing.status, 2);
  EXPECT_NE(nothing.out.find(empty + ": /: no host to run the application on"), std::string::npos) << nothing.out;
}

TEST(EveryOtherCluster, ARunIsThatOfTheEquivalentExplicitFile) {
  json topology = small_topology(3, 2, 1800);
  topology["clusters"][2]["nodes"] = 4;
  json star = json::parse(R"({"kind": "stochastic", "total_time": "2h", "clusters": [
      {"cluster": "*", "compute": "1min", "send": {"same": 0.25, "other": 0.75}}]})");
  json explicit_file = json::parse(R"({"kind": "stochastic", "total_time": "2h", "clusters": [
      {"cluster": "c0", "compute": "1min", "send": {"c0": 0.25, "c1": 0.25, "c2": 0.5}},
      {"cluster": "c1", "compute": "1min", "send": {"c0": 0.25, "c1": 0.25, "c2": 0.5}},
      {"cluster": "c2", "compute": "1min", "send": {"c0": 0.375, "c1": 0.375, "c2": 0.25}}]})");
  RunConfig a = make_config(topology, star);
  RunConfig b = make_config(topology, explicit_file);
  a.options.protocol = b.options.protocol = "coordinated";
  a.timers_doc = b.timers_doc = json::parse(R"({"default": {"checkpoint_period": "20min"}})");
  const ChildResult ra = expect_same_runs(a, b);
  // Messages between every pair of clusters, the same (and there are some between every pair).
  const auto& m = ra.document["stats"]["matrices"]["app.messages"];
  for (const auto& row : m)
    for (const auto& count : row) EXPECT_GT(count.get<double>(), 0);
}

TEST(PlatformXmlRoundTrip, TheXmlOfATopologyRunsExactlyAsTheTopologyWithFailures) {
  json topology = small_topology(2, 12, 1200);
  topology["clusters"][1]["nodes"] = 5;
  topology["failures"] = json::parse(R"({"downtime": "1min", "detection_delay": "1s", "restart_overhead": "10s"})");
  const std::string xml = temp_path("round-trip.xml");
  std::ofstream(xml) << ckptsim::platform_xml(ckptsim::parse_topology(topology, "t.json", ""));
  json from_xml{{"platform", xml}, {"mtbf", topology["mtbf"]}, {"failures", topology["failures"]}};
  const json application = small_application(2, 60, 7200, 0.2, 0.05);
  const json timers = json::parse(R"({"default": {"checkpoint_period": "20min"}})");
  RunConfig a = make_config(topology, application, timers);
  RunConfig b = make_config(from_xml, application, timers);
  a.options.protocol = b.options.protocol = "coordinated";
  expect_same_runs(a, b);
}
