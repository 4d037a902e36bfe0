/* Protocol msglog, pessimistic variant (SPEC 3.6), end to end:
 *   - a scripted scenario of 3 processes whose determinants, DET messages, held send, re-sends,
 *     replayed deliveries (in the logged order) and duplicates are counted by hand;
 *   - 200 seeded runs with failures: every run completes, 0 oracle violations, and in the trace
 *     every rollback of a failure's recovery is the failed process' own (nobody else rolls back);
 *   - garbage collection: with checkpoints the logs and the logger's determinants stay a small
 *     fraction of what they are without (where everything is kept);
 *   - a non-deterministic re-execution is reported by the oracle (and the same failure with
 *     piecewise determinism is not);
 *   - the stencil application recovers with the failure-free checksum;
 *   - bad --param values are input errors.
 * Causal variant: 100 seeded runs with failures, no send held, only the failed process rolls
 * back, 0 violations, and replays that used determinants the logger never had, from the copies
 * piggybacked to peers (seen in the trace); the stencil recovers with the right checksum. */
#include "tests/sim/msglog_config.hpp"
#include "tests/support/results.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

/** Every rollback between a failure and the end of its recovery is on the failed node; returns
 *  how many rollbacks there were (failures are one at a time under msglog). */
int rollbacks_only_on_victims(const std::vector<json>& trace, const std::string& what) {
  int rollbacks = 0;
  std::map<int, int> victim_of; // failure id -> victim
  int open = -1;
  for (const auto& e : trace) {
    if (e["ev"] == "failure") {
      victim_of[e["failure"].get<int>()] = e["node"].get<int>();
      EXPECT_EQ(open, -1) << what << ": a failure during another recovery";
      open = e["failure"].get<int>();
    } else if (e["ev"] == "recovery_done") {
      EXPECT_EQ(e["failure"].get<int>(), open) << what;
      open = -1;
    } else if (e["ev"] == "rollback") {
      rollbacks++;
      EXPECT_NE(open, -1) << what << ": a rollback outside a recovery";
      if (open != -1) {
        EXPECT_EQ(e["node"].get<int>(), victim_of[open]) << what << ": " << e.dump();
      }
    }
  }
  return rollbacks;
}

/** The no-orphan condition of message logging, from a level-1 trace: whatever another process
 *  delivered from an incarnation of p that failed depends on p's deliveries up to the rsn it
 *  carried; p's replay must have rebuilt at least that many (replay_end's rsn). Checked for
 *  every failure; returns how many messages of failed incarnations the check covered. */
int replays_cover_what_others_depend_on(const std::vector<json>& trace, const std::string& what) {
  std::map<std::pair<int, int>, int> max_rsn; // (process, epoch) -> highest rsn carried to a delivery
  std::map<std::pair<int, int>, int> rebuilt; // (process, dead epoch) -> rsn its replay reached
  std::map<int, int> incarnation;
  int covered = 0;
  for (const auto& e : trace) {
    if (e["ev"] == "restart") {
      incarnation[e["node"].get<int>()] = e["incarnation"].get<int>();
    } else if (e["ev"] == "replay_end") {
      const int p = e["node"].get<int>();
      rebuilt[{p, incarnation[p] - 1}] = e["rsn"].get<int>();
    } else if (e["ev"] == "app_deliver" && e["src"] != e["node"]) {
      const auto& pb = e["piggyback"];
      auto& m = max_rsn[{e["src"].get<int>(), pb["epoch"].get<int>()}];
      m = std::max(m, pb["rsn"].get<int>());
    }
  }
  for (const auto& [key, rsn] : rebuilt) {
    auto it = max_rsn.find(key);
    if (it == max_rsn.end()) continue;
    covered++;
    EXPECT_LE(it->second, rsn) << what << ": process " << key.first << " incarnation " << key.second
                               << " sent a message depending on delivery " << it->second << " but its replay rebuilt "
                               << rsn;
  }
  return covered;
}

