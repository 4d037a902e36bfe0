/* Protocol msglog, optimistic variant (SPEC 3.6): determinants logged asynchronously, a failed
 * process rebuilt up to its stable prefix, orphans rolled back by cascading notices.
 *   - a scripted cascade: one failure, two orphans rolled back to their initial state, each by
 *     the previous one's notice (causes, targets and notices read from the trace);
 *   - seeded runs with failures on a small federation with a slow logger link: every run
 *     completes with 0 oracle violations; in the sample some failure rolls back a process other
 *     than the victim; every such rollback is traced as an orphan_rollback caused by a notice,
 *     and the engine's recoveries series counts it;
 *   - the stencil application recovers with the failure-free checksum, orphans included;
 * the no-orphan condition is checked from the trace at the end of every recovery (the oracle
 * alone would not see a kept orphan delivery of the stochastic application: the failed
 * process' re-execution sends the same message again). */
#include "tests/sim/msglog_config.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <tuple>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

struct Rollbacks {
  int others = 0;          // rollbacks of processes other than the failure's victim
  int orphan_restores = 0; // orphan_rollback events of other processes that restored a checkpoint
  int victim_restores = 0; // of the failed process (an orphan of another one during its recovery)
};

/** Walks a level-1 trace: every rollback during a recovery is the victim's or follows an
 *  orphan_rollback of the same node (same date) naming that failure and, as its cause, another
 *  process that announced a rollback (rollback_notice) earlier in that recovery; no rollback
 *  outside a recovery. */
Rollbacks check_rollbacks(const std::vector<json>& trace, const std::string& what) {
  Rollbacks out;
  std::map<int, int> victim_of;
  int open = -1;
  std::map<int, json> last_orphan; // node -> its last orphan_rollback event
  std::set<int> announced;         // nodes that sent a rollback notice in the open recovery
  for (const auto& e : trace) {
    if (e["ev"] == "failure") {
      victim_of[e["failure"].get<int>()] = e["node"].get<int>();
      EXPECT_EQ(open, -1) << what << ": a failure during another recovery";
      open = e["failure"].get<int>();
      announced.clear();
    } else if (e["ev"] == "recovery_done") {
      EXPECT_EQ(e["failure"].get<int>(), open) << what;
      open = -1;
    } else if (e["ev"] == "rollback_notice") {
      EXPECT_EQ(e["failure"].get<int>(), open) << what << ": " << e.dump();
      announced.insert(e["node"].get<int>());
    } else if (e["ev"] == "orphan_rollback") {
      EXPECT_NE(open, -1) << what << ": an orphan rollback outside a recovery";
      EXPECT_EQ(e["failure"].get<int>(), open) << what << ": " << e.dump();
      EXPECT_NE(e["cause"].get<int>(), e["node"].get<int>()) << what;
      // Caused by a notice: its cause announced a rollback earlier in this recovery.
      EXPECT_TRUE(announced.count(e["cause"].get<int>())) << what << ": " << e.dump();
      last_orphan[e["node"].get<int>()] = e;
      // The failed process itself may become an orphan too, through a message it delivered after
      // its replay from an interval another process undid since: counted apart.
      if (!e["checkpoint"].is_null())
        (e["node"].get<int>() == victim_of[open] ? out.victim_restores : out.orphan_restores)++;
    } else if (e["ev"] == "rollback") {
      EXPECT_NE(open, -1) << what << ": a rollback outside a recovery";
      const int node = e["node"].get<int>();
      if (open == -1) continue;
      if (node == victim_of[open]) {
        last_orphan.erase(node);
        continue;
      }
      out.others++;
      auto it = last_orphan.find(node);
      if (it == last_orphan.end()) {
        ADD_FAILURE() << what << ": rollback of " << node << " without an orphan_rollback";
        continue;
      }
      EXPECT_EQ(it->second["t"], e["t"]) << what << ": " << e.dump();
      EXPECT_FALSE(it->second["checkpoint"].is_null()) << what;
      last_orphan.erase(it);
    }
  }
  EXPECT_EQ(open, -1) << what << ": a recovery never ended";
  return out;
}

/** The no-orphan condition, from a level-1 trace: when a recovery ends, no process keeps a
 *  delivery of a message sent in an interval a rollback_notice undid (sender w, an epoch older
 *  than the notice's, a sender rsn above its target). Kept deliveries: the app_deliver events of
 *  each node, cut back to the restored checkpoint's rsn at each restore (replay_begin of a
 *  restarted process, whose deliveries up to its checkpoint are those it had made before its
 *  failure; orphan_rollback of a live one). Returns how many notices were checked. */
