/* The worked example of the HC3I report (section 4, figure 4), shipped as a scripted scenario
 * under workloads/hc3i/figure4: every decision the text describes is read back from the trace
 * alone: which message forces which CLC, the DDVs committed, which clusters roll back to which
 * SN, and which logged message is re-sent. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <tuple>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {
const std::string kFigure4Dir = std::string(CKPTSIM_SOURCE_DIR) + "/workloads/hc3i/figure4/";

json load_figure4(const std::string& name) { return json::parse(std::ifstream(kFigure4Dir + name)); }

struct Figure4 : ::testing::Test {
  static void SetUpTestSuite() {
    application = load_figure4("application.json");
    RunConfig c = make_config(load_figure4("topology.json"), application, load_figure4("timers.json"));
    c.topology_file = kFigure4Dir + "topology.json";
    c.options.protocol = "hc3i";
    c.options.trace_file = temp_path("figure4.jsonl");
    c.options.trace_level = 1;
    result = run_in_child(c);
    trace = read_trace(c.options.trace_file);
    for (const auto& e : trace)
      if (e["ev"] == "failure") failure_date = e["t"].get<double>();
  }
  static std::vector<json> before_failure(const std::string& ev) {
    std::vector<json> out;
    for (const auto& e : trace)
      if (e["ev"] == ev && e["t"].get<double>() < failure_date) out.push_back(e);
    return out;
  }
  // Events of the recovery: from the failure to recovery_done.
  static std::vector<json> recovery(const std::string& ev) {
    std::vector<json> out;
    bool in = false;
    for (const auto& e : trace) {
      if (e["ev"] == "failure") in = true;
      if (in && e["ev"] == ev) out.push_back(e);
      if (e["ev"] == "recovery_done") break;
    }
    return out;
  }
  static inline json application;
  static inline ChildResult result;
  static inline std::vector<json> trace;
  static inline double failure_date = 0;
};
} // namespace

TEST_F(Figure4, RunsConsistently) {
  ASSERT_EQ(result.exit_status, 0) << result.error;
  EXPECT_EQ(result.document["results"]["status"], "completed");
  EXPECT_EQ(result.document["results"]["failures"], 1);
  EXPECT_EQ(result.document["results"]["consistency"]["violations"], 0);
}

TEST_F(Figure4, MessagesForceTheClcsOfTheText) {
  // m1 forces a CLC in cluster 2; m2 (same SN as DDV[1]) does not; m3, m4, m5 force CLCs in
  // clusters 3, 3 and 1.
  std::map<std::string, int> forced;
  for (const auto& e : before_failure("clc_forced")) forced[e["label"].get<std::string>()] = e["cluster"].get<int>();
  std::map<std::string, int> expected;
  for (const auto& [label, cluster] : application["expected"]["forced_clcs"].items())
    expected[label] = cluster.get<int>();
  EXPECT_EQ(forced, expected);
  EXPECT_EQ(forced.count("m2"), 0u);
}

TEST_F(Figure4, CommittedClcsAndDdvsBeforeTheFailure) {
  // (cluster, SN, DDV, forced) of every CLC committed before the failure, as in the figure.
  std::set<std::tuple<int, int, std::vector<int>, bool>> got;
  for (const auto& e : before_failure("ckpt_commit"))
    got.insert(
        {e["cluster"].get<int>(), e["sn"].get<int>(), e["ddv"].get<std::vector<int>>(), e["forced"].get<bool>()});
  const std::set<std::tuple<int, int, std::vector<int>, bool>> expected{
      {0, 1, {1, 0, 0}, false}, {0, 2, {2, 0, 0}, false}, {0, 3, {3, 0, 4}, true},  {1, 1, {0, 1, 0}, false},
      {1, 2, {1, 2, 0}, true},  {1, 3, {1, 3, 0}, false}, {2, 1, {0, 0, 1}, false}, {2, 2, {0, 0, 2}, false},
      {2, 3, {0, 3, 3}, true},  {2, 4, {2, 3, 4}, true}};
  EXPECT_EQ(got, expected);
}

TEST_F(Figure4, RollbacksReachTheRecoveryLineOfTheText) {
  // Cluster 2 back to SN 3 (its last CLC); cluster 3 and then cluster 1 back to their CLC 3.
  std::map<int, std::vector<int>> rolled; // cluster -> SNs it went back to
  for (const auto& e : recovery("cluster_rollback")) rolled[e["cluster"].get<int>()].push_back(e["to_sn"].get<int>());
  const auto& exp = application["expected"]["failed_cluster_rollback"];
  EXPECT_EQ(rolled[exp["cluster"].get<int>()], std::vector<int>{exp["to_sn"].get<int>()});
  EXPECT_EQ(rolled[2], std::vector<int>{3});
  EXPECT_EQ(rolled[0], std::vector<int>{3});
  EXPECT_EQ(rolled.size(), 3u);

  // Every alert decision, with the DDV entry it was taken on.
  std::multiset<std::tuple<int, int, int, int>> got; // at, from, sn, target (-1: none)
  for (const auto& e : recovery("alert"))
    got.insert({e["cluster"].get<int>(), e["from"].get<int>(), e["sn"].get<int>(),
                e["rollback_to"].is_null() ? -1 : e["rollback_to"].get<int>()});
  std::multiset<std::tuple<int, int, int, int>> expected;
  for (const auto& a : application["expected"]["alerts"])
    expected.insert({a["at"].get<int>(), a["from"].get<int>(), a["sn"].get<int>(),
                     a["rollback_to"].is_null() ? -1 : a["rollback_to"].get<int>()});
  EXPECT_EQ(got, expected);
}

TEST_F(Figure4, OnlyM4IsResent) {
  std::vector<std::string> replayed;
  for (const auto& e : recovery("replay")) {
    replayed.push_back(e["label"].get<std::string>());
    EXPECT_EQ(e["node"], 1); // cluster1-1, its sender
  }
  EXPECT_EQ(replayed, application["expected"]["replayed"].get<std::vector<std::string>>());
}
