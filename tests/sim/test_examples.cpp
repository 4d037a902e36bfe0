/* The examples of docs/ARCHITECTURE.md, registered only in the tests (tests/examples/), run as
 * users' own modules would. The example protocol "test-restart" applies the policy of the
 * protocol "none" (global restart from the initial state) in its own code: under the same
 * failures both must take the same decisions, so every figure of the two runs is equal. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <fmt/format.h>

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

// The example storage model "test-mirror" (tests/examples/mirror_storage.cpp), chosen by a
// topology like a shipped one: every save's copy lands on the node at the same position in the
// next cluster, and coordinated checkpointing recovers through it under failures.
TEST(Examples, MirrorStorageModelPlacesEachCopyInTheNextCluster) {
  int recovered = 0;
  for (int seed = 1; seed <= 10; seed++) {
    json topo = small_topology(2, 3, 80.0);
    topo["storage"] = {{"model", "test-mirror"}};
    RunConfig c =
        make_config(topo, small_application(2, 1.0, 100.0, 0.5, 0.2), {{"default", {{"checkpoint_period", 10}}}});
    c.options.seed = static_cast<std::uint64_t>(seed);
    c.options.end_date = 10000;
    c.options.protocol = "coordinated";
    c.options.trace_file = temp_path("mirror.jsonl");
    c.options.trace_level = 1;
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    EXPECT_EQ(r.document["results"]["status"], "completed") << "seed " << seed;
    EXPECT_EQ(r.document["results"]["consistency"]["violations"].get<int>(), 0) << "seed " << seed;
    EXPECT_EQ(r.document["run"]["storage"], "test-mirror");
    const auto saves = trace_events(c.options.trace_file, "ckpt_save");
    ASSERT_FALSE(saves.empty()) << "seed " << seed;
    for (const auto& e : saves) {
      const int node = e["node"].get<int>();
      const std::string mirror = fmt::format("c{}-{}", 1 - node / 3, node % 3);
      EXPECT_EQ(e["copies"], json::array({mirror})) << "seed " << seed << ", node " << node;
    }
    recovered += r.document["results"]["failures"].get<int>() > 0;
  }
  EXPECT_GT(recovered, 5); // most runs recover from at least one failure through the mirrors
}

// The example application kind "test-tiny" (tests/examples/tiny_kind.cpp), named by an
// application file like a shipped kind: every process computes its 15 s in one step, so the
// failure-free run ends at 15 s exactly, with no message.
TEST(Examples, TinyKindRunsItsWorkToTheEnd) {
  for (const char* protocol : {"none", "coordinated"}) {
    RunConfig c = make_config(small_topology(2, 2, INFINITY), json{{"kind", "test-tiny"}, {"work", "15s"}});
    c.options.protocol = protocol;
    c.options.end_date = 1000;
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << protocol << ": " << r.error;
    const auto& res = r.document["results"];
    EXPECT_EQ(res["status"], "completed") << protocol;
    EXPECT_DOUBLE_EQ(res["makespan"].get<double>(), 15.0) << protocol;
  }
}

// The example failure source "test-pairs" (tests/examples/pair_failures.cpp), chosen by a
// topology: one event at 10 s strikes nodes 0 and 1 together. Under "none" (global restart from
// the initial state) with no detection delay, downtime 2 s and no restart overhead, every process
// starts its 15 s again once the two come back at 12 s: the run ends at 27 s, with both failures
// counted and the state consistent.
TEST(Examples, PairFailureSourceStrikesTwoNodesPerEvent) {
  json topo = small_topology(2, 2, INFINITY);
  topo.erase("mtbf");
  topo["failures"] = {
      {"model", "test-pairs"}, {"every", "10s"}, {"count", 1}, {"downtime", "2s"}, {"detection_delay", 0}, {"restart_overhead", 0}};
  RunConfig c = make_config(topo, json{{"kind", "test-tiny"}, {"work", "15s"}});
  c.options.protocol = "none";
  c.options.end_date = 1000;
  c.options.trace_file = temp_path("pairs.jsonl");
  c.options.trace_level = 1;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  EXPECT_EQ(res["status"], "completed");
  EXPECT_EQ(res["failures"].get<int>(), 2);
  EXPECT_EQ(res["consistency"]["violations"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(res["makespan"].get<double>(), 27.0);
  const auto failures = trace_events(c.options.trace_file, "failure");
  ASSERT_EQ(failures.size(), 2u);
  for (std::size_t i = 0; i < failures.size(); i++) {
    EXPECT_DOUBLE_EQ(failures[i]["t"].get<double>(), 10.0);
    EXPECT_EQ(failures[i]["node"].get<int>(), static_cast<int>(i));
  }
}
