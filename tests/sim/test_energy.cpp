/* The energy model (issue 35, item 7; docs/MODEL.md, "Energy"): each process' time in each state
 * (computing, checkpointing, idle, down) at its cluster's power for that state. Times by hand on
 * two scripted nodes: c0-0 computes 10 s, c0-1 5 s then waits, done, for the run's end at 10 s. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {
json two_nodes(double c0, double c1, json failures = json::array()) {
  return {{"kind", "scripted"},
          {"nodes", {{"c0-0", {{{"compute", c0}}}}, {"c0-1", {{{"compute", c1}}}}}},
          {"failures", failures}};
}

json powered_topology() {
  json t = small_topology(1, 2, INFINITY);
  t["clusters"][0]["power"] = {{"computing", "200W"}, {"checkpointing", 150}, {"idle", "0.1kW"}, {"down", "10W"}};
  t["failures"] = {{"downtime", 1}};
  return t;
}

json energy_of(const RunConfig& c) {
  auto r = run_in_child(c);
  EXPECT_EQ(r.exit_status, 0) << r.error;
  return r.document["results"]["energy"];
}
} // namespace

TEST(Energy, EachProcessStateAtItsPowerMakesTheRunsEnergy) {
  RunConfig c = make_config(powered_topology(), two_nodes(10, 5));
  const json e = energy_of(c);
  // c0-0: 10 s computing; c0-1: 5 s computing, then 5 s idle (done) until the run ends at 10 s.
  EXPECT_NEAR(e["seconds"]["computing"].get<double>(), 15, 1e-9);
  EXPECT_NEAR(e["seconds"]["idle"].get<double>(), 5, 1e-9);
  EXPECT_NEAR(e["seconds"]["checkpointing"].get<double>(), 0, 1e-9);
  EXPECT_NEAR(e["seconds"]["down"].get<double>(), 0, 1e-9);
  EXPECT_NEAR(e["computing_j"].get<double>(), 15 * 200, 1e-6);
  EXPECT_NEAR(e["idle_j"].get<double>(), 5 * 100, 1e-6);
  EXPECT_NEAR(e["total_j"].get<double>(), 3500, 1e-6);
}

TEST(Energy, AFailedNodeDrawsItsDownPowerUntilItsRestart) {
  // c0-1 fails at 3 s and is down 1 s (downtime); under none both start again from scratch.
  RunConfig c = make_config(powered_topology(), two_nodes(10, 5, json::array({{{"date", 3}, {"node", "c0-1"}}})));
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const json& res = r.document["results"];
  const json& e = res["energy"];
  const double end = res["end_date"].get<double>();
  double seconds = 0, joules = 0;
  const std::map<std::string, double> watts{{"computing", 200}, {"checkpointing", 150}, {"idle", 100}, {"down", 10}};
  for (const auto& [state, w] : watts) {
    seconds += e["seconds"][state].get<double>();
    joules += e["seconds"][state].get<double>() * w;
    EXPECT_NEAR(e[state + "_j"].get<double>(), e["seconds"][state].get<double>() * w, 1e-6) << state;
  }
  EXPECT_NEAR(seconds, 2 * end, 1e-9); // every process, every second of the run, in one state
  EXPECT_NEAR(e["total_j"].get<double>(), joules, 1e-6);
  EXPECT_NEAR(e["seconds"]["down"].get<double>(), 1, 1e-9); // the downtime
  // The work redone after the failure: computing takes longer than 15 s.
  EXPECT_GT(e["seconds"]["computing"].get<double>(), 15 + 1e-6);
}

TEST(Energy, APowerThatIsNotOneIsAnInputError) {
  json t = powered_topology();
  t["clusters"][0]["power"] = {{"computing", "200 horses"}};
  RunConfig c = make_config(t, two_nodes(1, 1));
  auto r = run_in_child(c);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/clusters/0/power/computing"), std::string::npos) << r.error;
  t["clusters"][0]["power"] = {{"computting", 100}};
  r = run_in_child(make_config(t, two_nodes(1, 1)));
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("did you mean \"computing\"?"), std::string::npos) << r.error;
}

TEST(Energy, TheStorageServersDrawTheirPowerAllTheRun) {
  // Two checkpoint servers at 300 W each: 2 x 300 W x the end date (10 s) more, nothing else.
  json t = powered_topology();
  t["storage"] = {{"model", "servers"}, {"servers", 2}, {"power", "300W"}};
  const json e = energy_of(make_config(t, two_nodes(10, 5)));
  EXPECT_NEAR(e["storage_j"].get<double>(), 2 * 300 * 10, 1e-6);
  EXPECT_NEAR(e["total_j"].get<double>(), 3500 + 6000, 1e-6);
}
