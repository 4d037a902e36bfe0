/* Failure events with many victims (issue 31, item 5): racks and whole clusters going down at
 * once, mixed with single failures, under every protocol and variant. Each event is one
 * recovery: every run ends by itself, completed or unrecoverable (what it needed was lost with
 * the victims, named in its status), with 0 consistency violations and, when completed, the
 * failure-free result. Racks alternate between consecutive pairs of nodes (a node and its buddy
 * or backup fail together) and interleaved halves (never), so that both outcomes occur. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"
#include "tests/support/variants.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <tuple>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

using Variant = ProtocolVariant;

constexpr int kClusters = 2;
constexpr int kNodes = 6;

json outage_topology(int seed, const Variant& v) {
  json topo = small_topology(kClusters, kNodes, 60.0); // single failures: one every 60 s
  for (int c = 0; c < kClusters; c++) {
    auto& cl = topo["clusters"][static_cast<std::size_t>(c)];
    cl["checkpoint_size"] = "100kB";
    const auto host = [c](int i) { return fmt::format("c{}-{}", c, i); };
    if (seed % 2 == 0) // interleaved racks: a node and the next one are never in one rack
      cl["domains"] = {
          {"rack", json::array({json::array({host(0), host(2), host(4)}), json::array({host(1), host(3), host(5)})})}};
  }
  if (seed % 2 == 1) topo["domains"] = {{"rack", 2}}; // consecutive pairs
  topo["failures"] = {{"downtime", 1.0},
                      {"detection_delay", 0.5},
                      {"restart_overhead", 0.2},
                      {"correlated", json::array({json{{"scope", "rack"}, {"mtbf", 40.0}},
                                                  json{{"scope", "cluster"}, {"mtbf", 150.0}, {"downtime", 2.0}}})}};
  if (!v.storage.empty()) topo["storage"] = {{"model", v.storage}};
  return topo;
}

// A data-flow stencil (cck and taskgraph need one), whose result every run must reproduce.
json outage_application(const Variant& /*v*/) {
  return {{"kind", "stencil"}, {"dims", 1},        {"width", 2 * kClusters * kNodes},
          {"iterations", 40},  {"task_cost", 0.5}, {"cell_size", "1KiB"}};
}

RunConfig outage_config(int seed, const Variant& v, bool failures) {
  json topo = outage_topology(seed, v);
  if (!failures) {
    topo["mtbf"] = "inf";
    topo["failures"].erase("correlated");
  }
  return variant_config(topo, outage_application(v), v, seed);
}

class DomainOutages : public ::testing::TestWithParam<Variant> {};

} // namespace

TEST_P(DomainOutages, HundredRunsEndByThemselvesWithoutViolation) {
  const Variant& v = GetParam();
  // The livelocks the protocols' models allow (docs/MODEL.md, "A run always ends"): a run that
  // redoes, again and again, work the next failure undoes ends by the watchdog's third rule.
  const bool may_livelock = v.may_livelock();
  int completed = 0, unrecoverable = 0, livelocks = 0, completed_after_outage = 0, outages = 0;
  for (int seed = 1; seed <= 100; seed++) {
    auto r = run_in_child(outage_config(seed, v, true));
    const std::string what = v.name() + " seed " + std::to_string(seed);
    const auto& res = r.document["results"];
    const std::string status = res.contains("status") ? res["status"].get<std::string>() : "";
    if (may_livelock && status.rfind("stuck: no progress: failures arrive faster", 0) == 0) {
      livelocks++;
      EXPECT_EQ(res["consistency"]["violations"].get<int>(), 0) << what;
      continue;
    }
    ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
    EXPECT_EQ(res["consistency"]["violations"].get<int>(), 0) << what;
    int events = 0; // of many victims
    for (const char* scope : {"rack", "cluster"})
      if (res.contains("failure_events") && res["failure_events"].contains(scope))
        events += res["failure_events"][scope]["events"].get<int>();
    outages += events > 0;
    if (status == "completed") {
      completed++;
      completed_after_outage += events > 0;
      // The application's draws depend on the seed: the same run without failures gives the result.
      auto ff = run_in_child(outage_config(seed, v, false));
      ASSERT_EQ(ff.exit_status, 0) << what << " without failures: " << ff.error;
      EXPECT_EQ(res["result_checksum"], ff.document["results"]["result_checksum"]) << what;
    } else {
      // Never stuck, never stopped at the end date: unrecoverable, naming what was lost.
      ASSERT_EQ(status.rfind("unrecoverable", 0), 0u) << what << ": " << status;
      if (unrecoverable++ < 3) std::printf("%s: %s\n", what.c_str(), status.c_str()); // what was lost
    }
  }
  RecordProperty("completed", completed);
  RecordProperty("unrecoverable", unrecoverable);
  std::printf("%s: %d completed (%d after a rack or cluster outage), %d unrecoverable, %d livelocks ended by the "
              "watchdog, %d runs with outages\n",
              v.name().c_str(), completed, completed_after_outage, unrecoverable, livelocks, outages);
  std::fflush(stdout);
  EXPECT_LE(livelocks, 10) << "the failure rates are meant to be within what the protocols can take";
  EXPECT_GE(outages, 60) << "the outage sources should strike most runs";
  // Each protocol recovers from some outages (interleaved racks never lose a node with its copy).
  EXPECT_GE(completed_after_outage, 20) << v.name();
}

