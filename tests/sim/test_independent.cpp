/* Protocol independent end to end (SPEC 3.5):
 *   - scripted scenarios (workloads/independent/): a failure that cascades to the initial states
 *     (the domino effect) and one that rolls back only the failed process and one neighbour; in
 *     both, the recovery line the protocol traces equals the line this test computes from the
 *     trace alone (ckpt_commit dependencies, app_deliver piggybacks, earlier rollbacks) with its
 *     own fixed point, and the engine's rollback events are exactly the line's units;
 *   - seeded runs with failures, process and cluster units, with and without GC, deterministic
 *     and not: every run completes with 0 consistency violations;
 *   - the stencil application under failures computes the failure-free result;
 *   - garbage collection keeps the stored checkpoints bounded and later failures still recover. */
#include "tests/support/sim_child.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

RunConfig random_config(int i) {
  const int clusters = 2 + i % 2, nodes = 2 + (i / 2) % 2;
  json topo = small_topology(clusters, nodes, 40.0);
  topo["failures"] = {{"downtime", 2}, {"detection_delay", 0.5}, {"restart_overhead", 0.5}};
  for (auto& c : topo["clusters"]) c["checkpoint_size"] = "64KB";
  json timers = {{"default", {{"checkpoint_period", 8 + (i % 3) * 6}}}};
  if (i % 4 < 2) timers["default"]["gc_period"] = 30;
  json app = small_application(clusters, 1.0, 120.0, 0.3, 0.1);
  if (i % 5 == 4) app["deterministic"] = false;
  RunConfig c = make_config(topo, app, timers);
  c.options.protocol = "independent";
  c.options.params["unit"] = i % 2 ? "cluster" : "process";
  c.options.seed = static_cast<std::uint64_t>(i + 1);
  c.options.end_date = 20000; // a livelock fails instead of hanging
  return c;
}

} // namespace

namespace {

const std::string kIndependentDir = std::string(CKPTSIM_SOURCE_DIR) + "/workloads/independent/";

json load(const std::string& scenario, const std::string& name) {
  return json::parse(std::ifstream(kIndependentDir + scenario + "/" + name));
}

using Deps = std::vector<int>;
using IndependentLine = std::vector<std::optional<int>>;

// The recovery line recomputed here from SPEC 3.5, apart from protocols/independent: the failed
// unit starts from its last checkpoint, the others from their current state; a state holding
// the delivery of a message sent in an interval >= the checkpoint its sender restores is
// inconsistent, and its unit moves to its latest older checkpoint that is not.
bool inconsistent(const Deps& d, const IndependentLine& line) {
  for (std::size_t w = 0; w < d.size(); w++)
    if (line[w] && d[w] >= 0 && d[w] >= *line[w]) return true;
  return false;
}

IndependentLine fixed_point(const std::vector<std::map<int, Deps>>& commits, const std::vector<Deps>& current,
                            int failed) {
  const std::size_t n = commits.size();
  IndependentLine line(n);
  line[static_cast<std::size_t>(failed)] = commits[failed].empty() ? 0 : commits[failed].rbegin()->first;
  const Deps none(n, -1);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t u = 0; u < n; u++) {
      const Deps& d = !line[u] ? current[u] : *line[u] == 0 ? none : commits[u].at(*line[u]);
      if (!inconsistent(d, line)) continue;
      int best = 0;
      for (const auto& [number, deps] : commits[u])
        if ((!line[u] || number < *line[u]) && !inconsistent(deps, line)) best = number;
      line[u] = best;
      changed = true;
    }
  }
  return line;
}

/** What a run shows, read from its level-1 trace: each recovery line the protocol traced and
 *  the one recomputed here, from the commits, deliveries, rollbacks and collections before it. */
struct Replayed {
  int recoveries = 0, mismatches = 0;
  std::string first_mismatch;
  IndependentLine traced, recomputed; // of the last recovery
  std::vector<int> traced_rolled_over, recomputed_rolled_over;
  std::map<int, int> rollbacks;                            // node -> checkpoint, during the last recovery
  std::vector<std::string> replays;                        // labels re-sent after the first failure
  std::vector<std::map<int, Deps>> commits_before_failure; // per unit, before the first failure
};

