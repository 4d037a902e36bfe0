/* Protocol taskgraph (Lion's task-graph partial rollback) end to end on the stencil:
 *   - a scripted failure on a 3-process Jacobi 1D, checked from the trace: the victim restores
 *     the checkpoint its backup names (the newest committed before the failure), exactly the
 *     messages its checkpoint's point does not cover are replayed by each sender, the victim
 *     drops those its checkpoint had received, nobody else rolls back, exact control message
 *     counts, lost work = the victim's work since the point, the failure-free checksum;
 *   - 100+ seeded runs with failures: completed, 0 oracle violations, one process rolled back
 *     per failure, the failure-free checksum;
 *   - garbage collection: with checkpoints the logs hold a few iterations of messages, without
 *     them every message;
 *   - bad input: another application kind, a bad interval, overlapping failures. */
#include "protocols/cck/dataflow.hpp"
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

json stencil_1d(int width, int iterations, double cost) {
  return {{"kind", "stencil"}, {"dims", 1}, {"width", width}, {"iterations", iterations}, {"task_cost", cost}};
}

RunConfig tg_config(json topology, json application, std::uint64_t interval, std::uint64_t seed) {
  RunConfig c = make_config(std::move(topology), std::move(application));
  c.options.protocol = "taskgraph";
  c.options.params["interval"] = std::to_string(interval);
  c.options.seed = seed;
  c.options.end_date = 50;
  return c;
}

std::uint64_t failure_free_checksum(const json& topology, const json& application) {
  RunConfig c = make_config(topology, application);
  c.options.protocol = "none";
  auto r = run_in_child(c);
  EXPECT_EQ(r.exit_status, 0) << r.error;
  return r.document["results"]["result_checksum"].get<std::uint64_t>();
}

int tag_of(const json& e) { // "src#seq": the stencil's seq is the communication's tag
  const std::string id = e["msg"];
  return std::stoi(id.substr(id.find('#') + 1));
}

} // namespace