INSTANTIATE_TEST_SUITE_P(Protocols, DomainOutages,
                         ::testing::Values(Variant{"none", {}, ""}, Variant{"coordinated", {}, ""},
                                           Variant{"coordinated", {}, "buddy"}, Variant{"hc3i", {}, ""},
                                           Variant{"hc3i", {}, "servers"},
                                           Variant{"hc3i", {{"transitive", "true"}}, ""},
                                           Variant{"independent", {{"unit", "process"}}, ""},
                                           Variant{"independent", {{"unit", "cluster"}}, ""},
                                           Variant{"msglog", {{"variant", "pessimistic"}}, ""},
                                           Variant{"msglog", {{"variant", "causal"}}, ""},
                                           Variant{"msglog", {{"variant", "optimistic"}}, ""}, Variant{"cck", {}, ""},
                                           Variant{"taskgraph", {}, ""}),
                         [](const ::testing::TestParamInfo<Variant>& info) { return info.param.name(); });

namespace {

// 2 clusters of 4 nodes, the stencil above, failures from a trace written here.
RunConfig scripted(const std::string& protocol, const std::string& name, const std::string& lines,
                   const std::string& storage = "") {
  json topo = small_topology(2, 4, INFINITY);
  for (auto& cl : topo["clusters"]) cl["checkpoint_size"] = "100kB";
  const std::string trace = temp_path(name);
  std::ofstream(trace) << lines;
  topo["failures"] = {{"model", "trace"}, {"trace", trace}, {"downtime", 1.0}, {"detection_delay", 0.5}};
  if (!storage.empty()) topo["storage"] = {{"model", storage}};
  json app{{"kind", "stencil"}, {"dims", 1},        {"width", 16},
           {"iterations", 40},  {"task_cost", 0.5}, {"cell_size", "1KiB"}};
  RunConfig c = make_config(topo, app, {{"default", {{"checkpoint_period", 5}, {"gc_period", 20}}}});
  c.options.protocol = protocol;
  c.options.end_date = 1e5;
  c.options.trace_file = temp_path(name + ".jsonl");
  return c;
}

} // namespace