Replayed replay_trace(const std::vector<json>& trace, int units, const std::function<int(int)>& unit_of) {
  Replayed r;
  std::vector<std::map<int, Deps>> commits(static_cast<std::size_t>(units));
  std::vector<Deps> current(static_cast<std::size_t>(units), Deps(static_cast<std::size_t>(units), -1));
  int victim = -1;
  bool in_recovery = false;
  const std::regex number(R"(checkpoint (\d+))");
  auto check_recovery = [&](double t) {
    std::map<int, int> on_line; // the units on the line, against those the engine rolled back
    for (std::size_t u = 0; u < r.traced.size(); u++)
      if (r.traced[u]) on_line[static_cast<int>(u)] = *r.traced[u];
    std::map<int, int> rolled;
    for (const auto& [node, k] : r.rollbacks) rolled[unit_of(node)] = k;
    if (r.traced == r.recomputed && r.traced_rolled_over == r.recomputed_rolled_over && rolled == on_line) return;
    if (r.mismatches++ == 0) r.first_mismatch = fmt::format("recovery ending at {}", t);
  };
  for (const auto& e : trace) {
    const std::string ev = e["ev"];
    if (ev == "ckpt_commit") {
      commits[e["unit"].get<int>()][e["number"].get<int>()] = e["deps"].get<Deps>();
    } else if (ev == "app_deliver" && e["piggyback"].contains("interval")) {
      int& d = current[unit_of(e["dst"].get<int>())][unit_of(e["src"].get<int>())];
      d = std::max(d, e["piggyback"]["interval"].get<int>());
    } else if (ev == "gc") {
      const auto line = e["line"].get<std::vector<int>>();
      for (int u = 0; u < units; u++) std::erase_if(commits[u], [&](const auto& c) { return c.first < line[u]; });
    } else if (ev == "failure") {
      if (victim < 0) r.commits_before_failure = commits;
      victim = e["node"];
    } else if (ev == "recovery_line") {
      r.recoveries++;
      in_recovery = true;
      r.rollbacks.clear();
      r.recomputed = fixed_point(commits, current, unit_of(victim));
      r.recomputed_rolled_over.assign(static_cast<std::size_t>(units), 0);
      for (int u = 0; u < units; u++)
        for (const auto& [n, d] : commits[u])
          if (r.recomputed[u] && n > *r.recomputed[u]) r.recomputed_rolled_over[u]++;
      r.traced.clear();
      for (const auto& l : e["line"]) r.traced.push_back(l.is_null() ? std::nullopt : std::optional<int>(l.get<int>()));
      r.traced_rolled_over = e["rolled_over"].get<std::vector<int>>();
    } else if (ev == "rollback") {
      std::smatch m;
      const std::string reason = e["reason"];
      EXPECT_TRUE(std::regex_search(reason, m, number)) << reason;
      const int node = e["node"], u = unit_of(node), k = std::stoi(m[1]);
      if (in_recovery) r.rollbacks[node] = k;
      current[u] = k == 0 ? Deps(static_cast<std::size_t>(units), -1) : commits[u].at(k);
      std::erase_if(commits[u], [k](const auto& c) { return c.first > k; });
    } else if (ev == "replay" && victim >= 0) { // re-sends come once the victim is back
      if (e.contains("label")) r.replays.push_back(e["label"]);
    } else if (ev == "recovery_done" && in_recovery) {
      in_recovery = false;
      check_recovery(e["t"].get<double>());
    }
  }
  return r;
}

struct IndependentScenario {
  json application;
  ChildResult result;
  Replayed seen;
};

IndependentScenario run_scenario(const std::string& name, int units) {
  IndependentScenario s;
  s.application = load(name, "application.json");
  RunConfig c = make_config(load(name, "topology.json"), s.application, load(name, "timers.json"));
  c.topology_file = kIndependentDir + name + "/topology.json";
  c.options.protocol = "independent";
  c.options.trace_file = temp_path(name + ".jsonl");
  c.options.trace_level = 1;
  s.result = run_in_child(c);
  s.seen = replay_trace(read_trace(c.options.trace_file), units, [](int n) { return n; });
  return s;
}

