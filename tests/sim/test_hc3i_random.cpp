/* HC3I on random federations (2 to 5 clusters, 2 to 4 nodes each, failures on, some runs with the
 * garbage collector and some with the transitive variant): no consistency violation, and every
 * recovery the protocol performs is recomputed from the trace alone by functions written here
 * independently of protocols/hc3i, from the report's section 3.4:
 *   - each alert decision (roll back or not, and to which CLC) from the CLCs the cluster stores
 *     at that moment (rebuilt from the trace's commits, rollbacks and collections);
 *   - completeness: every cluster that rolled back alerted every other cluster, which decided;
 *   - the whole recovery line, propagated here from the stored DDVs at the failure, equals the
 *     protocol's whenever no other CLC was committed during the recovery (otherwise the lists
 *     moved under the propagation and only the two checks above apply). */
#include "tests/support/sim_child.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <optional>
#include <set>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

struct Clc {
  int sn;
  std::vector<int> ddv;  // stored with the CLC
  std::vector<int> base; // what its state depends on (before the delivery that forced it)
};
using Lists = std::vector<std::vector<Clc>>;
using Ddvs = std::vector<std::vector<int>>; // each cluster's current DDV

// After restoring CLC t a cluster depends on t's base only (zeros for the initial state).
std::vector<int> restored(const std::vector<Clc>& list, int t, int clusters) {
  for (const auto& c : list)
    if (c.sn == t) return c.base;
  return std::vector<int>(static_cast<std::size_t>(clusters), 0);
}

int undone_from(int sn) { return sn == 0 ? 1 : sn; } // the initial state undoes every SN >= 1

// Section 3.4: roll back iff the current DDV[f] >= s, to the oldest CLC whose DDV[f] >= s.
std::optional<int> decide(const std::vector<Clc>& list, const std::vector<int>& current, int f, int s) {
  if (current[f] < s) return std::nullopt;
  for (const auto& c : list)
    if (c.ddv[f] >= s) return c.sn;
  return -1; // impossible if the lists are right: reported as a mismatch
}

std::map<int, int> propagate(Lists lists, Ddvs current, int failed, int failed_sn) {
  const int n = static_cast<int>(lists.size());
  std::map<int, int> line{{failed, failed_sn}};
  std::deque<std::pair<int, int>> alerts{{failed, undone_from(failed_sn)}};
  while (!alerts.empty()) {
    auto [from, s] = alerts.front();
    alerts.pop_front();
    for (int c = 0; c < n; c++) {
      if (c == from) continue;
      auto t = decide(lists[c], current[c], from, s);
      if (!t) continue;
      current[c] = restored(lists[c], *t, n);
      std::erase_if(lists[c], [&](const Clc& x) { return x.sn > *t; });
      line[c] = line.count(c) ? std::min(line[c], *t) : *t;
      alerts.push_back({c, undone_from(*t)});
    }
  }
  return line;
}

struct Checked {
  int failures = 0, alerts = 0, lines = 0;
};