int no_orphan_survives(const std::vector<json>& trace, const std::string& what) {
  struct Delivery {
    int src;
    std::uint64_t epoch, rsn;
  };
  std::map<int, std::vector<Delivery>> kept;
  struct Undone {
    int who;
    std::uint64_t epoch, target;
  };
  std::vector<Undone> notices;
  int checked = 0;
  for (const auto& e : trace) {
    const std::string ev = e["ev"];
    if (ev == "app_deliver") {
      const auto& pb = e["piggyback"];
      kept[e["node"].get<int>()].push_back(
          {e["src"].get<int>(), pb["epoch"].get<std::uint64_t>(), pb["rsn"].get<std::uint64_t>()});
    } else if (ev == "replay_begin" || (ev == "orphan_rollback" && !e["checkpoint"].is_null())) {
      kept[e["node"].get<int>()].resize(e["rsn"].get<std::size_t>());
    } else if (ev == "rollback_notice") {
      notices.push_back({e["node"].get<int>(), e["epoch"].get<std::uint64_t>(), e["target"].get<std::uint64_t>()});
    } else if (ev == "recovery_done") {
      for (const auto& n : notices) {
        checked++;
        for (const auto& [node, list] : kept)
          for (std::size_t i = 0; i < list.size(); i++)
            EXPECT_FALSE(list[i].src == n.who && list[i].epoch < n.epoch && list[i].rsn > n.target)
                << what << ": at " << e["t"] << " process " << node << " keeps its delivery " << i + 1 << " from "
                << n.who << " (epoch " << list[i].epoch << ", rsn " << list[i].rsn << "), undone by the notice (epoch "
                << n.epoch << ", target " << n.target << ")";
      }
    }
  }
  return checked;
}

} // namespace

TEST(MsglogOptimistic, HundredRunsWithFailuresRollBackOrphansConsistently) {
  const json app = small_application(2, 0.01, 1.5, 0.6, 0.3);
  int with_failures = 0, failures = 0, runs_with_orphans = 0, others = 0, restores = 0, notices = 0;
  double orphan_stat = 0, engine_extra = 0;
  for (std::uint64_t seed = 1; with_failures < 100 && seed < 400; seed++) {
    // A logger far away in most runs: failures lose determinants others depend on.
    const json topo = far_logger_topology(seed, "4ms");
    RunConfig c = msglog_config(topo, app, 0.15, seed, "optimistic");
    c.options.trace_file = temp_path("msglog-optimistic.jsonl");
    c.options.trace_level = 1;
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << "seed " << seed << " (trace kept: " << c.options.trace_file << ")";
    EXPECT_EQ(res["consistency"]["violations"], 0) << "seed " << seed;
    const auto trace = read_trace(c.options.trace_file);
    std::remove(c.options.trace_file.c_str());
    const int f = res["failures"].get<int>();
    if (f == 0) continue;
    with_failures++;
    failures += f;
    const Rollbacks rb = check_rollbacks(trace, "seed " + std::to_string(seed));
    others += rb.others;
    restores += rb.orphan_restores;
    runs_with_orphans += rb.others > 0;
    notices += no_orphan_survives(trace, "seed " + std::to_string(seed));
    EXPECT_EQ(rb.others, rb.orphan_restores) << "seed " << seed;
    const auto& counters = r.document["stats"]["counters"];
    orphan_stat += counters.contains("msglog.orphan_rollbacks") ? counters["msglog.orphan_rollbacks"].get<double>() : 0;
    for (const auto& rec : r.document["stats"]["series"]["recoveries"])
      engine_extra += rec["rolled_back"].get<double>() - 1;
  }
  EXPECT_EQ(with_failures, 100);
  EXPECT_GT(failures, 120);
  // Not vacuous: failures did roll back other processes, each one traced as an orphan.
  EXPECT_GT(runs_with_orphans, 0);
  EXPECT_GT(others, 0);
  EXPECT_GE(orphan_stat, restores);
  EXPECT_GT(engine_extra, 0);
  EXPECT_GT(notices, failures); // every failure announces one, and the orphans theirs
  std::printf("optimistic: %d runs with failures, %d failures, %d runs with orphans, %d orphan restores, %.0f "
              "orphan rollbacks\n",
              with_failures, failures, runs_with_orphans, others, orphan_stat);
}