IndependentLine expected_line(const json& j) {
  IndependentLine l;
  for (const auto& v : j) l.push_back(v.is_null() ? std::nullopt : std::optional<int>(v.get<int>()));
  return l;
}

void expect_line_from_trace(const IndependentScenario& s) {
  ASSERT_EQ(s.result.exit_status, 0) << s.result.error;
  const auto& res = s.result.document["results"];
  EXPECT_EQ(res["status"], "completed");
  EXPECT_EQ(res["failures"], 1);
  EXPECT_EQ(res["consistency"]["violations"], 0);
  ASSERT_EQ(s.seen.recoveries, 1);
  // The protocol's line is the test's own fixed point over the trace, and the scenario's.
  EXPECT_EQ(s.seen.traced, s.seen.recomputed);
  EXPECT_EQ(s.seen.traced_rolled_over, s.seen.recomputed_rolled_over);
  EXPECT_EQ(s.seen.traced, expected_line(s.application["expected"]["line"]));
  EXPECT_EQ(s.seen.traced_rolled_over, s.application["expected"]["rolled_over"].get<std::vector<int>>());
  // The engine rolled back exactly the units on the line, each to its checkpoint there.
  std::map<int, int> on_line;
  for (std::size_t u = 0; u < s.seen.traced.size(); u++)
    if (s.seen.traced[u]) on_line[static_cast<int>(u)] = *s.seen.traced[u];
  EXPECT_EQ(s.seen.rollbacks, on_line);
}

} // namespace

TEST(IndependentScripted, DominoEffectTakesBothProcessesBackToTheirInitialStates) {
  const IndependentScenario s = run_scenario("domino", 2);
  ASSERT_NO_FATAL_FAILURE(expect_line_from_trace(s)); // a failed run has no trace to read on
  // The checkpoints the schedule describes, each holding a message of the other's later interval.
  for (const auto& [unit, list] : s.application["expected"]["deps"].items()) {
    std::map<int, Deps> want;
    for (const auto& c : list) want[c[0].get<int>()] = c[1].get<Deps>();
    EXPECT_EQ(s.seen.commits_before_failure[std::stoi(unit)], want) << "unit " << unit;
  }
  const auto& rec = s.result.document["stats"]["series"]["independent.recoveries"];
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0]["to_initial"], 2);
  EXPECT_EQ(rec[0]["rolled_over"], 5);
  EXPECT_EQ(rec[0]["max_depth"], 3);
  EXPECT_TRUE(s.seen.replays.empty()); // every send is undone: nothing to re-send
  // No GC: at the end each process' log holds the 3 messages its final execution sent (the
  // restarted B's lost log is not counted twice).
  EXPECT_EQ(s.result.document["stats"]["counters"]["log.entries"], 6);
}

TEST(IndependentScripted, OneStepRollbackLeavesTheThirdProcessAlone) {
  const IndependentScenario s = run_scenario("one-step", 3);
  ASSERT_NO_FATAL_FAILURE(expect_line_from_trace(s)); // a failed run has no trace to read on
  EXPECT_EQ(s.seen.replays, s.application["expected"]["replayed"].get<std::vector<std::string>>());
  const auto& rec = s.result.document["stats"]["series"]["independent.recoveries"];
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0]["units_rolled_back"], 2);
  EXPECT_EQ(rec[0]["to_initial"], 0);
  EXPECT_EQ(s.result.document["stats"]["counters"]["log.entries"], 5); // a b c d e, no GC
}

namespace {

json stencil_topology(double mtbf) {
  json t = small_topology(2, 4, mtbf);
  t["storage"] = {{"model", "servers"}, {"servers", 2}};
  t["failures"] = {{"downtime", 0.005}, {"detection_delay", 0.001}};
  return t;
}

RunConfig stencil_config(double mtbf, std::uint64_t seed, const std::string& unit, const char* protocol) {
  const json app{{"kind", "stencil"}, {"dims", 1}, {"width", 64}, {"iterations", 100}, {"task_cost", 0.001}};
  RunConfig c =
      make_config(stencil_topology(mtbf), app, {{"default", {{"checkpoint_period", 0.1}, {"gc_period", 0.3}}}});
  c.options.protocol = protocol;
  c.options.params["unit"] = unit;
  c.options.seed = seed;
  c.options.end_date = 50;
  return c;
}

} // namespace

