/* A run always ends by itself (issue 21).
 *   - hc3i: a garbage-collection round toward a cluster leader that has failed but is not yet
 *     detected, or whose collector fails: the stress-found scenario and two scripted ones;
 *   - the engine's watchdog: a protocol that holds a finished run open, or one under which
 *     nothing happens but failures, ends as "stuck: <what is pending>" with exit status 3. The
 *     two offending protocols are registered here only, as the tests' own minimal protocols. */
#include "sim/cli/commands.hpp"
#include "sim/protocol/protocol.hpp"
#include "tests/support/sim_child.hpp"
#include "tests/support/test_protocol.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

const std::string kDeadLeader = std::string(CKPTSIM_SOURCE_DIR) + "/tests/scenarios/hc3i-gc-dead-leader/";

json load(const std::string& path) { return json::parse(std::ifstream(path)); }

std::vector<json> events(const std::vector<json>& trace, const std::string& ev) {
  std::vector<json> out;
  for (const auto& e : trace)
    if (e["ev"] == ev) out.push_back(e);
  return out;
}

// ---- hc3i garbage collection ----

class Hc3iDeadLeader : public ::testing::TestWithParam<bool> {};

TEST_P(Hc3iDeadLeader, StressFoundScenarioCompletesAndKeepsCollecting) {
  RunConfig c = make_config(load(kDeadLeader + "topology.json"), load(kDeadLeader + "application.json"),
                            load(kDeadLeader + "timers.json"));
  c.options.protocol = "hc3i";
  if (GetParam()) c.options.params["transitive"] = "true";
  c.options.seed = 174;
  c.options.end_date = 30 * 3600.0;
  c.options.trace_file = temp_path("dead-leader.jsonl");
  const auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  EXPECT_EQ(res["status"], "completed");
  EXPECT_EQ(res["consistency"]["violations"], 0);
  EXPECT_GT(res["consistency"]["checks"].get<int>(), 1);
  const auto trace = read_trace(c.options.trace_file);
  // The round that met the failure of c1-0 is abandoned when the collector hears of it...
  bool abandoned_at_dead_leader = false;
  for (const auto& f : events(trace, "failure")) {
    if (f["node"] != 4) continue; // c1-0
    for (const auto& a : events(trace, "gc_aborted"))
      abandoned_at_dead_leader =
          abandoned_at_dead_leader || (a["t"].get<double>() > f["t"].get<double>() &&
                                       a["t"].get<double>() <= f["t"].get<double>() + 1.0 + 1e-9); // detection delay
  }
  EXPECT_TRUE(abandoned_at_dead_leader) << "no GC round abandoned within the detection delay of c1-0's failure";
  // ... and collections go on until the end: the storage stays bounded.
  const auto gcs = events(trace, "gc");
  ASSERT_FALSE(gcs.empty());
  EXPECT_GT(gcs.back()["t"].get<double>(), 14400.0);
  EXPECT_LT(res["storage_held_end_bytes"].get<double>(), 200e6);
}

INSTANTIATE_TEST_SUITE_P(Variants, Hc3iDeadLeader, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "transitive" : "sn"; });

// Two clusters of two nodes, no random failure, one scripted failure; GC every 100 s, CLCs every
// 30 s, 300 s of work, detection 1 s after a failure, the node back 2 s after it.
RunConfig scripted_gc(const std::string& failure_line) {
  const std::string failures = temp_path("gc-failures.txt");
  std::ofstream(failures) << failure_line << "\n";
  json topo = small_topology(2, 2, INFINITY);
  topo["failures"] = {{"model", "trace"}, {"trace", failures}, {"detection_delay", 1}, {"downtime", 2}};
  RunConfig c = make_config(topo, small_application(2, 2.0, 300, 0.3, 0.05),
                            {{"default", {{"checkpoint_period", 30}, {"gc_period", 100}}}});
  c.options.protocol = "hc3i";
  c.options.trace_file = temp_path("gc-scripted.jsonl");
  c.options.trace_level = 2;
  return c;
}

TEST(Hc3iGc, RoundTowardAnUndetectedDeadLeaderIsAbandonedAtDetection) {
  // c1-0 dies at 99.5 s; round 1 starts at 100 s and asks it; the collector hears of the failure
  // at 100.5 s and gives the round up; rounds 2 and 3 (200 s, 300 s) collect.
  RunConfig c = scripted_gc("99.5 c1-0");
  const auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  const auto trace = read_trace(c.options.trace_file);
  const auto begun = events(trace, "gc_begin");
  ASSERT_GE(begun.size(), 1u);
  EXPECT_DOUBLE_EQ(begun[0]["t"].get<double>(), 100.0);
  const auto aborted = events(trace, "gc_aborted");
  ASSERT_EQ(aborted.size(), 1u);
  EXPECT_EQ(aborted[0]["round"], 1);
  EXPECT_DOUBLE_EQ(aborted[0]["t"].get<double>(), 100.5);
  const auto gcs = events(trace, "gc");
  ASSERT_GE(gcs.size(), 1u);
  EXPECT_EQ(gcs[0]["round"], 2);
  EXPECT_NEAR(gcs[0]["t"].get<double>(), 200.0, 0.01); // one WAN round trip after the timer
}

