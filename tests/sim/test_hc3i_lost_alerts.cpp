/* HC3I under network faults (issue 32): what a cut link delays must not be lost for good.
 * - A rollback order that a cut SAN link delays past the failed node's return: the node must not
 *   wait for a return it has already heard of (stress.py --partitions seed 86). */
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

TEST(Hc3iLostAlerts, ARollbackOrderDelayedPastTheFailedNodesReturnEndsItsRecovery) {
  // c0-0 fails at 12 s while c0-3's link is down (11.9 s to 16 s): c0's recovery leader c0-1
  // orders the rollback at 12.5 s, c0-0 is back at 13 s, and c0-3 gets its order at 16 s only,
  // after the notice of c0-0's return: it rolls back and goes on, not waiting for that return.
  RunConfig c = cut_run("late-order", 4, "12 c0-0\n", "c0-3_link", 11.9, 16.0);
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  double back = -1, order = -1;
  for (const auto& e : read_trace(c.options.trace_file)) {
    if (e["ev"] == "node_back" && e["node"] == 3) back = e["t"].get<double>();
    if (e["ev"] == "ctrl_receive" && e["node"] == 3 && e.value("type", "") == "ROLLBACK") order = e["t"].get<double>();
  }
  EXPECT_LT(back, 16.0);
  EXPECT_GE(order, 16.0);
}