TEST(IndependentStencil, FailuresDoNotChangeTheResult) {
  RunConfig reference = stencil_config(INFINITY, 1, "process", "none");
  reference.options.params.clear();
  auto ref = run_in_child(reference);
  ASSERT_EQ(ref.exit_status, 0) << ref.error;
  const auto checksum = ref.document["results"]["result_checksum"].get<std::uint64_t>();
  ASSERT_NE(checksum, 0u);
  int with_failures = 0, rolled_back = 0;
  for (std::uint64_t seed = 1; seed <= 40; seed++) {
    const std::string unit = seed % 2 ? "process" : "cluster";
    auto r = run_in_child(stencil_config(0.5, seed, unit, "independent"));
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << "seed " << seed;
    EXPECT_EQ(res["consistency"]["violations"], 0) << "seed " << seed;
    EXPECT_EQ(res["result_checksum"].get<std::uint64_t>(), checksum) << "seed " << seed << " unit " << unit;
    with_failures += res["failures"].get<double>() > 0;
    rolled_back += static_cast<int>(r.document["stats"]["counters"].value("independent.rollbacks", 0.0));
  }
  EXPECT_GE(with_failures, 30);
  EXPECT_GT(rolled_back, with_failures);
}

namespace {

RunConfig gc_config(double p_inter, double mtbf, bool gc, std::uint64_t seed) {
  json topo = small_topology(2, 2, mtbf);
  topo["failures"] = {{"downtime", 1}, {"detection_delay", 0.2}, {"restart_overhead", 0.2}};
  for (auto& c : topo["clusters"]) c["checkpoint_size"] = "64KB";
  json timers = {{"default", {{"checkpoint_period", 5}}}};
  if (gc) timers["default"]["gc_period"] = 20;
  RunConfig c = make_config(topo, small_application(2, 1.0, 200.0, p_inter > 0 ? 0.3 : 0.0, p_inter), timers);
  c.options.protocol = "independent";
  c.options.seed = seed;
  c.options.end_date = 20000;
  return c;
}

} // namespace

TEST(IndependentGc, WithoutMessagesEveryCollectionKeepsOnlyEachUnitsLastCheckpoint) {
  // No message between the 4 processes: nothing depends on anything, the GC line is every
  // unit's last checkpoint, and each collection leaves exactly 4 checkpoints stored.
  auto without = run_in_child(gc_config(0.0, INFINITY, false, 1));
  auto with = run_in_child(gc_config(0.0, INFINITY, true, 1));
  ASSERT_EQ(without.exit_status, 0) << without.error;
  ASSERT_EQ(with.exit_status, 0) << with.error;
  const auto& gcs = with.document["stats"]["series"]["independent.gc"];
  ASSERT_GE(gcs.size(), 9u); // every 20 s of a 200 s run
  for (const auto& g : gcs) EXPECT_EQ(g["stored_after"], 4) << g.dump();
  // Every unit checkpoints every 5 s (plus the pause of its save): about 40 checkpoints each.
  const auto& c_without = without.document["stats"]["counters"];
  EXPECT_GE(c_without["independent.stored"].get<double>(), 4 * 38);
  EXPECT_EQ(c_without["independent.stored"], c_without["independent.checkpoints"]);
  EXPECT_LE(with.document["stats"]["counters"]["independent.stored_max"].get<double>(), 4 * 5);
}