TEST(TaskgraphScenario, OneFailureReplaysWhatTheCheckpointDoesNotCoverAndRollsBackTheVictimAlone) {
  // 3 processes of 2 cells, 10 iterations of 10 ms tasks: an iteration takes a process 20 ms
  // (+ 61 us per border message: 10 us + 4 KiB at 80 MB/s). A checkpoint every 3 iterations, at
  // points 4, 7, 10 (about 60, 120, 180 ms). c0-1 fails at 130 ms: after its checkpoint 7 is
  // committed (the copy of ~16 KiB takes 0.2 ms), before point 10.
  const std::string failures = temp_path("tg-failures.txt");
  std::ofstream(failures) << "0.13 c0-1\n";
  json topo = small_topology(1, 3, INFINITY);
  topo["failures"] = {{"model", "trace"}, {"trace", failures}, {"downtime", 0.005}, {"detection_delay", 0.001}};
  const json app = stencil_1d(6, 10, 0.01);
  RunConfig c = tg_config(topo, app, 3, 1);
  c.options.trace_file = temp_path("tg-scenario.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const json& res = r.document["results"];
  ASSERT_EQ(res["status"], "completed");
  EXPECT_EQ(res["failures"], 1);
  EXPECT_EQ(res["consistency"]["violations"], 0);
  json no_failure = topo;
  no_failure.erase("failures");
  EXPECT_EQ(res["result_checksum"].get<std::uint64_t>(), failure_free_checksum(no_failure, app));

  // The graph, to tell each message's version.
  dataflow::Jacobi jacobi({.dims = 1, .width = 6, .iterations = 10, .processes = 3});
  const dataflow::TaskGraph& g = jacobi.graph();
  auto version = [&](int tag) { return g.datum(g.communication(static_cast<dataflow::Tag>(tag)).source).version; };

  double failure_date = -1;
  std::uint64_t last_commit_before = 0;
  bool pointed = false; // the victim's checkpoint 7 began: what it received before is in it
  std::set<int> in_checkpoint;
  std::map<int, std::set<int>> sent_to_victim; // sender -> tags sent to c0-1 before the replay
  std::map<int, std::set<int>> replayed;       // sender -> tags replayed
  std::set<int> dropped_by_victim;             // replays c0-1 dropped as duplicates
  std::set<int> dropped_by_peers;              // c0-1's sends again, dropped by its peers
  std::vector<int> rolled_back;
  int restored = -1;
  std::set<int> sent_by_victim, own_resent;
  for (const auto& e : read_trace(c.options.trace_file)) {
    const std::string ev = e["ev"];
    const double t = e["t"];
    if (ev == "failure") failure_date = t;
    if (ev == "ckpt_commit" && e["node"] == 1 && failure_date < 0) last_commit_before = e["number"];
    if (ev == "ckpt_begin" && e["node"] == 1 && e["number"] == 7 && failure_date < 0) pointed = true;
    if (ev == "app_deliver" && e["node"] == 1 && !pointed) in_checkpoint.insert(tag_of(e));
    if (ev == "app_send" && e["dst"] == 1 && replayed[e["src"].get<int>()].empty())
      sent_to_victim[e["src"].get<int>()].insert(tag_of(e));
    if (ev == "app_send" && e["src"] == 1 && failure_date < 0) sent_by_victim.insert(tag_of(e));
    if (ev == "replay" && e["src"] == 1) {
      own_resent.insert(tag_of(e)); // the restarted c0-1 re-sends its restored log
    } else if (ev == "replay") {
      EXPECT_EQ(e["dst"], 1) << e.dump();
      replayed[e["src"].get<int>()].insert(tag_of(e));
    }
    if (ev == "tg_duplicate" && e["node"] == 1 && failure_date >= 0) dropped_by_victim.insert(e["tag"].get<int>());
    if (ev == "tg_duplicate" && e["node"] != 1 && failure_date >= 0) dropped_by_peers.insert(e["tag"].get<int>());
    if (ev == "rollback") rolled_back.push_back(e["node"]);
    if (ev == "tg_restored") {
      EXPECT_EQ(e["node"], 1);
      restored = e["checkpoint"];
      EXPECT_EQ(e["peers"], json::array({0, 2}));
    }
  }
  ASSERT_DOUBLE_EQ(failure_date, 0.13);
  EXPECT_EQ(last_commit_before, 7u);
  EXPECT_EQ(restored, 7);
  EXPECT_EQ(rolled_back, std::vector<int>{1}); // nobody else rolls back

  // Each sender replays exactly its messages to c0-1 of versions >= 6 (those point 7 does not
  // cover) that it had sent; versions <= 5 were dropped from its log by c0-1's checkpoint 7.
  std::set<int> all_replayed;
  for (int s : {0, 2}) {
    std::set<int> expected;
    for (int t : sent_to_victim[s])
      if (version(t) >= 6) expected.insert(t);
    EXPECT_EQ(replayed[s], expected) << "sender " << s;
    all_replayed.insert(replayed[s].begin(), replayed[s].end());
  }
  // By hand: at 130 ms both neighbours are in iteration 7 and had sent version 6 of their border
  // cell (at 120 ms: c0-0's cell 1, tag 24; c0-2's cell 4, tag 27), not version 7 (140 ms). Those
  // arrived at c0-1 61 us after its point 7 (120.11 ms): not in its checkpoint, replayed, and
  // delivered after the restore. Versions <= 5 are not replayed (covered by point 7).
  EXPECT_EQ(replayed[0], std::set<int>{24});
  EXPECT_EQ(replayed[2], std::set<int>{27});
  EXPECT_EQ(version(24), 6);
  EXPECT_EQ(version(27), 6);
  EXPECT_EQ(counter(r.document, "taskgraph.replayed"), 2);
  EXPECT_EQ(in_checkpoint.count(24) + in_checkpoint.count(27), 0u);
  // The victim drops the replays its checkpoint had received, and delivers the others.
  std::set<int> expected_dropped;
  for (int t : all_replayed)
    if (in_checkpoint.count(t)) expected_dropped.insert(t);
  std::set<int> dropped_replays;
  for (int t : dropped_by_victim)
    if (all_replayed.count(t)) dropped_replays.insert(t);
  EXPECT_EQ(dropped_replays, expected_dropped);

  // Control messages: c0-1's backup is c0-2 (the next node of the cluster), also one of its peers,
  // so a single TG_RECOVER (to c0-0); each peer answers. Checkpoints: 3 per process (points 4, 7,
  // 10), c0-1's checkpoint 10 taken after its restart, plus c0-0's copy told again to the
  // restarted c0-1 (its backup): 10 TG_STORED, each acknowledged.
  EXPECT_EQ(counter(r.document, "ctrl.TG_RESTART"), 1);
  EXPECT_EQ(counter(r.document, "ctrl.TG_RESTORE"), 1);
  EXPECT_EQ(counter(r.document, "ctrl.TG_RECOVER"), 1);
  EXPECT_EQ(counter(r.document, "ctrl.TG_REPLAYED"), 2);
  EXPECT_EQ(counter(r.document, "taskgraph.checkpoints"), 9); // c0-1: 4, 7, then 10 after its restart
  EXPECT_EQ(counter(r.document, "ctrl.TG_STORED"), 10);
  EXPECT_EQ(counter(r.document, "ctrl.TG_STORED_ACK"), 10);

  // c0-1's sends beyond point 7 that its peers hold: c0-0 has tag 25 (cell 2, version 6, sent at
  // 110 ms, before the point: kept), c0-2 has tag 26 (cell 3, version 6, computed last before the
  // point, sent just after it): owed again, sent again, dropped by c0-2 as a duplicate.
  EXPECT_EQ(counter(r.document, "taskgraph.promised"), 1);
  // The restarted c0-1 also re-sends its restored log, since a message sent before its checkpoint
  // may have died in transfer with it: here every one had arrived, and its peers drop them all.
  EXPECT_FALSE(own_resent.empty());
  EXPECT_EQ(counter(r.document, "taskgraph.resent_own"), static_cast<double>(own_resent.size()));
  for (int t : own_resent) EXPECT_TRUE(sent_by_victim.count(t)) << "tag " << t << " re-sent, never sent before";
  std::set<int> dropped_expected = own_resent;
  dropped_expected.insert(26);
  EXPECT_EQ(dropped_by_peers, dropped_expected);

  // Lost work: what c0-1 had done since its point 7, i.e. beyond its 6 iterations x 2 tasks.
  const double at_death = r.document["stats"]["series"]["failures"][0]["work_lost_at_victim"];
  EXPECT_NEAR(res["lost_work"].get<double>(), at_death - 0.12, 1e-9);
  EXPECT_GT(res["lost_work"].get<double>(), 0);
  const auto& rec = r.document["stats"]["series"]["recoveries"];
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0]["rolled_back"], 1);
}

