/* The engine starts nodes' comms on behalf of proxy actors (sim/net/comm_proxies.hpp), a
 * bookkeeping change inside SimGrid's kernel that must not change the simulated run: the same
 * statistics and the same trace with proxies (from the start, or on demand) as without. The run
 * has many waves (proxies retire and are released) and failures during them (a host failure
 * kills a node's proxies with it). */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

RunConfig waves_with_failures(const std::string& trace) {
  json topo = small_topology(2, 9, 30.0); // 18 nodes: a FLUSH broadcast earns a proxy on demand
  topo["failures"] = {{"downtime", 3}, {"detection_delay", 0.5}, {"restart_overhead", 1}};
  for (auto& c : topo["clusters"]) c["checkpoint_size"] = "1MB";
  RunConfig c =
      make_config(topo, small_application(2, 1.0, 120.0, 0.5, 0.2), json{{"default", {{"checkpoint_period", 2.0}}}});
  c.options.protocol = "coordinated";
  c.options.seed = 4;
  c.options.trace_file = trace;
  c.options.trace_level = 2;
  return c;
}

ChildResult run_with_proxies(const char* mode, const std::string& trace) {
  ::setenv("CKPTSIM_COMM_PROXIES", mode, 1);
  auto r = run_in_child(waves_with_failures(trace));
  ::unsetenv("CKPTSIM_COMM_PROXIES");
  return r;
}

} // namespace

TEST(CommProxies, SameRunWithAndWithoutProxies) {
  auto t_off = temp_path("off.jsonl");
  auto off = run_with_proxies("off", t_off);
  ASSERT_EQ(off.exit_status, 0) << off.error;
  const auto& res = off.document["results"];
  ASSERT_GT(res["failures"].get<int>(), 2);
  ASSERT_GT(off.document["stats"]["counters"]["coordinated.waves_committed"].get<int>(), 25);
  const std::string trace_off = slurp(t_off);
  ASSERT_GT(trace_off.size(), 10000u);
  for (const char* mode : {"static", "demand", "auto"}) {
    auto t = temp_path(std::string(mode) + ".jsonl");
    auto r = run_with_proxies(mode, t);
    ASSERT_EQ(r.exit_status, 0) << mode << ": " << r.error;
    EXPECT_EQ(without_wall_clock(off.document).dump(), without_wall_clock(r.document).dump()) << mode;
    EXPECT_EQ(trace_off, slurp(t)) << mode;
  }
}

TEST(CommProxies, UnknownModeIsAnInputError) {
  auto r = run_with_proxies("sometimes", "");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("CKPTSIM_COMM_PROXIES"), std::string::npos) << r.error;
}