TEST(IndependentGc, StoredCheckpointsStayBoundedAndLaterFailuresRecover) {
  int failures_after_gc = 0;
  for (std::uint64_t seed = 1; seed <= 12; seed++) {
    RunConfig c = gc_config(0.1, 50.0, true, seed);
    c.options.trace_file = temp_path("independent_gc.jsonl");
    c.options.trace_level = 0;
    auto r = run_in_child(c);
    auto ref = run_in_child(gc_config(0.1, 50.0, false, seed));
    ASSERT_EQ(r.exit_status, 0) << r.error;
    ASSERT_EQ(ref.exit_status, 0) << ref.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << seed;
    EXPECT_EQ(res["consistency"]["violations"], 0) << seed;
    // Without GC a unit keeps every checkpoint it took and every message it sent to another
    // unit (about 160 checkpoints, 400 log entries); with a collection every 20 s a few remain.
    const auto& st = r.document["stats"]["counters"];
    const auto& no_gc = ref.document["stats"]["counters"];
    EXPECT_LT(3 * st["independent.stored_max"].get<double>(), no_gc["independent.stored_max"].get<double>()) << seed;
    EXPECT_LT(2 * st["log.entries_max"].get<double>(), no_gc["log.entries_max"].get<double>()) << seed;
    for (const auto& g : r.document["stats"]["series"]["independent.gc"])
      EXPECT_LE(g["stored_after"].get<int>(), g["stored_before"].get<int>());
    // Every recovery line is at or after the last GC line: what the collector removed was never needed.
    std::optional<std::vector<int>> gc_line;
    for (const auto& e : read_trace(c.options.trace_file)) {
      if (e["ev"] == "gc") gc_line = e["line"].get<std::vector<int>>();
      if (e["ev"] != "recovery_line" || !gc_line) continue;
      failures_after_gc++;
      for (std::size_t u = 0; u < gc_line->size(); u++) {
        if (!e["line"][u].is_null()) {
          EXPECT_GE(e["line"][u].get<int>(), (*gc_line)[u]) << "seed " << seed << " " << e.dump();
        }
      }
    }
  }
  EXPECT_GE(failures_after_gc, 20);
}

TEST(IndependentInput, UnknownUnitAndOverlappingFailuresAreRejected) {
  RunConfig c = random_config(0);
  c.options.params["unit"] = "node";
  auto r = run_in_child(c);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("--param unit: expected \"process\" or \"cluster\", got \"node\""), std::string::npos)
      << r.error;
  RunConfig d = random_config(0);
  d.topology_doc["failures"]["overlap"] = "allow";
  auto r2 = run_in_child(d);
  EXPECT_EQ(r2.exit_status, 2);
  EXPECT_NE(r2.error.find("/failures/overlap"), std::string::npos) << r2.error;
}

TEST(IndependentRandom, SeededRunsWithFailuresAreConsistent) {
  int failures = 0, rolled = 0, to_initial = 0, replays = 0, lines = 0;
  for (int i = 0; i < 120; i++) {
    RunConfig c = random_config(i);
    c.options.trace_file = temp_path("independent_random.jsonl");
    c.options.trace_level = 1;
    const std::string what = fmt::format("run {} (unit {}, seed {})", i, c.options.params.at("unit"), i + 1);
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << what;
    EXPECT_EQ(res["consistency"]["violations"], 0) << what;
    const auto& counters = r.document["stats"]["counters"];
    failures += res["failures"].get<int>();
    rolled += static_cast<int>(counters.value("independent.rollbacks", 0.0));
    to_initial += static_cast<int>(counters.value("independent.to_initial", 0.0));
    replays += static_cast<int>(counters.value("independent.replays", 0.0));
    const bool clusters = c.options.params.at("unit") == "cluster";
    const int units =
        clusters ? static_cast<int>(c.topology_doc["clusters"].size()) : r.document["run"]["nodes"].get<int>();
    const int per_cluster = c.topology_doc["clusters"][0]["nodes"];
    const auto seen =
        replay_trace(read_trace(c.options.trace_file), units, [&](int n) { return clusters ? n / per_cluster : n; });
    std::remove(c.options.trace_file.c_str());
    EXPECT_EQ(seen.mismatches, 0) << what << ": " << seen.first_mismatch;
    lines += seen.recoveries;
  }
  std::printf("[ independent random ] %d failures, %d lines recomputed, %d unit rollbacks, %d back to the initial "
              "state, %d re-sends\n",
              failures, lines, rolled, to_initial, replays);
  EXPECT_EQ(lines, failures); // every failure had its recovery line, checked
  EXPECT_GE(failures, 300);
  EXPECT_GT(rolled, failures); // failures cascade to other units
  EXPECT_GT(to_initial, 0);
  EXPECT_GT(replays, 0);
}