json scripted_topology() {
  json t = small_topology(1, 3, INFINITY);
  t["controller"] = {{"latency", "1ms"}, {"bandwidth", "10GBps"}};
  t["failures"] = {{"downtime", 0.1}, {"restart_overhead", 0.05}};
  return t;
}

// c0-1 receives a1, a2 (at 0), c1 (0.2), a3 (0.5); it sends b1 at 0.5005, while the determinant
// of a3 is on its way to the logger (1 ms away): b1 is held. It fails at 2, after sending b2.
json scripted_application() {
  return {{"kind", "scripted"},
          {"nodes",
           {{"c0-0",
             {{{"send", "c0-1"}, {"label", "a1"}},
              {{"send", "c0-1"}, {"label", "a2"}},
              {{"compute", 0.5}},
              {{"send", "c0-1"}, {"label", "a3"}},
              {{"compute", 3.0}}}},
            {"c0-1",
             {{{"compute", 0.5005}},
              {{"send", "c0-0"}, {"label", "b1"}},
              {{"compute", 1.0}},
              {{"send", "c0-2"}, {"label", "b2"}},
              {{"compute", 1.5}}}},
            {"c0-2", {{{"compute", 0.2}}, {{"send", "c0-1"}, {"label", "c1"}}, {{"compute", 3.0}}}}}},
          {"failures", {{{"date", 2.0}, {"node", "c0-1"}}}}};
}

} // namespace

TEST(MsglogPessimistic, ScriptedScenarioCountsByHand) {
  RunConfig c = msglog_config(scripted_topology(), scripted_application(), INFINITY, 1);
  c.options.trace_file = temp_path("msglog-scripted.jsonl");
  c.options.trace_level = 1;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const json& doc = r.document;
  EXPECT_EQ(doc["results"]["status"], "completed");
  EXPECT_EQ(doc["results"]["failures"], 1);
  EXPECT_EQ(doc["results"]["consistency"]["violations"], 0);
  // Deliveries before the failure: a1, a2, c1, a3 at c0-1 (a2 arrives while a1's determinant is
  // outstanding: its own DET follows the ack), b1 at c0-0, b2 at c0-2: 6 determinants in 6 DET
  // messages of 16 + 24 bytes. The replayed deliveries send none.
  EXPECT_EQ(counter(doc, "msglog.determinants"), 6);
  EXPECT_EQ(counter(doc, "msglog.det_messages"), 6);
  EXPECT_EQ(counter(doc, "msglog.det_bytes"), 6 * 40);
  EXPECT_EQ(counter(doc, "ctrl.DET_ACK"), 6);
  // b1 waited for a3's determinant: about one round trip to the logger (2 x 1 ms).
  EXPECT_EQ(counter(doc, "msglog.held"), 1);
  EXPECT_GT(counter(doc, "msglog.hold_max"), 0.0015);
  EXPECT_LT(counter(doc, "msglog.hold_max"), 0.003);
  // Recovery: no checkpoint, so the initial state; RESEND_REQ to both peers, c0-0 re-sends a1,
  // a2, a3 and c0-2 re-sends c1; the four are replayed in the logged order; b1 and b2, sent again
  // by the re-execution, are duplicates at their receivers.
  EXPECT_EQ(counter(doc, "ctrl.REPLAY_REQ"), 1);
  EXPECT_EQ(counter(doc, "ctrl.RESEND_REQ"), 2);
  EXPECT_EQ(counter(doc, "ctrl.CATCHUP"), 2);
  EXPECT_EQ(counter(doc, "msglog.resent"), 4);
  EXPECT_EQ(counter(doc, "app.resent"), 4);
  EXPECT_EQ(counter(doc, "msglog.replayed"), 4);
  EXPECT_EQ(counter(doc, "msglog.duplicates"), 2);
  EXPECT_EQ(counter(doc, "app.delivered"), 10);
  const auto& rec = doc["stats"]["series"]["msglog.recoveries"];
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0]["victim"], 1);
  EXPECT_EQ(rec[0]["rolled_back"], 1);
  EXPECT_EQ(rec[0]["replayed"], 4);
  EXPECT_EQ(rec[0]["resent"], 4);
  // It ends once the re-execution has sent b2 again: restart at 2.1, + 0.05 overhead, + 1.5005
  // of computation, after the failure at 2.
  EXPECT_NEAR(rec[0]["duration"].get<double>(), 1.6505, 0.01);

  const auto trace = read_trace(c.options.trace_file);
  std::vector<std::pair<int, int>> replayed; // (src, idx) in replay order
  std::vector<std::string> dropped_labels;
  int begins = 0;
  for (const auto& e : trace) {
    if (e["ev"] == "replay_deliver") replayed.emplace_back(e["src"].get<int>(), e["idx"].get<int>());
    if (e["ev"] == "replay_begin") {
      begins++;
      EXPECT_EQ(e["determinants"], 4);
      EXPECT_EQ(e["checkpoint"], 0);
    }
  }
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(replayed, (std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {2, 0}, {0, 2}}));
  EXPECT_EQ(rollbacks_only_on_victims(trace, "scripted"), 1);
  std::remove(c.options.trace_file.c_str());
}