TEST(ScriptedOutages, ARackIsOneFailureAndOneRecoveryLedByTheClustersLowestSurvivor) {
  // c0-0 (the cluster's leader) and c0-1 fail at 12 s, one line of the trace: one failure (id 1),
  // one recovery; hc3i's recovery leader is c0-2, the lowest node the failure spared, and one
  // cluster rollback names both victims. Checkpoints on servers: the pair's copies survive.
  RunConfig c = scripted("hc3i", "rack.txt", "12 c0-0,c0-1\n", "servers");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  EXPECT_EQ(res["status"], "completed");
  EXPECT_EQ(res["consistency"]["violations"], 0);
  EXPECT_EQ(res["failures"], 2);
  auto failures = trace_events(c.options.trace_file, "failure");
  ASSERT_EQ(failures.size(), 2u);
  for (const auto& f : failures) {
    EXPECT_EQ(f["failure"], 1);
    EXPECT_NEAR(f["t"].get<double>(), 12, 1e-9);
  }
  EXPECT_EQ(trace_events(c.options.trace_file, "recovery_done").size(), 1u);
  auto rollbacks = trace_events(c.options.trace_file, "cluster_rollback");
  std::erase_if(rollbacks, [](const json& e) { return e["cause"] != "failure"; }); // c1's, on c0's alert
  ASSERT_EQ(rollbacks.size(), 1u);
  EXPECT_EQ(rollbacks[0]["node"], 2);
  EXPECT_EQ(rollbacks[0]["victims"], json::parse("[0, 1]"));
  const auto& rec = r.document["stats"]["series"]["recoveries"];
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0]["victims"], json::parse("[0, 1]"));
  EXPECT_EQ(trace_events(c.options.trace_file, "restart").size(), 2u);
}

TEST(ScriptedOutages, WhatIsLostWithTheVictimsEndsTheRunAsUnrecoverableNamingIt) {
  struct Case {
    std::string protocol, storage, lines, status;
  };
  const std::vector<Case> cases{
      // buddy: c0-1 keeps c0-0's copies; both gone at once.
      {"coordinated", "buddy", "12 c0-0,c0-1\n", "unrecoverable failure: no copy of checkpoint 2 of c0-0 survives"},
      // taskgraph: c0-1 is c0-0's backup.
      {"taskgraph", "", "12 c0-0,c0-1\n",
       "unrecoverable failure: taskgraph: c0-0 and its backup c0-1 failed together (failure 1)"},
      // hc3i: nobody of cluster c1 is left to know its committed CLCs, whatever the storage.
      {"hc3i", "servers", "12 c1-0,c1-1,c1-2,c1-3\n",
       "unrecoverable failure: hc3i: failure 1 struck every node of cluster c1"},
  };
  for (const Case& k : cases) {
    RunConfig c = scripted(k.protocol, "lost-" + k.protocol + ".txt", k.lines, k.storage);
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << k.protocol << ": " << r.error;
    const std::string status = r.document["results"]["status"];
    EXPECT_EQ(status.rfind(k.status, 0), 0u) << k.protocol << ": " << status;
    EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0) << k.protocol;
    EXPECT_TRUE(r.document["results"]["makespan"].is_null()) << k.protocol;
  }
  // The same events where the copies survive complete: interleaved victims (not each other's
  // buddy or backup), or every cluster outage under a protocol that restarts from the servers.
  for (const auto& [protocol, storage, lines] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"coordinated", "buddy", "12 c0-0,c0-2\n"},
           {"taskgraph", "", "12 c0-0,c0-2\n"},
           {"coordinated", "servers", "12 c1-0,c1-1,c1-2,c1-3\n"},
           {"msglog", "", "12 c1-0,c1-1,c1-2,c1-3\n"},
           {"independent", "", "12 c1-0,c1-1,c1-2,c1-3\n"},
           {"cck", "", "12 c1-0,c1-1,c1-2,c1-3\n"},
           // The whole federation: with no service either, nothing but the engine's daemons runs.
           {"none", "", "12 c0-0,c0-1,c0-2,c0-3,c1-0,c1-1,c1-2,c1-3\n"},
           {"coordinated", "servers", "12 c0-0,c0-1,c0-2,c0-3,c1-0,c1-1,c1-2,c1-3\n"},
       }) {
    RunConfig c = scripted(protocol, "kept-" + protocol + storage + ".txt", lines, storage);
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << protocol << ": " << r.error;
    EXPECT_EQ(r.document["results"]["status"], "completed") << protocol << " " << lines;
    EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0) << protocol;
  }
}
