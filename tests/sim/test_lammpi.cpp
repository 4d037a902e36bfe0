/* The LAM/MPI paper's system (Martins Jr. and Goncalves) on the master-worker application:
 * scripted scenarios checked from the trace (a worker fails, its process restarts on a survivor
 * that then computes twice as slowly; the paper's periodic / collective trigger rule with its
 * skipped periodic checkpoints), 180 seeded runs with random failures (three triggers x spare /
 * shrink) with 0 oracle violations and the failure-free result digest, and input errors. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

constexpr double kTolerance = 0.01; // control messages and loads take micro- to milliseconds

std::string failure_trace(const std::string& name, const std::string& lines) {
  std::string path = temp_path(name);
  std::ofstream(path) << "# date node\n" << lines;
  return path;
}

// Failures from a trace, detected 1 s after the crash, the failed process relaunched 2 s later
// on the least loaded survivor (restart: shrink).
json shrink_after(const std::string& name, const std::string& lines) {
  return {{"model", "trace"},
          {"trace", failure_trace(name, lines)},
          {"detection_delay", 1},
          {"downtime", 2},
          {"restart", "shrink"}};
}

// 4 nodes, 1 row of C each at 10 s per row: a repetition computes 10 s everywhere. Messages and
// control messages cross a zero-latency, very fast network; checkpoints are 1 kB (12.5 us to the server).
RunConfig four_nodes(int repetitions, double period) {
  json topo = small_topology(1, 4, INFINITY);
  topo["clusters"][0]["san"] = {{"latency", 0}, {"bandwidth", "1TBps"}};
  topo["clusters"][0]["checkpoint_size"] = "1kB"; // 0 bytes: SimGrid never ends the transfer
  json app = {{"kind", "master-worker"}, {"matrix_size", 4}, {"repetitions", repetitions}, {"row_cost", 10}};
  json timers = json::object();
  if (std::isfinite(period)) timers = {{"default", {{"checkpoint_period", period}}}};
  RunConfig c = make_config(topo, app, timers);
  c.options.protocol = "coordinated";
  c.options.trace_file = temp_path("lammpi.jsonl");
  c.options.trace_level = 2;
  c.options.end_date = 1000;
  return c;
}

} // namespace

TEST(LamMpi, ShrinkRestartsTheWorkerOnASurvivorThatComputesTwiceAsSlowly) {
  // Wave 1 at 12 s (every process has done 12 s of work: rep 0 and 2 s of rep 1). c0-3 fails
  // at 15, is detected at 16 (the survivors roll back to wave 1 and wait) and restarts at
  // 16 + downtime 2 = 18 on c0-0 (every survivor runs one process: the lowest index). From 18 on,
  // processes 0 and 3 share c0-0: rep 1's last 8 s take 16 s (until 34), rep 2's 10 s take 20 s
  // (until 54); processes 1 and 2 get rep 2's B and A at 34 and finish at 44.
  RunConfig c = four_nodes(3, 12);
  c.topology_doc["failures"] = shrink_after("shrink.txt", "15 c0-3\n");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  EXPECT_EQ(r.document["run"]["restart_placement"], "shrink");

  auto moved = trace_events(c.options.trace_file, "process_moved");
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_NEAR(moved[0]["t"].get<double>(), 18, 1e-9) << "the restart date: detection 16 + downtime 2";
  EXPECT_EQ(moved[0]["node"], 3);
  EXPECT_EQ(moved[0]["from"], "c0-3");
  EXPECT_EQ(moved[0]["to"], "c0-0");
  EXPECT_EQ(moved[0]["processes"], 2);
  auto shares = trace_events(c.options.trace_file, "cpu_share");
  ASSERT_EQ(shares.size(), 1u);
  EXPECT_EQ(shares[0]["node"], 0) << "the master, already on c0-0, slows down";

  auto rollbacks = trace_events(c.options.trace_file, "rollback");
  ASSERT_EQ(rollbacks.size(), 4u);
  for (const auto& rb : rollbacks) {
    EXPECT_NE(rb["reason"].get<std::string>().find("wave 1 "), std::string::npos) << rb.dump();
    EXPECT_NEAR(rb["work"].get<double>(), 12, kTolerance) << rb.dump();
  }
  std::map<int, double> finished;
  for (const auto& e : trace_events(c.options.trace_file, "app_finished")) finished[e["node"].get<int>()] = e["t"];
  ASSERT_EQ(finished.size(), 4u);
  EXPECT_NEAR(finished[0], 54, kTolerance);
  EXPECT_NEAR(finished[3], 54, kTolerance);
  EXPECT_NEAR(finished[1], 44, kTolerance);
  EXPECT_NEAR(finished[2], 44, kTolerance);
  EXPECT_NEAR(r.document["results"]["makespan"].get<double>(), 54, kTolerance);

  // Same C as without the failure.
  RunConfig ff = four_nodes(3, 12);
  auto f = run_in_child(ff);
  ASSERT_EQ(f.exit_status, 0) << f.error;
  EXPECT_NEAR(f.document["results"]["makespan"].get<double>(), 30, kTolerance);
  ASSERT_TRUE(f.document["results"].contains("result_checksum"));
  EXPECT_EQ(r.document["results"]["result_checksum"], f.document["results"]["result_checksum"]);
}

TEST(LamMpi, SecondFailureOfASharedHostKillsBothProcesses) {
  // After the first failure c0-0 runs processes 0 and 3; its own failure at 25 strikes both:
  // one failure of both (one recovery), restarted (at 25 + 1 + 2 = 28) on the least loaded survivors, c0-1 and c0-2.
  RunConfig c = four_nodes(3, 12);
  c.topology_doc["failures"] = shrink_after("shrink2.txt", "15 c0-3\n25 c0-0\n");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  EXPECT_EQ(r.document["results"]["failures"], 3);
  auto host = trace_events(c.options.trace_file, "host_failure");
  ASSERT_EQ(host.size(), 1u);
  EXPECT_EQ(host[0]["host"], "c0-0");
  EXPECT_EQ(host[0]["processes"], json::parse("[0, 3]"));
  auto moved = trace_events(c.options.trace_file, "process_moved");
  ASSERT_EQ(moved.size(), 3u);
  EXPECT_EQ(moved[1]["to"], "c0-1");
  EXPECT_EQ(moved[2]["to"], "c0-2");
  for (int i : {1, 2}) EXPECT_NEAR(moved[i]["t"].get<double>(), 28, 1e-9) << moved[i].dump();
  RunConfig ff = four_nodes(3, 12);
  auto f = run_in_child(ff);
  ASSERT_EQ(f.exit_status, 0) << f.error;
  EXPECT_EQ(r.document["results"]["result_checksum"], f.document["results"]["result_checksum"]);
}

TEST(LamMpi, BothTriggersFollowThePapersRule) {
  // Checkpoints of 1 MB per process through one 1 MB/s server link: a wave lasts 4 s. Period 6.
  //   0: bcast/scatter ask, declined (ckpt_time 6 - delay 0 > 0)
  //   6: periodic wave 1 until 10; ckpt_time = 10 + 6 = 16, delay 4; rep 0 ends at 14 (4 s paused)
  //  14: gather asks: 16 - 4 <= 14: collective wave 2 until 18 (ckpt_time 24)
  //  16: the periodic timer finds the checkpoint being taken: skipped
  //  18: bcast/scatter of rep 1 ask: 24 - 4 > 18: declined; 24: periodic wave 3 until 28;
  //  32: gather: collective wave 4 until 36; 34: periodic skipped; the run ends at 36.
  RunConfig c = four_nodes(2, 6);
  c.topology_doc["clusters"][0]["checkpoint_size"] = "1MB";
  c.topology_doc["storage"] = {{"model", "servers"}, {"server_link", {{"latency", 0}, {"bandwidth", "1MBps"}}}};
  c.options.params["trigger"] = "both";
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  auto triggers = trace_events(c.options.trace_file, "ckpt_trigger");
  ASSERT_EQ(triggers.size(), 4u);
  const double starts[] = {6, 14, 24, 32};
  const char* kinds[] = {"periodic", "collective", "periodic", "collective"};
  for (std::size_t i = 0; i < 4; i++) {
    EXPECT_NEAR(triggers[i]["t"].get<double>(), starts[i], kTolerance) << triggers[i].dump();
    EXPECT_EQ(triggers[i]["trigger"], kinds[i]) << triggers[i].dump();
  }
  EXPECT_EQ(triggers[1]["point"], "gather 3");
  EXPECT_EQ(triggers[3]["point"], "gather 6");
  auto skips = trace_events(c.options.trace_file, "ckpt_skip");
  ASSERT_EQ(skips.size(), 2u);
  EXPECT_NEAR(skips[0]["t"].get<double>(), 16, kTolerance);
  EXPECT_NEAR(skips[1]["t"].get<double>(), 34, kTolerance);
  EXPECT_EQ(counter(r, "coordinated.requests_declined"), 4);
  EXPECT_EQ(counter(r, "ctrl.CKPT_REQUEST"), 6) << "the master asks at each of its 6 collectives";
  EXPECT_EQ(counter(r, "ctrl.CKPT_DECISION"), 6);
  EXPECT_NEAR(r.document["results"]["makespan"].get<double>(), 36, kTolerance);
}

TEST(LamMpi, CollectiveTriggerWithoutPeriodCheckpointsAtEveryCollective) {
  // No period: a wave at each of the master's 3 x 2 collectives (1 kB checkpoints: instants).
  RunConfig c = four_nodes(2, INFINITY);
  c.options.params["trigger"] = "collective";
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(counter(r, "coordinated.waves_collective"), 6);
  EXPECT_EQ(counter(r, "coordinated.waves_periodic"), 0);
  EXPECT_EQ(counter(r, "coordinated.waves_committed"), 6);
  EXPECT_NEAR(r.document["results"]["makespan"].get<double>(), 20, kTolerance);
}

TEST(LamMpi, SeededFailuresKeepTheStateConsistentAndTheResult) {
  // 8 nodes, 12 rows, 6 repetitions of 2 s (rows 2, 2, 2, 2, 1, 1, 1, 1): 12 s failure-free;
  // waves every 2 s. Federation MTBF 6 s with spares; 10 s with shrink, where a failed host stays
  // off for good and the run slows down as the survivors double up: at 6 s some runs lose every
  // host (unrecoverable, as they should be, but then they test nothing of the recovery).
  auto config = [](const std::string& trigger, const std::string& restart, std::uint64_t seed) {
    json topo = small_topology(1, 8, restart == "shrink" ? 10.0 : 6.0);
    topo["clusters"][0]["checkpoint_size"] = "100kB";
    topo["failures"] = {{"downtime", 0.5}, {"restart", restart}};
    if (restart == "shrink") // the paper's configuration: heartbeat detection, 0.1 - 0.3 s after the crash
      topo["failures"]["heartbeat"] = {{"period", 0.2}, {"timeout", 0.3}};
    else
      topo["failures"]["detection_delay"] = 0.2;
    json app = {{"kind", "master-worker"}, {"matrix_size", 12}, {"repetitions", 6}, {"row_cost", 1}};
    RunConfig c = make_config(topo, app, {{"default", {{"checkpoint_period", 2}}}});
    c.options.protocol = "coordinated";
    c.options.params["trigger"] = trigger;
    c.options.seed = seed;
    c.options.end_date = 5000;
    return c;
  };
  RunConfig ff = config("periodic", "spare", 1);
  ff.topology_doc["mtbf"] = "inf";
  auto f = run_in_child(ff);
  ASSERT_EQ(f.exit_status, 0) << f.error;
  const json checksum = f.document["results"]["result_checksum"];
  ASSERT_TRUE(checksum.is_number());
  int runs = 0, with_failures = 0, moved = 0;
  double failures = 0, violations = 0;
  for (const std::string trigger : {"periodic", "collective", "both"}) {
    for (const std::string restart : {"spare", "shrink"}) {
      for (std::uint64_t seed = 1; seed <= 30; seed++) {
        auto r = run_in_child(config(trigger, restart, seed));
        const std::string what = trigger + "/" + restart + " seed " + std::to_string(seed);
        ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
        const auto& res = r.document["results"];
        ASSERT_EQ(res["status"], "completed") << what;
        EXPECT_EQ(res["consistency"]["violations"], 0) << what;
        EXPECT_EQ(res["result_checksum"], checksum) << what;
        runs++;
        with_failures += res["failures"].get<double>() > 0 ? 1 : 0;
        failures += res["failures"].get<double>();
        violations += res["consistency"]["violations"].get<double>();
        moved += static_cast<int>(counter(r, "placement.moved"));
        if (restart == "spare") {
          EXPECT_EQ(counter(r, "placement.moved"), 0) << what;
        }
      }
    }
  }
  EXPECT_EQ(runs, 180);
  EXPECT_GE(with_failures, 100);
  EXPECT_GT(moved, 60) << "shrink moved processes in most of its 90 runs";
  RecordProperty("failures", std::to_string(failures));
  std::printf("lammpi seeded: %d runs, %d with failures, %.0f failures, %d processes moved, %.0f violations\n", runs,
              with_failures, failures, moved, violations);
}

TEST(LamMpi, MasterWorkerUnderMessageLoggingReplaysDeliveriesInTheirRepetition) {
  // msglog replays a restarted worker's logged B and A at once, while it redoes an earlier
  // repetition (and a restarted master's C): the application keeps them for their repetition.
  // Before it did, 5 of these runs went wrong (a wrong C and oracle violations, one never ended).
  // Spares and shrink: under shrink a host running two processes fails as one failure of both
  // (ASharedHostsFailureIsOneRecoveryUnderEveryProtocol).
  auto config = [](const std::string& restart, std::uint64_t seed) {
    json topo = small_topology(1, 8, 10.0);
    topo["clusters"][0]["checkpoint_size"] = "100kB";
    topo["failures"] = {{"detection_delay", 0.2}, {"downtime", 0.5}, {"restart", restart}};
    json app = {{"kind", "master-worker"}, {"matrix_size", 12}, {"repetitions", 6}, {"row_cost", 1}};
    RunConfig c = make_config(topo, app, {{"default", {{"checkpoint_period", 2}}}});
    c.options.protocol = "msglog";
    c.options.seed = seed;
    c.options.end_date = 5000;
    return c;
  };
  RunConfig ff = config("spare", 1);
  ff.topology_doc["mtbf"] = "inf";
  auto f = run_in_child(ff);
  ASSERT_EQ(f.exit_status, 0) << f.error;
  const json checksum = f.document["results"]["result_checksum"];
  int with_failures = 0;
  for (const std::string restart : {"spare", "shrink"}) {
    for (std::uint64_t seed = 1; seed <= 30; seed++) {
      auto r = run_in_child(config(restart, seed));
      const std::string what = restart + " seed " + std::to_string(seed);
      ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
      const auto& res = r.document["results"];
      ASSERT_EQ(res["status"], "completed") << what;
      EXPECT_EQ(res["consistency"]["violations"], 0) << what;
      EXPECT_EQ(res["result_checksum"], checksum) << what;
      with_failures += res["failures"].get<double>() > 0 ? 1 : 0;
    }
  }
  EXPECT_GE(with_failures, 15);
}

TEST(LamMpi, ASharedHostsFailureIsOneRecoveryUnderEveryProtocol) {
  // The scenario of SecondFailureOfASharedHostKillsBothProcesses: c0-0's failure at 25 kills
  // processes 0 and 3. It is one failure (one id, one recovery with both victims), also under
  // the protocols that take one failure at a time (this run used to end as unrecoverable under
  // msglog; hc3i and independent waited for ever before that).
  RunConfig ff = four_nodes(3, 12);
  ff.topology_doc["mtbf"] = "inf";
  auto f = run_in_child(ff);
  ASSERT_EQ(f.exit_status, 0) << f.error;
  for (const std::string protocol : {"msglog", "independent", "hc3i", "coordinated"}) {
    RunConfig c = four_nodes(3, 12);
    c.options.protocol = protocol;
    c.topology_doc["failures"] = shrink_after("overlap-" + protocol + ".txt", "15 c0-3\n25 c0-0\n");
    if (protocol == "hc3i") c.topology_doc["storage"] = {{"model", "servers"}}; // buddy copies die with c0-0
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << protocol << ": " << r.error;
    const auto& res = r.document["results"];
    EXPECT_EQ(res["status"], "completed") << protocol;
    EXPECT_EQ(res["consistency"]["violations"], 0) << protocol;
    EXPECT_EQ(res["failures"], 3) << protocol << ": three processes struck";
    EXPECT_EQ(res["result_checksum"], f.document["results"]["result_checksum"]) << protocol;
    auto failures = trace_events(c.options.trace_file, "failure");
    ASSERT_EQ(failures.size(), 3u) << protocol;
    EXPECT_EQ(failures[1]["failure"], 2) << protocol;
    EXPECT_EQ(failures[2]["failure"], 2) << protocol << ": one failure for both processes";
    const auto& recoveries = r.document["stats"]["series"]["recoveries"];
    ASSERT_EQ(recoveries.size(), 2u) << protocol;
    EXPECT_EQ(recoveries[1]["victims"], json::parse("[0, 3]")) << protocol;
    EXPECT_EQ(trace_events(c.options.trace_file, "process_moved").size(), 3u) << protocol;
  }
}

TEST(LamMpi, InputErrorsNameTheField) {
  RunConfig c = four_nodes(2, 6);
  c.options.params["trigger"] = "sometimes";
  auto r = run_in_child(c);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("--param trigger"), std::string::npos) << r.error;

  RunConfig small = four_nodes(2, 6);
  small.application_doc["matrix_size"] = 3;
  r = run_in_child(small);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/matrix_size"), std::string::npos) << r.error;

  RunConfig cost = four_nodes(2, 6);
  cost.application_doc["row_cost"] = "-1s";
  r = run_in_child(cost);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/row_cost"), std::string::npos) << r.error;

  RunConfig alone = four_nodes(2, 6);
  alone.topology_doc["clusters"][0]["nodes"] = 1;
  alone.application_doc = {{"kind", "scripted"}, {"nodes", {{"c0-0", {{{"compute", 1}}}}}}};
  alone.topology_doc["failures"] = {{"restart", "shrink"}};
  r = run_in_child(alone);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/failures/restart"), std::string::npos) << r.error;

  RunConfig both = four_nodes(2, 6);
  both.topology_doc["failures"] = {{"detection_delay", 1}, {"heartbeat", {{"period", 1}, {"timeout", 3}}}};
  r = run_in_child(both);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/failures/heartbeat"), std::string::npos) << r.error;

  RunConfig beat = four_nodes(2, 6);
  beat.topology_doc["failures"] = {{"heartbeat", {{"period", 2}, {"timeout", 1}}}};
  r = run_in_child(beat);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/failures/heartbeat/timeout"), std::string::npos) << r.error;
}

TEST(LamMpi, HeartbeatDetectsAtTheLastBeatPlusTimeout) {
  // Beats every 2 s, timeout 5 s: a crash at 15 (last beat at 14) is detected at 19.
  RunConfig c = four_nodes(3, 12);
  c.topology_doc["failures"] = {{"model", "trace"},
                                {"trace", failure_trace("beat.txt", "15 c0-3\n")},
                                {"heartbeat", {{"period", 2}, {"timeout", 5}}},
                                {"downtime", 6}};
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  auto detected = trace_events(c.options.trace_file, "failure_detected");
  ASSERT_EQ(detected.size(), 1u);
  EXPECT_NEAR(detected[0]["t"].get<double>(), 19, 1e-9);
}
