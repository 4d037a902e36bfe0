/* WAN partitions with node failures at the same time (issue 32, item 3), under every protocol
 * and variant: 100 seeded runs each on 2 or 3 clusters (every WAN link fails every 15 s on
 * average for 1 to 8 s; on 3 clusters the nodes' SAN links fail too; a node fails every 60 s).
 * Every run ends by itself with 0 consistency violations; a completed run gives the failure-free
 * result (channels are reliable: a partition delays messages, never loses one); most runs have
 * messages delayed and transfers cut and sent again. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"
#include "tests/support/variants.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

using PartitionVariant = ProtocolVariant;

json partition_topology(int seed, bool failures) {
  const int clusters = seed % 2 == 1 ? 2 : 3;
  const int nodes = clusters == 2 ? 6 : 4;
  json topo = small_topology(clusters, nodes, failures ? 60.0 : INFINITY);
  for (auto& cl : topo["clusters"]) cl["checkpoint_size"] = "100kB";
  for (auto& row : topo["wan"])
    for (auto& link : row) link = {{"latency", "1ms"}, {"bandwidth", "1MBps"}}; // a 64 KiB cell: 66 ms
  topo["failures"] = {{"downtime", 1.0}, {"detection_delay", 0.5}, {"restart_overhead", 0.2}};
  if (!failures) return topo;
  topo["link_failures"] = json::array(
      {json{{"scope", "wan"}, {"mtbf", 15}, {"downtime", {{"distribution", "uniform"}, {"min", 1}, {"max", 8}}}}});
  if (clusters == 3) topo["link_failures"].push_back(json{{"scope", "san"}, {"mtbf", 200}, {"downtime", 2}});
  return topo;
}

RunConfig partition_config(int seed, const PartitionVariant& v, bool failures) {
  json app{{"kind", "stencil"}, {"dims", 1},        {"width", 24},
           {"iterations", 40},  {"task_cost", 0.5}, {"cell_size", "64KiB"}};
  return variant_config(partition_topology(seed, failures), app, v, seed);
}

class Partitions : public ::testing::TestWithParam<PartitionVariant> {};

} // namespace

TEST_P(Partitions, HundredRunsWithNodeFailuresEndByThemselvesWithoutViolationOrLoss) {
  const PartitionVariant& v = GetParam();
  const bool may_livelock = v.may_livelock();
  int completed = 0, livelocks = 0, delayed = 0, resent = 0, checkpoints_held = 0;
  for (int seed = 1; seed <= 100; seed++) {
    auto r = run_in_child(partition_config(seed, v, true));
    const std::string what = v.name() + " seed " + std::to_string(seed);
    ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
    const auto& res = r.document["results"];
    const std::string status = res.value("status", "");
    EXPECT_EQ(res["consistency"]["violations"].get<int>(), 0) << what;
    const auto& net = res["network"];
    delayed += net["messages_delayed"].get<double>() > 0;
    resent += net["transfers_resent"].get<double>() > 0;
    checkpoints_held += net["checkpoint_transfers_held"].get<double>() > 0;
    if (may_livelock && status.rfind("stuck: no progress: failures arrive faster", 0) == 0) {
      livelocks++;
      continue;
    }
    ASSERT_EQ(status, "completed") << what;
    completed++;
    // The application's draws depend on the seed: the same run without any failure gives the result.
    auto ff = run_in_child(partition_config(seed, v, false));
    ASSERT_EQ(ff.exit_status, 0) << what << " without failures: " << ff.error;
    EXPECT_EQ(res["result_checksum"], ff.document["results"]["result_checksum"]) << what;
  }
  std::printf("%s: %d completed, %d livelocks ended by the watchdog; runs with messages delayed %d, transfers "
              "cut and sent again %d, checkpoint transfers held %d\n",
              v.name().c_str(), completed, livelocks, delayed, resent, checkpoints_held);
  std::fflush(stdout);
  EXPECT_LE(livelocks, 10) << "the failure rates are meant to be within what the protocols can take";
  EXPECT_GE(delayed, 60) << "partitions should delay messages in most runs";
  EXPECT_GE(resent, 10) << "partitions should cut transfers under way in some runs";
}

INSTANTIATE_TEST_SUITE_P(Protocols, Partitions, ::testing::ValuesIn(every_protocol_variant()),
                         [](const ::testing::TestParamInfo<PartitionVariant>& info) { return info.param.name(); });

// tests/data/regressions/README.md: an hc3i ALERT that arrived ahead of an earlier message of its
// channel (delayed by a WAN link failure) was buffered by the channel, off the wire: the recovery
// that waited for quiescence ended without it, and the check found the orphan it was to undo.
TEST(Partitions, AnAlertBufferedByItsChannelKeepsTheRecoveryOpen) {
  const std::string dir = std::string(CKPTSIM_SOURCE_DIR) + "/tests/data/regressions/hc3i-early-alert/";
  const std::string out = temp_path("early-alert.json");
  for (const char* fold : {"", " --self-test fold-often"}) {
    auto r = run_cli(fmt::format("run --protocol hc3i --seed 123 --topology {0}topology.json --application "
                                 "{0}application.json --timers {0}timers.json --end 5000 --quiet --output {1}{2}",
                                 dir, out, fold));
    ASSERT_EQ(r.status, 0) << r.out;
    const json doc = json::parse(slurp(out));
    EXPECT_EQ(doc["results"]["status"], "completed") << fold;
    EXPECT_EQ(doc["results"]["consistency"]["violations"].get<int>(), 0) << fold << r.out;
    EXPECT_EQ(doc["results"]["failures"].get<int>(), 3) << fold; // the failures.txt of the scenario
  }
}