TEST(TaskgraphRandom, HundredRunsWithFailuresAreConsistentAndComputeTheSameResult) {
  // 2 clusters of 3 nodes, Jacobi 1D of 24 cells, 60 iterations of 1 ms (0.24 s failure-free),
  // MTBF 0.3 s. Seeds vary the schedule (in order / reordering), the interval, and 2D.
  json topo = small_topology(2, 3, 0.3);
  topo["failures"] = {{"downtime", 0.005}, {"detection_delay", 0.001}, {"restart_overhead", 0.002}};
  const json line = stencil_1d(24, 60, 0.001);
  const json grid{{"kind", "stencil"}, {"dims", 2},        {"width", 6},
                  {"height", 6},       {"iterations", 40}, {"task_cost", 0.0005}};
  json quiet = topo;
  quiet["mtbf"] = "inf";
  const std::uint64_t line_sum = failure_free_checksum(quiet, line);
  const std::uint64_t grid_sum = failure_free_checksum(quiet, grid);

  int with_failures = 0, failures = 0, replayed = 0;
  for (std::uint64_t seed = 1; with_failures < 100 && seed < 400; seed++) {
    const bool two_d = seed % 4 == 3;
    json app = two_d ? grid : line;
    if (seed % 2 == 0) app["schedule"] = "reorder";
    RunConfig c = tg_config(topo, app, 1 + seed % 5, seed);
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << "seed " << seed;
    EXPECT_EQ(res["consistency"]["violations"], 0) << "seed " << seed;
    EXPECT_EQ(res["result_checksum"].get<std::uint64_t>(), two_d ? grid_sum : line_sum) << "seed " << seed;
    const double f = res["failures"].get<double>();
    if (f == 0) continue;
    with_failures++;
    failures += static_cast<int>(f);
    for (const auto& rec : r.document["stats"]["series"]["recoveries"])
      EXPECT_EQ(rec["rolled_back"], 1) << "seed " << seed << ": " << rec.dump();
    EXPECT_EQ(r.document["stats"]["series"]["taskgraph.recoveries"].size(), f) << "seed " << seed;
    replayed += static_cast<int>(counter(r.document, "taskgraph.replayed"));
  }
  EXPECT_EQ(with_failures, 100);
  EXPECT_GT(failures, 120);
  EXPECT_GT(replayed, 100); // the replays were exercised
}

