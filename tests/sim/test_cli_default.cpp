/* The command line: the default scenario runs from any folder and prints its summary; the
 * results file carries the run's parameters; `protocols` lists none; an unknown protocol is an
 * input error listing the valid ones. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <sys/wait.h>

using namespace ckptsim::test_support;

namespace {
using Output = CliOutput;
Output run_ckptsim(const std::string& args) { return run_cli("" + args); }
} // namespace

TEST(Cli, DefaultScenarioRunsAndPrintsItsSummary) {
  const std::string out = temp_path("default.json");
  auto o = run_ckptsim("--seed 2 --output " + out);
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("200 nodes in 2 clusters"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("makespan"), std::string::npos);
  EXPECT_NE(o.out.find("Sender cluster"), std::string::npos);
  EXPECT_NE(o.out.find("0 violations"), std::string::npos);
  std::ifstream in(out);
  auto doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["run"]["protocol"], "hc3i"); // the embedded default scenario runs HC3I
  EXPECT_EQ(doc["run"]["seed"], 2);
  EXPECT_EQ(doc["inputs"]["topology"]["mtbf"], "10h");
  // The default application is calibrated on the HC3I table (2920 / 2497 / 145 / 11 per 10 h);
  // with failures the re-executions add to it, so only the failure-free part is checked here.
  EXPECT_GT(doc["results"]["app_messages_sent"].get<double>(), 5000);
}

TEST(Cli, DefaultScenarioMessageMatrixIsNearThePapersTable) {
  auto o = run_ckptsim("--set topology/mtbf=inf --quiet --output " + temp_path("m.json"));
  ASSERT_EQ(o.status, 0) << o.out;
  const std::string out = temp_path("matrix.json");
  ASSERT_EQ(run_ckptsim("--set topology/mtbf=inf --quiet --output " + out).status, 0);
  std::ifstream in(out);
  auto m = nlohmann::json::parse(in)["stats"]["matrices"]["app.messages"];
  // Poisson counts: 3 standard deviations of each expected count.
  EXPECT_NEAR(m[0][0].get<double>(), 2920, 3 * std::sqrt(2920));
  EXPECT_NEAR(m[1][1].get<double>(), 2497, 3 * std::sqrt(2497));
  EXPECT_NEAR(m[0][1].get<double>(), 145, 3 * std::sqrt(145));
  EXPECT_NEAR(m[1][0].get<double>(), 11, 3 * std::sqrt(11) + 1);
}

TEST(Cli, ProtocolsListsNoneAndUnknownProtocolFails) {
  auto list = run_ckptsim("protocols");
  ASSERT_EQ(list.status, 0);
  EXPECT_NE(list.out.find("none"), std::string::npos);
  EXPECT_NE(list.out.find("checkpoint_period"), std::string::npos);
  auto bad = run_ckptsim("--protocol nosuch");
  EXPECT_EQ(bad.status, 2);
  // The valid names are listed (the list grows with the protocols: checked by name).
  EXPECT_NE(bad.out.find("unknown protocol \"nosuch\" (valid protocols: "), std::string::npos) << bad.out;
  for (const char* name : {"cck", "coordinated", "hc3i", "independent", "msglog", "none"})
    EXPECT_NE(bad.out.find(name, bad.out.find("valid protocols")), std::string::npos) << name << "\n" << bad.out;
}

TEST(Cli, PlatformXmlRoundTripGivesTheSameTimes) {
  const std::string xml = temp_path("fed.xml");
  ASSERT_EQ(run_ckptsim("platform --output " + xml).status, 0);
  // Same scenario, hosts and network from the XML: the same statistics (failures off).
  const std::string a = temp_path("a.json"), b = temp_path("b.json");
  // Protocol none: the XML carries the network, not the topology's checkpoint sizes.
  ASSERT_EQ(run_ckptsim("--protocol none --set topology/mtbf=inf --quiet --output " + a).status, 0);
  std::string app = std::string(CKPTSIM_SOURCE_DIR) + "/workloads/default/application.json";
  auto o = run_ckptsim("--protocol none --platform " + xml + " --application " + app + " --quiet --output " + b);
  ASSERT_EQ(o.status, 0) << o.out;
  std::ifstream ia(a), ib(b);
  auto da = nlohmann::json::parse(ia), db = nlohmann::json::parse(ib);
  EXPECT_EQ(da["results"]["makespan"], db["results"]["makespan"]);
  EXPECT_EQ(da["stats"]["matrices"], db["stats"]["matrices"]);
  EXPECT_EQ(db["run"]["nodes"], 200);
}

TEST(Cli, CsvOutputIsOneRowWithTheRunParameters) {
  const std::string out = temp_path("r.csv");
  ASSERT_EQ(run_ckptsim("--set topology/mtbf=inf --end 1h --quiet --output " + out).status, 0);
  std::ifstream in(out);
  std::string header, row, extra;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_FALSE(std::getline(in, extra));
  EXPECT_NE(header.find("run.protocol"), std::string::npos);
  EXPECT_NE(header.find("results.makespan"), std::string::npos);
  EXPECT_NE(header.find("stats.matrices.app.messages.0.1"), std::string::npos);
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), std::count(row.begin(), row.end(), ','));
  EXPECT_NE(row.find("stopped at the end date"), std::string::npos) << row;
}

TEST(Cli, TheFirstRunShowsRecoveriesAndHowToDrawThem) {
  // `ckptsim` with no argument: the default seed (2) gives the default scenario failures, and the
  // summary ends with the commands that write this very run's event trace and draw it.
  auto o = run_ckptsim("");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("seed 2,"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("failures           3 "), std::string::npos) << o.out;
  // Process rollbacks, and the recoveries with their mean time (the results' recovery_time is their sum).
  EXPECT_NE(o.out.find("rollbacks          500 process rollbacks, lost work"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("recoveries         3, 70.1042 s each on average (210.312 s in all)"), std::string::npos)
      << o.out;
  const auto see = o.out.find("See this run");
  ASSERT_NE(see, std::string::npos) << o.out;
  EXPECT_NE(o.out.find("See this run: write its event trace"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(" run --event-trace run.jsonl\n", see), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("/plots/spacetime.py run.jsonl -o run.png\n", see), std::string::npos) << o.out;
  // Writing its event trace, or quiet, a run does not say it.
  auto traced = run_ckptsim("--set application/total_time=10min --event-trace " + temp_path("seen.jsonl"));
  ASSERT_EQ(traced.status, 0) << traced.out;
  EXPECT_EQ(traced.out.find("See this run"), std::string::npos) << traced.out;
}
