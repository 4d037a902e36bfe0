/* HC3I under network faults (issue 32): what a cut link delays must not be lost for good.
 * - An alert held by a WAN outage and lost with the failure of the leader it was for: once back,
 *   a leader asks the other leaders for the rollbacks its cluster missed (ALERT_QUERY) and
 *   handles the answer (ALERT_REPLY) as alerts. Found by stress.py --partitions (seeds 74, 90:
 *   tests/scenarios/hc3i-lost-alert-leader-failed-*); here, what the queries cost.
 * - A rollback order that a cut SAN link delays past the failed node's return: the node must not
 *   wait for a return it has already heard of (seed 86). */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

// 2 clusters of @p nodes, a 1-D stencil over both (inter-cluster messages all along), failures
// from the trace @p lines (1 s down, detected after 0.5 s), one scripted outage of @p link.
RunConfig cut_run(const std::string& name, int nodes, const std::string& lines, const std::string& link, double down,
                  double up) {
  json topo = small_topology(2, nodes, INFINITY);
  const std::string trace = temp_path(name + ".txt");
  std::ofstream(trace) << lines;
  topo["failures"] = {{"model", "trace"}, {"trace", trace}, {"downtime", 1.0}, {"detection_delay", 0.5}};
  topo["link_failures"] = json::array({json{{"link", link}, {"down", down}, {"up", up}}});
  json app{{"kind", "stencil"}, {"dims", 1},        {"width", 16},
           {"iterations", 120}, {"task_cost", 0.5}, {"cell_size", "1KiB"}};
  RunConfig c = make_config(topo, app, {{"default", {{"checkpoint_period", 5}, {"gc_period", 20}}}});
  c.options.protocol = "hc3i";
  c.options.end_date = 1e5;
  c.options.trace_file = temp_path(name + ".jsonl");
  c.options.trace_level = 2; // control messages
  return c;
}

} // namespace

TEST(Hc3iLostAlerts, ALeaderBackFromAFailureAsksEveryOtherLeaderOnce) {
  // c0-0, c0's leader, fails at 12 s and is back at 13 s: it asks c1's leader for the rollbacks
  // c0 missed (one ALERT_QUERY, one ALERT_REPLY); c1 never rolled back: nothing is recovered.
  // (The alerts it recovers when some were lost: tests/scenarios/hc3i-lost-alert-leader-failed-*.)
  RunConfig c = cut_run("leader-query", 2, "12 c0-0\n", "wan_0_1", 30.0, 31.0);
  auto r = run_in_child(c);
  ASSERT_EQ(clean_completion(r), "");
  EXPECT_EQ(counter(r, "ctrl.ALERT_QUERY"), 1);
  EXPECT_EQ(counter(r, "ctrl.ALERT_REPLY"), 1);
  EXPECT_EQ(counter(r, "hc3i.alerts_recovered"), 0);
  double back = -1, asked = -1;
  for (const auto& e : read_trace(c.options.trace_file)) {
    if (e["ev"] == "node_back" && e["node"] == 0) back = e["t"].get<double>();
    if (e["ev"] == "ctrl_send" && e.value("type", "") == "ALERT_QUERY") {
      EXPECT_EQ(e["node"], 0);
      EXPECT_EQ(e["to"], 2); // c1-0
      EXPECT_EQ(e["body"]["known"], 0);
      asked = e["t"].get<double>();
    }
  }
  EXPECT_GT(back, 13.0);
  EXPECT_DOUBLE_EQ(asked, back); // as soon as it is back
}

TEST(Hc3iLostAlerts, NoQueryWithoutALeaderFailure) {
  // The same cut and c1-1's failure, no leader fails: the alert waits for the WAN and arrives.
  RunConfig c = cut_run("no-query", 2, "10 c1-1\n", "wan_0_1", 10.2, 20.0);
  auto r = run_in_child(c);
  ASSERT_EQ(clean_completion(r), "");
  EXPECT_EQ(counter(r, "ctrl.ALERT_QUERY"), 0);
  EXPECT_EQ(counter(r, "hc3i.alerts_recovered"), 0);
}

TEST(Hc3iLostAlerts, ARollbackOrderDelayedPastTheFailedNodesReturnEndsItsRecovery) {
  // c0-0 fails at 12 s while c0-3's link is down (11.9 s to 16 s): c0's recovery leader c0-1
  // orders the rollback at 12.5 s, c0-0 is back at 13 s, and c0-3 gets its order at 16 s only,
  // after the notice of c0-0's return: it rolls back and goes on, not waiting for that return.
  RunConfig c = cut_run("late-order", 4, "12 c0-0\n", "c0-3_link", 11.9, 16.0);
  auto r = run_in_child(c);
  ASSERT_EQ(clean_completion(r), "");
  double back = -1, order = -1;
  for (const auto& e : read_trace(c.options.trace_file)) {
    if (e["ev"] == "node_back" && e["node"] == 3) back = e["t"].get<double>();
    if (e["ev"] == "ctrl_receive" && e["node"] == 3 && e.value("type", "") == "ROLLBACK") order = e["t"].get<double>();
  }
  EXPECT_LT(back, 16.0);
  EXPECT_GE(order, 16.0);
}