// Replays a trace: checks every decision, returns counts; records mismatches as test failures.
Checked check_trace(const std::vector<json>& trace, int clusters, const std::string& what) {
  Checked n;
  Lists lists(clusters);
  Ddvs current(static_cast<std::size_t>(clusters), std::vector<int>(static_cast<std::size_t>(clusters), 0));
  bool in_recovery = false, moved = false;
  int failed = -1, failed_sn = 0;
  Lists at_failure;
  Ddvs current_at_failure;
  std::map<int, int> rolled;                   // cluster -> lowest SN of this recovery
  std::vector<std::pair<int, int>> rollbacks;  // (cluster, sn) in order
  std::set<std::tuple<int, int, int>> decided; // (at, from, sn)
  for (const auto& e : trace) {
    const std::string ev = e["ev"];
    if (ev == "ckpt_commit") {
      const int c = e["cluster"];
      lists[c].push_back({e["sn"].get<int>(), e["ddv"].get<std::vector<int>>(), e["base"].get<std::vector<int>>()});
      current[c] = lists[c].back().ddv;
      if (in_recovery && c != failed) moved = true;
    } else if (ev == "gc") {
      const auto worst = e["worst_sn"].get<std::vector<int>>();
      for (int c = 0; c < clusters; c++) std::erase_if(lists[c], [&](const Clc& x) { return x.sn < worst[c]; });
    } else if (ev == "cluster_rollback") {
      const int c = e["cluster"], t = e["to_sn"];
      if (e["cause"] == "failure") {
        n.failures++;
        EXPECT_EQ(t, lists[c].empty() ? 0 : lists[c].back().sn) << what << ": a failed cluster restores its last CLC";
        in_recovery = true;
        moved = false;
        failed = c;
        failed_sn = t;
        rolled.clear();
        rollbacks.clear();
        decided.clear();
      }
      current[c] = restored(lists[c], t, clusters);
      std::erase_if(lists[c], [&](const Clc& x) { return x.sn > t; });
      if (e["cause"] == "failure") {
        at_failure = lists;
        current_at_failure = current;
      }
      rolled[c] = rolled.count(c) ? std::min(rolled[c], t) : t;
      rollbacks.emplace_back(c, t);
    } else if (ev == "alert") {
      n.alerts++;
      const int at = e["cluster"], from = e["from"], s = e["sn"];
      EXPECT_EQ(e["ddv"].get<std::vector<int>>(), current[at]) << what << ": current DDV of cluster " << at;
      const auto mine = decide(lists[at], current[at], from, s);
      const auto theirs = e["rollback_to"].is_null() ? std::nullopt : std::optional<int>(e["rollback_to"].get<int>());
      EXPECT_EQ(mine, theirs) << what << ": alert (" << from << "," << s << ") at cluster " << at << " t=" << e["t"];
      decided.insert({at, from, s});
    } else if (ev == "recovery_done" && in_recovery) {
      in_recovery = false;
      for (auto [c, t] : rollbacks)
        for (int other = 0; other < clusters; other++)
          if (other != c) {
            EXPECT_TRUE(decided.count({other, c, undone_from(t)}))
                << what << ": cluster " << other << " never decided on the alert of cluster " << c << " back to " << t;
          }
      if (!moved) {
        n.lines++;
        EXPECT_EQ(propagate(at_failure, current_at_failure, failed, failed_sn), rolled)
            << what << ": recovery line of the failure at " << e["t"];
      }
    }
  }
  return n;
}

} // namespace

TEST(Hc3iRandom, ConsistentAndRecoveryLinesRecomputed) {
  Checked total;
  int runs = 0;
  for (int i = 0; i < 320; i++) {
    const int clusters = 2 + i % 4, nodes = 2 + (i / 4) % 3;
    json topo = small_topology(clusters, nodes, 60.0);
    topo["failures"] = {{"downtime", 2}, {"detection_delay", 0.5}, {"restart_overhead", 0.5}};
    for (auto& c : topo["clusters"]) c["checkpoint_size"] = "64KB";
    json timers = {{"default", {{"checkpoint_period", 15 + (i % 3) * 10}}}};
    if (i % 2) timers["default"]["gc_period"] = 60;
    RunConfig c = make_config(topo, small_application(clusters, 2.0, 300.0, 0.3, 0.05), timers);
    c.options.protocol = "hc3i";
    c.options.seed = static_cast<std::uint64_t>(i + 1);
    c.options.end_date = 30000; // 100 times the work: a run that never ends fails instead of hanging
    if (i % 5 == 4) c.options.params["transitive"] = "true";
    c.options.trace_file = temp_path("hc3i_random.jsonl");
    c.options.trace_level = 0;
    const std::string what = fmt::format("run {} ({} clusters x {} nodes, seed {}{})", i, clusters, nodes, i + 1,
                                         i % 5 == 4 ? ", transitive" : "");
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
    EXPECT_EQ(r.document["results"]["status"], "completed") << what;
    EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0) << what;
    const Checked n = check_trace(read_trace(c.options.trace_file), clusters, what);
    total.failures += n.failures;
    total.alerts += n.alerts;
    total.lines += n.lines;
    runs++;
  }
  std::printf("[ hc3i random ] %d runs, %d failures, %d alert decisions checked, %d whole lines recomputed\n", runs,
              total.failures, total.alerts, total.lines);
  EXPECT_GE(total.failures, 300);
  EXPECT_GE(total.lines, 100);
}