TEST(Hc3iGc, CollectorKeepsCollectingAfterItsOwnRestart) {
  // c0-0 runs the collector; it dies at 150 s and is back at 152 s: its timer went with it, and
  // the restarted collector arms it again (next round at 252 s, then 352 s if the run lasts).
  RunConfig c = scripted_gc("150 c0-0");
  const auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  const auto trace = read_trace(c.options.trace_file);
  std::vector<double> dates;
  for (const auto& e : events(trace, "gc_begin")) dates.push_back(e["t"].get<double>());
  ASSERT_GE(dates.size(), 2u);
  EXPECT_DOUBLE_EQ(dates[0], 100.0);
  EXPECT_DOUBLE_EQ(dates[1], 252.0);
}

// ---- the engine's watchdog, with two protocols that never let the run end ----

// Holds the run open once the application is finished: never idle.
class HoldAgent : public Agent {
 public:
  void on_restart(NodeContext& ctx, const FailureNotice&) override { ctx.restart_complete(); }
  void on_failure_detected(NodeContext&, const FailureNotice&) override {}
  bool idle() const override { return false; }
  std::string pending() const override { return "test-hold waits for a message nobody sends"; }
};

// Stops every application at once and never lets it go: nothing happens (but failures).
class FreezeAgent : public Agent {
 public:
  void on_start(NodeContext& ctx) override { ctx.pause_app(); }
  void on_restart(NodeContext& ctx, const FailureNotice&) override { ctx.restart_complete(); }
  void on_failure_detected(NodeContext&, const FailureNotice&) override {}
};

// Never delivers an application message; a restarted process starts again from its initial state.
class DropAgent : public LocalRestartAgent {
 public:
  void on_app_receive(NodeContext&, const AppMessage&, const PayloadPtr&) override {}
};

const ProtocolRegistration hold = register_test_protocol<HoldAgent>("test-hold", "tests only: never idle");
const ProtocolRegistration drop =
    register_test_protocol<DropAgent>("test-drop", "tests only: application messages are never delivered");
const ProtocolRegistration freeze =
    register_test_protocol<FreezeAgent>("test-freeze", "tests only: the application never runs");

RunConfig held(const std::string& protocol) {
  // Two nodes, 50 s of work each, no message, no failure: both finish at 50 s exactly.
  RunConfig c = make_config(small_topology(1, 2, INFINITY), small_application(1, 5.0, 50, 0, 0));
  c.options.protocol = protocol;
  c.options.stall_limit = 100;
  return c;
}

TEST(Watchdog, FinishedRunHeldOpenEndsAsStuckOneLimitLater) {
  const auto r = run_in_child(held("test-hold"));
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  const std::string status = res["status"];
  EXPECT_EQ(status.rfind("stuck: test-hold waits for a message nobody sends (every application process had finished "
                         "(first at 50 s), yet the run was held open",
                         0),
            0u)
      << status;
  EXPECT_DOUBLE_EQ(res["end_date"].get<double>(), 150.0);
  EXPECT_TRUE(res["makespan"].is_null());
  EXPECT_EQ(r.document["run"]["stall_limit"], 100.0);
}

TEST(Watchdog, RunWhereNothingHappensEndsAsStuck) {
  const auto r = run_in_child(held("test-freeze"));
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  const std::string status = res["status"];
  EXPECT_EQ(status.rfind("stuck: c0-0, c0-1: application paused by the protocol (the application went no further "
                         "since 0 s",
                         0),
            0u)
      << status;
  EXPECT_DOUBLE_EQ(res["end_date"].get<double>(), 100.0);
}

TEST(Watchdog, RunStuckWhileFailuresKeepStrikingEndsAsStuck) {
  // Rank 0 computes 1 s and waits for a message the protocol never delivers. Its node fails every
  // 100 s (detected 1 s later, back 2 s after the failure), and each time it computes its 1 s
  // again: work redone, no progress. Idle: 1..100 s (99 s), 103..200 s and 203..300 s (97 s
  // each): with a limit of 300 s, stuck at 303 + 7 = 310 s, after 3 failures. (Counting only
  // idle stretches in a row, reset by the recomputation, it ran until the end date. The rule for
  // failures without progress would stop it at 302 + 1 + 300 = 603 s: the last failure's
  // stillness, the redo of 1 s, the limit.)
  const std::string trace = temp_path("stuck_failures.ti");
  std::ofstream(trace) << "0 compute 1e9\n0 recv 1 0 100\n1 send 0 0 100\n";
  const std::string failures = temp_path("stuck_failures.txt");
  {
    std::ofstream f(failures);
    for (int t = 100; t <= 5000; t += 100) f << t << " c0-0\n";
  }
  json topo = small_topology(1, 2, INFINITY);
  topo["failures"] = {{"model", "trace"}, {"trace", failures}, {"detection_delay", 1}, {"downtime", 2}};
  RunConfig c = make_config(topo, json{{"kind", "mpi-trace"}, {"trace", trace}, {"sends", "eager"}});
  c.options.protocol = "test-drop";
  c.options.stall_limit = 300;
  c.options.end_date = 6000;
  const auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  const std::string status = res["status"];
  EXPECT_EQ(status.rfind("stuck: ", 0), 0u) << status;
  EXPECT_EQ(status.rfind("stuck: c0-0: application waits for a message (the application went no further since 1 s", 0),
            0u)
      << status;
  EXPECT_NEAR(res["end_date"].get<double>(), 310.0, 1e-6);
  EXPECT_EQ(res["failures"], 3);
}

