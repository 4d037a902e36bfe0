/* SimGrid's contexts sized for the run (sim/engine/contexts.hpp) from the command line: a
 * federation past the kernel's mapping limit runs without any option, a user's --cfg wins and,
 * when it cannot fit, is an input error before anything runs. The sanitizer build runs actors as
 * threads (CKPTSIM_SIMGRID_ARGS, tests/sanitize.sh), which these sizes do not apply to. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

bool thread_contexts() {
  const char* extra = std::getenv("CKPTSIM_SIMGRID_ARGS");
  return extra != nullptr && std::string(extra).find("contexts/factory:thread") != std::string::npos;
}

// n clusters of 1,000 nodes, no failure; processes that only compute.
std::string federation_args(int clusters, const std::string& name) {
  json topo{{"clusters", json::array()}, {"wan", json::array()}, {"mtbf", "inf"}};
  for (int i = 0; i < clusters; i++) {
    topo["clusters"].push_back(
        {{"name", "c" + std::to_string(i)}, {"nodes", 1000}, {"san", {{"latency", "10us"}, {"bandwidth", "1GBps"}}}});
    json row = json::array(); // the links from cluster i to clusters i+1.. (docs/INPUTS.md)
    for (int j = i + 1; j < clusters; j++) row.push_back({{"latency", "1ms"}, {"bandwidth", "1GBps"}});
    if (i < clusters - 1) topo["wan"].push_back(row);
  }
  const json app{{"kind", "stochastic"},
                 {"total_time", "1h"},
                 {"clusters",
                  {{{"cluster", "*"},
                    {"compute", {{"distribution", "exponential"}, {"mean", "100s"}}},
                    {"send", {{"same", 0.0}, {"other", 0.0}}}}}}};
  const std::string t = temp_path(name + "_topology.json"), a = temp_path(name + "_application.json");
  std::ofstream(t) << topo.dump();
  std::ofstream(a) << app.dump();
  return "--topology " + t + " --application " + a + " --protocol none --quiet";
}

json contexts_of(const std::string& out) { return json::parse(std::ifstream(out))["run"]["contexts"]; }

} // namespace

TEST(ContextRuns, AFederationPastTheMappingLimitRunsWithoutOptions) {
  // 17 x 1,000 nodes: 34,064 actors, whose guard pages would need 68,128 mappings (the kernel's
  // default vm.max_map_count is 65,530): SimGrid used to abort creating them.
  if (thread_contexts()) GTEST_SKIP() << "actors as threads (sanitizer build): 34,064 threads";
  const std::string out = temp_path("contexts_17k.json");
  auto r = run_cli("run " + federation_args(17, "contexts_17k") + " --end 1s --output " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  const json c = contexts_of(out);
  EXPECT_EQ(c["guard_pages"], 0);
  EXPECT_EQ(c["guard_size_from"], "ckptsim");
  EXPECT_EQ(c["stack_kib"], 32);
}

TEST(ContextRuns, AUsersSettingThatCannotFitIsAnInputError) {
  // 40 x 1,000 nodes with guard pages asked for: refused before any actor exists (no abort).
  const std::string out = temp_path("contexts_40k.json");
  auto r =
      run_cli("run " + federation_args(40, "contexts_40k") + " --end 1s --cfg=contexts/guard-size:1 --output " + out);
  EXPECT_EQ(r.status, 2) << r.out;
  const std::string expected = thread_contexts()
                                   ? "--cfg=contexts/factory: 80064 actors as threads"
                                   : "--cfg=contexts/guard-size: 80064 actors with guard pages need about";
  EXPECT_NE(r.out.find(expected), std::string::npos) << r.out;
  EXPECT_FALSE(std::ifstream(out).good()) << "an output was written";
}

TEST(ContextRuns, SmallRunsKeepSimGridsDefaultsAndTheUsersCfgWins) {
  if (thread_contexts()) GTEST_SKIP() << "actors as threads (sanitizer build)";
  const std::string out = temp_path("contexts_small.json");
  auto r = run_cli("run --quiet --end 1h --output " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  json c = contexts_of(out);
  EXPECT_EQ(c["factory"], "raw");
  EXPECT_EQ(c["stack_kib"], 8192);
  EXPECT_EQ(c["stack_size_from"], "SimGrid's default");
  EXPECT_EQ(c["guard_pages"], 1);
  r = run_cli("run --quiet --end 1h --cfg=contexts/stack-size:64 --output " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  c = contexts_of(out);
  EXPECT_EQ(c["stack_kib"], 64);
  EXPECT_EQ(c["stack_size_from"], "--cfg");
}