TEST(MsglogPessimistic, TwoHundredRunsWithFailuresRollBackOnlyTheFailedProcess) {
  const json app = small_application(2, 0.02, 1.5, 0.5, 0.2);
  int with_failures = 0, failures = 0;
  double replayed = 0, resent = 0, held = 0, from_checkpoint = 0;
  int covered = 0;
  for (std::uint64_t seed = 1; with_failures < 200 && seed < 600; seed++) {
    json topo = small_topology(2, 3, 0.8);
    topo["failures"] = {{"downtime", 0.01}, {"detection_delay", 0.002}, {"restart_overhead", 0.005}};
    if (seed % 2 == 0) topo["controller"] = {{"latency", "2ms"}, {"bandwidth", "1GBps"}}; // a slow logger: sends wait
    RunConfig c = msglog_config(topo, app, 0.2, seed);
    c.options.trace_file = temp_path("msglog-random.jsonl");
    c.options.trace_level = 1;
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << "seed " << seed;
    EXPECT_EQ(res["consistency"]["violations"], 0) << "seed " << seed;
    const auto trace = read_trace(c.options.trace_file);
    std::remove(c.options.trace_file.c_str());
    const int f = res["failures"].get<int>();
    if (f == 0) continue;
    with_failures++;
    failures += f;
    EXPECT_EQ(rollbacks_only_on_victims(trace, "seed " + std::to_string(seed)), f) << "seed " << seed;
    covered += replays_cover_what_others_depend_on(trace, "seed " + std::to_string(seed));
    const auto& rec = r.document["stats"]["series"]["msglog.recoveries"];
    EXPECT_EQ(static_cast<int>(rec.size()), f) << "seed " << seed;
    for (const auto& e : rec) from_checkpoint += e["checkpoint"].get<int>() > 0;
    replayed += counter(r.document, "msglog.replayed");
    resent += counter(r.document, "msglog.resent");
    held += counter(r.document, "msglog.held");
  }
  EXPECT_EQ(with_failures, 200);
  EXPECT_GT(failures, 250);
  // The checks above were exercised: replays from checkpoints, re-sends, held sends.
  EXPECT_GT(replayed, 1000);
  EXPECT_GT(resent, 1000);
  EXPECT_GT(held, 300);
  EXPECT_GT(from_checkpoint, 100);
  EXPECT_GT(covered, 200);
}