TEST(MsglogOptimistic, StencilRecoversWithTheFailureFreeChecksum) {
  const json app{{"kind", "stencil"}, {"dims", 1}, {"width", 48}, {"iterations", 60}, {"task_cost", 0.001}};
  auto topo = [](double mtbf) {
    json t = small_topology(1, 6, mtbf);
    t["storage"] = {{"model", "servers"}, {"servers", 2}};
    t["failures"] = {{"downtime", 0.005}};
    t["controller"] = {{"latency", "2ms"}, {"bandwidth", "1GBps"}};
    return t;
  };
  RunConfig reference = msglog_config(topo(INFINITY), app, 0.1, 1, "optimistic");
  reference.options.protocol = "none";
  reference.options.params.clear();
  auto ref = run_in_child(reference);
  ASSERT_EQ(ref.exit_status, 0) << ref.error;
  const auto checksum = ref.document["results"]["result_checksum"].get<std::uint64_t>();
  int with_failures = 0;
  double orphans = 0;
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    RunConfig c = msglog_config(topo(0.3), app, 0.1, seed, "optimistic");
    c.options.trace_file = temp_path("msglog-optimistic-stencil.jsonl");
    c.options.trace_level = 1;
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << r.error;
    const auto trace = read_trace(c.options.trace_file);
    std::remove(c.options.trace_file.c_str());
    const Rollbacks rb = check_rollbacks(trace, "stencil seed " + std::to_string(seed));
    EXPECT_EQ(rb.others, rb.orphan_restores) << seed;
    no_orphan_survives(trace, "stencil seed " + std::to_string(seed));
    const auto& res = r.document["results"];
    EXPECT_EQ(res["status"], "completed") << seed;
    EXPECT_EQ(res["consistency"]["violations"], 0) << seed;
    EXPECT_EQ(res["result_checksum"].get<std::uint64_t>(), checksum) << seed;
    with_failures += res["failures"].get<double>() > 0;
    const auto& counters = r.document["stats"]["counters"];
    if (counters.contains("msglog.orphan_rollbacks")) orphans += counters["msglog.orphan_rollbacks"].get<double>();
  }
  EXPECT_GT(with_failures, 10);
  EXPECT_GT(orphans, 0); // the cascade ran on an application whose messages carry data
  std::printf("optimistic stencil: %d runs with failures, %.0f orphan rollbacks\n", with_failures, orphans);
}

// A cascade by hand. The logger is 50 ms away, so no determinant is stable at 0.02 when c0-0
// fails. c0-2 sends a1 to c0-0 at 0; c0-0 delivers it (its rsn 1) and sends b1 to c0-1 at 0.01;
// c0-1 delivers b1 and sends c1 to c0-2 at 0.015; c0-2 delivers c1. c0-0 is rebuilt up to its
// stable prefix, rsn 0, and announces it: c0-1 delivered b1, sent at c0-0's rsn 1, so it is an
// orphan and goes back to its initial state (target 0); its notice makes c0-2, which delivered
// c1 (sent at c0-1's rsn 1), an orphan too. Three processes roll back for one failure.
TEST(MsglogOptimistic, ScriptedCascadeRollsBackTwoOrphans) {
  json topo = small_topology(1, 3, INFINITY);
  topo["controller"] = {{"latency", "50ms"}, {"bandwidth", "10GBps"}};
  topo["failures"] = {{"downtime", 0.1}, {"restart_overhead", 0.05}};
  const json app{{"kind", "scripted"},
                 {"nodes",
                  {{"c0-0", {{{"compute", 0.01}}, {{"send", "c0-1"}, {"label", "b1"}}, {{"compute", 1.0}}}},
                   {"c0-1", {{{"compute", 0.015}}, {{"send", "c0-2"}, {"label", "c1"}}, {{"compute", 1.0}}}},
                   {"c0-2", {{{"send", "c0-0"}, {"label", "a1"}}, {{"compute", 1.0}}}}}},
                 {"failures", {{{"date", 0.02}, {"node", "c0-0"}}}}};
  RunConfig c = msglog_config(topo, app, INFINITY, 1, "optimistic");
  c.options.trace_file = temp_path("msglog-optimistic-scripted.jsonl");
  c.options.trace_level = 1;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const json& doc = r.document;
  EXPECT_EQ(doc["results"]["status"], "completed");
  EXPECT_EQ(doc["results"]["failures"], 1);
  EXPECT_EQ(doc["results"]["consistency"]["violations"], 0);
  EXPECT_EQ(doc["stats"]["counters"]["msglog.orphan_rollbacks"], 2);
  const auto& rec = doc["stats"]["series"]["recoveries"];
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0]["rolled_back"], 3);
  const auto trace = read_trace(c.options.trace_file);
  std::remove(c.options.trace_file.c_str());
  std::vector<std::tuple<int, int, int>> orphans; // node, cause, target
  std::vector<std::pair<int, int>> notices;       // node, target
  for (const auto& e : trace) {
    if (e["ev"] == "orphan_rollback") {
      orphans.emplace_back(e["node"].get<int>(), e["cause"].get<int>(), e["target"].get<int>());
      EXPECT_EQ(e["checkpoint"], 0) << e.dump(); // the initial state
    }
    if (e["ev"] == "rollback_notice") notices.emplace_back(e["node"].get<int>(), e["target"].get<int>());
  }
  EXPECT_EQ(orphans, (std::vector<std::tuple<int, int, int>>{{1, 0, 0}, {2, 1, 0}}));
  EXPECT_EQ(notices, (std::vector<std::pair<int, int>>{{0, 0}, {1, 0}, {2, 0}}));
  const Rollbacks rb = check_rollbacks(trace, "scripted");
  EXPECT_EQ(rb.others, 2);
  EXPECT_GT(no_orphan_survives(trace, "scripted"), 0);
}
