/* Protocol coordinated (CCK thesis chapter 3): message counts per wave, global rollback to the
 * last committed wave, a failure during a wave aborts it, an unrecoverable failure with the
 * buddy model, checkpoint transfers contending for one server, and consistency over many
 * failing runs. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {
// Two nodes computing 10 s each, a wave every 3 s, failures from the script.
RunConfig two_nodes(const json& failures, const std::string& storage = "servers") {
  json topo = small_topology(1, 2, INFINITY);
  topo["failures"] = {{"downtime", 2}, {"detection_delay", 0.5}, {"overlap", "allow"}};
  topo["storage"] = {{"model", storage}};
  json app = {{"kind", "scripted"},
              {"nodes", {{"c0-0", {{{"compute", 10}}}}, {"c0-1", {{{"compute", 10}}}}}},
              {"failures", failures}};
  RunConfig c = make_config(topo, app, {{"default", {{"checkpoint_period", 3}}}});
  c.options.protocol = "coordinated";
  c.options.trace_file = temp_path("coord.jsonl");
  return c;
}
} // namespace

class CoordinatedMessages : public ::testing::TestWithParam<int> {};

TEST_P(CoordinatedMessages, ExactlyNTimesNPlus3PerWave) {
  const int n = GetParam();
  // 25 s of work, a wave 10 s after the start and 10 s after each commit: exactly 2 waves.
  RunConfig c = make_config(small_topology(2, n / 2, INFINITY), small_application(2, 1.0, 25.0, 0.3, 0.1),
                            {{"default", {{"checkpoint_period", 10}}}});
  c.options.protocol = "coordinated";
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  ASSERT_EQ(counter(r, "coordinated.waves_committed"), 2);
  EXPECT_EQ(counter(r, "ctrl.INIT"), 2 * n);
  EXPECT_EQ(counter(r, "ctrl.FLUSH"), 2 * n * n);
  EXPECT_EQ(counter(r, "ctrl.ACK"), 2 * n);
  EXPECT_EQ(counter(r, "ctrl.CONT"), 2 * n);
  EXPECT_EQ(counter(r, "ctrl.total"), 2 * n * (n + 3));
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
}

INSTANTIATE_TEST_SUITE_P(N, CoordinatedMessages, ::testing::Values(4, 16));

TEST(Coordinated, FailureRollsEveryProcessBackToTheLastWave) {
  RunConfig c = two_nodes(json::parse(R"([{"date": 5, "node": "c0-1"}])"));
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  auto rollbacks = trace_events(c.options.trace_file, "rollback");
  ASSERT_EQ(rollbacks.size(), 2u);
  std::set<int> nodes;
  for (const auto& rb : rollbacks) {
    nodes.insert(rb["node"].get<int>());
    EXPECT_NE(rb["reason"].get<std::string>().find("wave 1"), std::string::npos) << rb.dump();
    EXPECT_NEAR(rb["work"].get<double>(), 3.0, 1e-3) << "wave 1 was taken after 3 s of work";
  }
  EXPECT_EQ(nodes, (std::set<int>{0, 1}));
  // A global restart: both processes are counted as rolled back by this failure's recovery.
  const auto& recoveries = r.document["stats"]["series"]["recoveries"];
  ASSERT_EQ(recoveries.size(), 1u);
  EXPECT_EQ(recoveries[0]["victim"], 1);
  EXPECT_EQ(recoveries[0]["rolled_back"], 2);
  EXPECT_EQ(r.document["results"]["rolled_back_per_failure"], 2);
  // The restarted process read its checkpoint from the server; the other used its own copy.
  EXPECT_EQ(trace_events(c.options.trace_file, "ckpt_load").size(), 1u);
  EXPECT_EQ(counter(r, "storage.bytes_read"), 1e6);
}

TEST(Coordinated, FailureDuringAWaveAbortsItAndThePreviousWaveIsUsed) {
  RunConfig c = two_nodes(json::parse(R"([{"date": 7.2, "node": "c0-0"}])"));
  // 10 MB checkpoints over one 10 MB/s server link: a wave takes 2 s (3 -> 5, then 8 -> 10).
  c.topology_doc["clusters"][0]["checkpoint_size"] = "10MB";
  c.topology_doc["storage"]["server_link"] = {{"latency", "10us"}, {"bandwidth", "10MBps"}};
  c.application_doc["failures"] = json::parse(R"([{"date": 9, "node": "c0-0"}])");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(counter(r, "coordinated.waves_aborted"), 1);
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  auto rollbacks = trace_events(c.options.trace_file, "rollback");
  ASSERT_EQ(rollbacks.size(), 2u);
  for (const auto& rb : rollbacks)
    EXPECT_NE(rb["reason"].get<std::string>().find("wave 1 "), std::string::npos) << rb.dump();
  auto aborts = trace_events(c.options.trace_file, "ckpt_abort");
  ASSERT_EQ(aborts.size(), 1u);
  EXPECT_EQ(aborts[0]["number"], 2);
}

TEST(Coordinated, NodeAndItsOnlyCopyLostIsUnrecoverable) {
  // Buddy storage: c0-0's checkpoint lives in c0-0's and c0-1's memories; both fail.
  RunConfig c = two_nodes(json::parse(R"([{"date": 5, "node": "c0-0"}, {"date": 5.2, "node": "c0-1"}])"), "buddy");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const std::string status = r.document["results"]["status"];
  EXPECT_NE(status.find("unrecoverable failure: no copy of checkpoint 1 of c0-"), std::string::npos) << status;
  EXPECT_TRUE(r.document["results"]["makespan"].is_null());
}

TEST(Coordinated, BuddyCopySurvivesASingleFailure) {
  RunConfig c = two_nodes(json::parse(R"([{"date": 5, "node": "c0-0"}])"), "buddy");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  auto loads = trace_events(c.options.trace_file, "ckpt_load");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0]["from"], "c0-1");
}

TEST(Coordinated, CheckpointsContendForTheServerLink) {
  // 4 processes save 10 MB each to one server behind a 10 MB/s link: the wave lasts the 4 s the
  // link needs for the 40 MB, plus microseconds of latency.
  json topo = small_topology(1, 4, INFINITY);
  topo["clusters"][0]["checkpoint_size"] = "10MB";
  topo["storage"] = {
      {"model", "servers"}, {"servers", 1}, {"server_link", {{"latency", "10us"}, {"bandwidth", "10MBps"}}}};
  RunConfig c =
      make_config(topo, small_application(1, 1.0, 15.0, 0.3, 0.0), {{"default", {{"checkpoint_period", 10}}}});
  c.options.protocol = "coordinated";
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& waves = r.document["stats"]["series"]["coordinated.waves"];
  ASSERT_EQ(waves.size(), 1u);
  const double d = waves[0]["duration"];
  EXPECT_GT(d, 4.0);
  EXPECT_LT(d, 4.0 + 1e-3) << "wave duration " << d;
  // Two servers halve it.
  c.topology_doc["storage"]["servers"] = 2;
  auto r2 = run_in_child(c);
  ASSERT_EQ(r2.exit_status, 0) << r2.error;
  EXPECT_NEAR(r2.document["stats"]["series"]["coordinated.waves"][0]["duration"].get<double>(), 2.0, 1e-3);
}

TEST(Coordinated, NoViolationOver200SeedsWithFailures) {
  int failures = 0;
  for (int seed = 1; seed <= 200; seed++) {
    json topo = small_topology(2, 3, 40.0);
    topo["failures"] = {
        {"downtime", (seed % 3) * 1.0}, {"detection_delay", (seed % 2) * 0.3}, {"restart_overhead", (seed % 4) * 0.2}};
    topo["storage"] = {{"model", seed % 5 == 0 ? "buddy" : "servers"}};
    RunConfig c = make_config(topo, small_application(2, 1.0, 60.0, 0.5, 0.2),
                              {{"default", {{"checkpoint_period", 5 + seed % 7}}}});
    c.options.protocol = "coordinated";
    c.options.seed = static_cast<std::uint64_t>(seed);
    c.options.end_date = 6000; // 100 times the work: a run that never ends fails instead of hanging
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["consistency"]["violations"].get<int>(), 0) << "seed " << seed;
    const std::string status = res["status"];
    ASSERT_TRUE(status == "completed" || status.rfind("unrecoverable", 0) == 0) << status;
    failures += res["failures"].get<int>();
  }
  EXPECT_GT(failures, 200);
}