TEST(MsglogPessimistic, CheckpointsBoundTheLogsAndTheDeterminants) {
  const json app = small_application(2, 0.01, 4.0, 0.5, 0.2);
  auto without = run_in_child(msglog_config(small_topology(2, 3, INFINITY), app, INFINITY, 3));
  auto with = run_in_child(msglog_config(small_topology(2, 3, INFINITY), app, 0.2, 3));
  ASSERT_EQ(without.exit_status, 0) << without.error;
  ASSERT_EQ(with.exit_status, 0) << with.error;
  const json& a = without.document;
  const json& b = with.document;
  // Without checkpoints nothing is ever dropped: every send is in a log, every determinant at the logger.
  const double sends = counter(a, "msglog.sends");
  ASSERT_GT(sends, 1000);
  EXPECT_EQ(counter(a, "log.entries"), sends);
  EXPECT_EQ(counter(a, "log.entries_max"), sends);
  EXPECT_EQ(counter(a, "log.bytes"), sends * 4096);
  EXPECT_EQ(counter(a, "msglog.dets_held"), counter(a, "msglog.determinants"));
  EXPECT_EQ(counter(a, "msglog.checkpoints"), 0);
  // With a checkpoint every 0.2 s of a 4 s run, a process keeps about two periods of its sends.
  EXPECT_EQ(counter(b, "msglog.sends"), sends); // same application, same seed
  EXPECT_GE(counter(b, "msglog.checkpoints"), 6 * 18);
  EXPECT_LT(counter(b, "log.entries_max"), 0.2 * sends);
  EXPECT_LT(counter(b, "msglog.dets_held_max"), 0.2 * counter(b, "msglog.determinants"));
  EXPECT_GT(counter(b, "msglog.log_gc_dropped"), 0.7 * sends);
  EXPECT_GT(counter(b, "msglog.dets_collected"), 0.7 * counter(b, "msglog.determinants"));
  EXPECT_EQ(b["results"]["consistency"]["violations"], 0);
}

TEST(MsglogPessimistic, NonDeterministicReexecutionIsReported) {
  const std::string failures = temp_path("msglog-nondet.txt");
  std::ofstream(failures) << "1.05 1\n";
  for (bool deterministic : {true, false}) {
    json topo = small_topology(1, 4, INFINITY);
    topo["failures"] = {{"model", "trace"}, {"trace", failures}, {"downtime", 0.01}};
    json app = small_application(1, 0.02, 2.0, 0.8, 0.0);
    app["deterministic"] = deterministic;
    auto r = run_in_child(msglog_config(topo, app, 0.3, 1));
    ASSERT_EQ(r.exit_status, 0) << r.error;
    EXPECT_EQ(r.document["results"]["failures"], 1);
    if (deterministic) {
      EXPECT_EQ(r.document["results"]["status"], "completed");
      EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
    } else {
      EXPECT_GT(r.document["results"]["consistency"]["violations"].get<int>(), 0);
    }
  }
  std::remove(failures.c_str());
}

namespace {
// The stencil under a variant, with failures: every run ends with the failure-free result.
void stencil_keeps_its_checksum(const char* variant, int nodes, int width, const char* logger_latency, int seeds,
                                int min_with_failures) {
  const json app{{"kind", "stencil"}, {"dims", 1}, {"width", width}, {"iterations", 60}, {"task_cost", 0.001}};
  auto topo = [&](double mtbf) {
    json t = small_topology(1, nodes, mtbf);
    t["storage"] = {{"model", "servers"}, {"servers", 2}};
    t["failures"] = {{"downtime", 0.005}};
    if (logger_latency) t["controller"] = {{"latency", logger_latency}, {"bandwidth", "1GBps"}};
    return t;
  };
  RunConfig reference = msglog_config(topo(INFINITY), app, 0.1, 1);
  reference.options.protocol = "none";
  reference.options.params.clear();
  auto ref = run_in_child(reference);
  ASSERT_EQ(ref.exit_status, 0) << ref.error;
  const auto checksum = ref.document["results"]["result_checksum"].get<std::uint64_t>();
  int with_failures = 0;
  for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(seeds); seed++) {
    RunConfig c = msglog_config(topo(0.3), app, 0.1, seed, variant);
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << r.error;
    const auto& res = r.document["results"];
    EXPECT_EQ(res["status"], "completed") << seed;
    EXPECT_EQ(res["consistency"]["violations"], 0) << seed;
    EXPECT_EQ(res["result_checksum"].get<std::uint64_t>(), checksum) << seed;
    with_failures += res["failures"].get<double>() > 0;
  }
  EXPECT_GT(with_failures, min_with_failures);
}
} // namespace

