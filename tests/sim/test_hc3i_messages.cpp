/* HC3I's own messages, counted exactly on a failure-free run: a CLC in a cluster of n nodes costs
 * 5 (n - 1) messages (REQ, READY, SAVE, ACK, COMMIT; the leader's own are local calls), and a
 * garbage collection N - 1 requests, N - 1 responses, N - 1 collects and one broadcast of n - 1
 * messages per cluster (report section 5.4). Every inter-cluster delivery is acknowledged once. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

TEST(Hc3iMessages, ClcAndGcMessageCountsAreExact) {
  const int clusters = 3, nodes = 4;
  RunConfig c =
      make_config(small_topology(clusters, nodes, INFINITY), small_application(clusters, 1.0, 100.0, 0.2, 0.02),
                  {{"default", {{"checkpoint_period", 10}, {"gc_period", 30}}}});
  c.options.protocol = "hc3i";
  c.options.seed = 3;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& counters = r.document["stats"]["counters"];
  const auto& pc = r.document["stats"]["per_cluster"];
  auto ctrl = [&](const std::string& type) { return counters.value("ctrl." + type, 0.0); };
  double clcs = 0;
  for (const char* kind : {"hc3i.clc_initial", "hc3i.clc_forced", "hc3i.clc_unforced"})
    for (const auto& v : pc[kind]) clcs += v.get<double>();
  ASSERT_GT(clcs, 3 * clusters); // the initial CLCs and several more
  for (const char* type : {"CLC_REQ", "CLC_READY", "CLC_SAVE", "CLC_ACK", "CLC_COMMIT"})
    EXPECT_EQ(ctrl(type), clcs * (nodes - 1)) << type;

  const double rounds = counters.value("hc3i.gc_rounds", 0.0);
  EXPECT_EQ(rounds, 3); // at 30, 60 and 90 s
  EXPECT_EQ(ctrl("GC_REQ"), rounds * (clusters - 1));
  EXPECT_EQ(ctrl("GC_RESP"), rounds * (clusters - 1));
  EXPECT_EQ(ctrl("GC_COLLECT"), rounds * (clusters - 1));
  EXPECT_EQ(ctrl("GC_APPLY"), rounds * clusters * (nodes - 1));

  // One LOG_ACK per inter-cluster delivery (no failure: no duplicate).
  double inter = 0;
  const auto& m = r.document["stats"]["matrices"]["app.messages"];
  for (int i = 0; i < clusters; i++)
    for (int j = 0; j < clusters; j++)
      if (i != j) inter += m[i][j].get<double>();
  EXPECT_EQ(ctrl("LOG_ACK"), inter);
  // The forced CLCs' requests: at most one per forced CLC per node (leaders ask locally).
  EXPECT_GT(ctrl("CLC_FORCE"), 0);
  EXPECT_EQ(ctrl("ALERT") + ctrl("ALERT_BCAST") + ctrl("ROLLBACK"), 0);
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
}

TEST(Hc3iInput, RejectsWhatItCannotSimulateWithTheFieldNamed) {
  auto run = [](json topo, std::map<std::string, std::string> params = {}) {
    RunConfig c = make_config(std::move(topo), small_application(2, 1.0, 10.0, 0.1, 0.1));
    c.topology_file = "fed.json";
    c.options.protocol = "hc3i";
    c.options.params = std::move(params);
    return run_in_child(c);
  };
  json overlap = small_topology(2, 2, 100.0);
  overlap["failures"] = {{"overlap", "allow"}};
  auto r = run(overlap);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("fed.json: /failures/overlap: hc3i tolerates one failure at a time"), std::string::npos)
      << r.error;
  r = run(small_topology(2, 1, INFINITY));
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("fed.json: /clusters/0/nodes: hc3i needs at least 2 nodes per cluster"), std::string::npos)
      << r.error;
  r = run(small_topology(2, 2, INFINITY), {{"transitive", "maybe"}});
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("--param transitive: expected true or false"), std::string::npos) << r.error;
  EXPECT_EQ(run(small_topology(2, 2, INFINITY), {{"transitive", "true"}}).exit_status, 0);
}