TEST(TaskgraphLog, CheckpointNumbersBoundTheLogs) {
  // 4 processes in a line, 40 iterations: 2 x 3 borders x 40 versions = 240 messages. With a
  // checkpoint every 2 iterations a sender keeps only the versions its receiver's committed
  // checkpoint does not cover; with an interval longer than the run, everything.
  json topo = small_topology(1, 4, INFINITY);
  const json app = stencil_1d(16, 40, 0.001);
  auto often = run_in_child(tg_config(topo, app, 2, 1));
  auto never = run_in_child(tg_config(topo, app, 1000, 1));
  ASSERT_EQ(often.exit_status, 0) << often.error;
  ASSERT_EQ(never.exit_status, 0) << never.error;
  EXPECT_EQ(counter(never.document, "app.sent"), 240);
  EXPECT_EQ(counter(never.document, "log.entries"), 240);
  EXPECT_EQ(counter(never.document, "taskgraph.checkpoints"), 0);
  EXPECT_EQ(counter(often.document, "taskgraph.checkpoints"), 4 * 20); // points 3, 5, ..., 41
  // At most: per border and direction, the versions since the receiver's committed point - 2,
  // a few iterations (the committed checkpoint lags the point by its save).
  EXPECT_LE(counter(often.document, "log.entries_max"), 6 * 6);
  EXPECT_GT(counter(often.document, "taskgraph.gc_dropped"), 200);
}

TEST(TaskgraphInput, RefusesWhatItCannotRun) {
  // Not a stencil: the application file's kind is named.
  RunConfig stochastic = make_config(small_topology(1, 3, INFINITY), small_application(1, 0.1, 1.0, 0.5, 0));
  stochastic.application_file = "app.json";
  stochastic.options.protocol = "taskgraph";
  auto r = run_in_child(stochastic);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/kind"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("stencil"), std::string::npos) << r.error;

  RunConfig bad = tg_config(small_topology(1, 3, INFINITY), stencil_1d(6, 4, 0.01), 1, 1);
  bad.options.params["interval"] = "0";
  r = run_in_child(bad);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("interval"), std::string::npos) << r.error;
  bad.options.params["interval"] = "3x";
  EXPECT_EQ(run_in_child(bad).exit_status, 2);

  json topo = small_topology(1, 3, 1.0);
  topo["failures"] = {{"overlap", "allow"}};
  r = run_in_child(tg_config(topo, stencil_1d(6, 4, 0.01), 1, 1));
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/failures/overlap"), std::string::npos) << r.error;

  // The CLI: exit status 2 and the file named.
  auto cli = run_cli("run --protocol taskgraph --quiet");
  EXPECT_EQ(cli.status, 2) << cli.out;
  EXPECT_NE(cli.out.find("/kind"), std::string::npos) << cli.out;
}
