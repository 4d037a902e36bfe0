/* The examples of docs/ARCHITECTURE.md, registered only in the tests (tests/examples/), run as
 * users' own modules would. The example protocol "test-restart" applies the policy of the
 * protocol "none" (global restart from the initial state) in its own code: under the same
 * failures both must take the same decisions, so every figure of the two runs is equal. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

TEST(Examples, RestartProtocolRecoversAsNoneDoes) {
  int runs_with_failures = 0;
  for (int seed = 1; seed <= 30; seed++) {
    // 2 x 3 nodes, 100 s of work, federation MTBF 60 s: about 4 failures per run.
    json topo = small_topology(2, 3, 60.0);
    topo["failures"] = {{"downtime", (seed % 3) * 2.0}, {"detection_delay", (seed % 2) * 0.5}};
    RunConfig c = make_config(topo, small_application(2, 1.0, 100.0, 0.5, 0.2));
    c.options.seed = static_cast<std::uint64_t>(seed);
    c.options.end_date = 10000;
    c.options.protocol = "test-restart";
    auto example = run_in_child(c);
    c.options.protocol = "none";
    auto none = run_in_child(c);
    ASSERT_EQ(example.exit_status, 0) << "seed " << seed << ": " << example.error;
    ASSERT_EQ(none.exit_status, 0) << "seed " << seed << ": " << none.error;
    const auto& e = example.document["results"];
    const auto& n = none.document["results"];
    EXPECT_EQ(e["status"], "completed") << "seed " << seed;
    EXPECT_EQ(e["consistency"]["violations"].get<int>(), 0) << "seed " << seed;
    EXPECT_EQ(e["failures"], n["failures"]) << "seed " << seed;
    EXPECT_EQ(e["rollbacks"], n["rollbacks"]) << "seed " << seed;
    EXPECT_EQ(e["makespan"], n["makespan"]) << "seed " << seed;
    runs_with_failures += e["failures"].get<int>() > 0;
  }
  EXPECT_GT(runs_with_failures, 20);
}