TEST(MsglogPessimistic, StencilRecoversWithTheFailureFreeChecksum) {
  stencil_keeps_its_checksum("pessimistic", 8, 64, nullptr, 30, 15);
}

TEST(MsglogInput, UnknownVariantIsAnInputError) {
  RunConfig c = msglog_config(small_topology(1, 3, INFINITY), small_application(1, 0.1, 1.0, 0.5, 0.0), 0.5, 1);
  c.options.params["variant"] = "eventual";
  auto r = run_in_child(c);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("--param: variant: unknown msglog variant \"eventual\""), std::string::npos) << r.error;
  c.options.params["variant"] = "optimistic";
  auto o = run_in_child(c);
  EXPECT_EQ(o.exit_status, 0) << o.error;
  c.options.params["keep"] = "1";
  auto k = run_in_child(c);
  EXPECT_EQ(k.exit_status, 2);
  EXPECT_NE(k.error.find("--param: keep"), std::string::npos) << k.error;
}

TEST(MsglogCausal, HundredRunsWithFailuresReplayFromPeersCopies) {
  const json app = small_application(2, 0.01, 1.5, 0.6, 0.3);
  int with_failures = 0, failures = 0, runs_using_peers = 0, covered = 0;
  double from_peers = 0, piggybacked = 0, replayed = 0;
  for (std::uint64_t seed = 1; with_failures < 100 && seed < 400; seed++) {
    // A logger far away (3 ms) in most runs: failures find determinants only the peers have.
    const json topo = far_logger_topology(seed, "3ms");
    RunConfig c = msglog_config(topo, app, 0.15, seed, "causal");
    c.options.trace_file = temp_path("msglog-causal.jsonl");
    c.options.trace_level = 1;
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << "seed " << seed;
    EXPECT_EQ(res["consistency"]["violations"], 0) << "seed " << seed;
    EXPECT_EQ(counter(r.document, "msglog.held"), 0) << "seed " << seed; // causal never holds a send
    const auto trace = read_trace(c.options.trace_file);
    std::remove(c.options.trace_file.c_str());
    const int f = res["failures"].get<int>();
    piggybacked += counter(r.document, "msglog.piggyback_dets");
    if (f == 0) continue;
    with_failures++;
    failures += f;
    EXPECT_EQ(rollbacks_only_on_victims(trace, "seed " + std::to_string(seed)), f) << "seed " << seed;
    covered += replays_cover_what_others_depend_on(trace, "seed " + std::to_string(seed));
    int peers_here = 0;
    for (const auto& e : trace)
      if (e["ev"] == "replay_begin") {
        peers_here += e["from_peers"].get<int>();
        EXPECT_EQ(e["determinants"].get<int>(), e["from_logger"].get<int>() + e["from_peers"].get<int>());
      }
    EXPECT_EQ(peers_here, counter(r.document, "msglog.replay_from_peers")) << "seed " << seed;
    runs_using_peers += peers_here > 0;
    from_peers += peers_here;
    replayed += counter(r.document, "msglog.replayed");
  }
  EXPECT_EQ(with_failures, 100);
  EXPECT_GT(failures, 150);
  // Replays did use determinants the logger had not stored at the failure: the peers' copies
  // are what made those runs consistent.
  EXPECT_GT(runs_using_peers, 20);
  EXPECT_GT(from_peers, 50);
  EXPECT_GT(replayed, 500);
  EXPECT_GT(piggybacked, 10000);
  EXPECT_GT(covered, 100);
}

TEST(MsglogCausal, StencilRecoversWithTheFailureFreeChecksum) {
  stencil_keeps_its_checksum("causal", 6, 48, "1ms", 20, 10);
}