TEST(Watchdog, FailuresFasterThanRecoveriesEndTheRunWithNoProgress) {
  // A failure every 5 s on average, each keeping its node still 60 + 1 + 10 s: a node is always
  // down or restarting (never idle), and coordinated's global rollbacks undo what little runs in
  // between. Before simulating, a warning names the numbers; the run ends by itself as stuck
  // once it went no further for the limit beyond what its failures need.
  json topo = small_topology(1, 4, 5.0);
  topo["failures"] = {{"downtime", 60}, {"detection_delay", 1}, {"restart_overhead", 10}};
  RunConfig c = make_config(topo, small_application(1, 5.0, 2000, 0.3, 0));
  c.options.protocol = "coordinated";
  c.options.stall_limit = 600;
  c.options.seed = 2;
  const auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  const std::string status = res["status"];
  EXPECT_EQ(status.rfind("stuck: no progress: failures arrive faster than recoveries end (", 0), 0u) << status;
  ASSERT_EQ(res["warnings"].size(), 1u);
  EXPECT_EQ(res["warnings"][0].get<std::string>().rfind(
                "the federation's MTBF (5 s) is shorter than a recovery's least duration, (mean) downtime + "
                "detection delay + restart overhead (60 s + 1 s + 10 s = 71 s)",
                0),
            0u)
      << res["warnings"][0];
  EXPECT_GT(res["failures"].get<int>(), 10);
  EXPECT_LT(res["end_date"].get<double>(), 2000.0 + 3 * 600);
  EXPECT_EQ(res["consistency"]["violations"], 0);
}

TEST(Watchdog, StuckRunExitsWithStatus3AndWritesItsResults) {
  const std::string dir = temp_folder("stuck");
  const RunConfig c = held("test-hold");
  std::ofstream(dir + "/t.json") << c.topology_doc.dump();
  std::ofstream(dir + "/a.json") << c.application_doc.dump();
  std::fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) { // the command itself, in a process of its own (SimGrid's engine is process-global)
    std::freopen((dir + "/stderr.txt").c_str(), "w", stderr);
    const int status =
        ckptsim::cli::run_command({"--topology", dir + "/t.json", "--application", dir + "/a.json", "--protocol",
                                   "test-hold", "--stall-limit", "100s", "--quiet", "--output", dir + "/r.json"},
                                  "ckptsim");
    std::fflush(nullptr);
    _exit(status);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 3);
  EXPECT_NE(slurp(dir + "/stderr.txt").find("ckptsim: stuck at 150 s: test-hold waits"), std::string::npos)
      << slurp(dir + "/stderr.txt");
  const json doc = json::parse(slurp(dir + "/r.json"));
  EXPECT_EQ(doc["results"]["status"].get<std::string>().rfind("stuck: ", 0), 0u);
}

TEST(Watchdog, BadStallLimitIsAnInputError) {
  const auto o = run_cli("run --stall-limit -5s --quiet");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("--stall-limit"), std::string::npos) << o.out;
}

// tests/data/regressions/README.md: the watchdog ends an overloaded hc3i run while node c0-0 has
// 189 checkpoint transfers under way; cancelling them let the node's actor erase from the list
// being walked, and the run crashed (signal 11) instead of ending as stuck.
TEST(Watchdog, AStuckRunEndsWhileItsCheckpointTransfersAreCancelled) {
  const std::string dir = std::string(CKPTSIM_SOURCE_DIR) + "/tests/data/regressions/hc3i-stuck-transfers/";
  const std::string out = temp_path("stuck-transfers.json");
  const auto o =
      run_cli(fmt::format("run --protocol hc3i --param transitive=true --seed 135 --topology {0}topology.json "
                          "--application {0}application.json --timers {0}timers.json --end 5000 --quiet "
                          "--output {1}",
                          dir, out));
  ASSERT_EQ(o.status, 3) << o.out;
  const json doc = json::parse(slurp(out));
  const std::string status = doc["results"]["status"];
  EXPECT_EQ(status.rfind("stuck: no progress: failures arrive faster than recoveries end", 0), 0u) << status;
  EXPECT_EQ(doc["results"]["consistency"]["violations"].get<int>(), 0);
}

} // namespace
