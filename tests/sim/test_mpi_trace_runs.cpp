/* MPI traces replayed by whole simulations: a ping-pong whose makespan is computed by hand, the
 * shipped traces against the simulated times SMPI's own replay gives on the same platform XML
 * (workloads/mpi/smpi_reference.csv), and every protocol replaying the shipped traces through
 * seeded failures with 0 oracle violations and the failure-free result. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

const std::string kMpiDir = CKPTSIM_SOURCE_DIR "/workloads/mpi";

json mpi_application(const std::string& trace, json extra = json::object()) {
  json a{{"kind", "mpi-trace"}, {"trace", trace}};
  a.update(extra);
  return a;
}

// SMPI's simulated time of each shipped trace on each shipped platform.
std::map<std::pair<std::string, std::string>, double> smpi_reference() {
  std::ifstream in(kMpiDir + "/smpi_reference.csv");
  std::map<std::pair<std::string, std::string>, double> ref;
  std::string line;
  std::getline(in, line); // header
  while (std::getline(in, line)) {
    std::stringstream s(line);
    std::string trace, platform, ranks, time;
    std::getline(s, trace, ',');
    std::getline(s, platform, ',');
    std::getline(s, ranks, ',');
    std::getline(s, time, ',');
    ref[{trace, platform}] = std::stod(time);
  }
  return ref;
}

} // namespace

TEST(MpiTraceRuns, PingPongTakesTheTimeComputedByHand) {
  // One cluster, SAN 10 us / 80 MB/s, CM02 (latency + size / bandwidth): each 1 MB message, with
  // SMPI's 16-byte envelope and protocol none's 8-byte epoch, takes 10e-6 + 1000024 / 80e6 s. Rank 0 computes 2 s (2e9
  // flops at 1 Gf) and sends; rank 1, done computing at 1 s, answers at once.
  RunConfig c =
      make_config(small_topology(1, 2, INFINITY), mpi_application(CKPTSIM_SOURCE_DIR "/tests/data/mpi/pingpong.ti"));
  c.options.network_model = "CM02";
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const double message = 10e-6 + 1000024 / 80e6;
  EXPECT_NEAR(r.document["results"]["makespan"].get<double>(), 2 + 2 * message, 1e-9);
  EXPECT_EQ(r.document["run"]["network_model"], "CM02");
  // Without a choice the mpi-trace kind runs SMPI's network model.
  c.options.network_model.clear();
  auto s = run_in_child(c);
  ASSERT_EQ(s.exit_status, 0) << s.error;
  EXPECT_EQ(s.document["run"]["network_model"], "SMPI");
}

namespace {
// Runs a one-file trace (every rank's actions, rank first) on one cluster of 2 nodes, SAN 10 us /
// 80 MB/s, CM02: a message of B bytes takes 10e-6 + (B + 16 + 8) / 80e6 s (SMPI's envelope, protocol
// none's epoch). Returns the makespan.
double mpi_hand_timed(const std::string& name, const std::string& actions, const std::string& sends) {
  const std::string trace = temp_path(name);
  std::ofstream(trace) << actions;
  RunConfig c = make_config(small_topology(1, 2, INFINITY), mpi_application(trace, {{"sends", sends}}));
  c.options.network_model = "CM02";
  auto r = run_in_child(c);
  EXPECT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  return r.document["results"]["makespan"].get<double>();
}
double mpi_transfer(double bytes) { return 10e-6 + (bytes + 24) / 80e6; }
} // namespace

TEST(MpiTraceRuns, ATransferStartsWhenItsReceiveIsPosted) {
  // Rank 0 sends 1000 bytes at once (below 64 KiB: it goes on); rank 1 computes 1 s, then receives.
  // SMPI's rendezvous: the transfer starts at 1 s. Eager: it is there long before.
  const std::string late = "0 send 1 0 1000 2\n1 compute 1e9\n1 recv 0 0 1000 2\n";
  EXPECT_NEAR(mpi_hand_timed("mt_late.ti", late, "rendezvous"), 1 + mpi_transfer(1000), 1e-9);
  EXPECT_NEAR(mpi_hand_timed("mt_late_eager.ti", late, "eager"), 1.0, 1e-9);
}

TEST(MpiTraceRuns, ASendOf64KiBWaitsUntilDelivered) {
  // Rank 0 sends 100 kB, then computes 1 s; rank 1 computes 2 s, then receives. The send is
  // complete once delivered (SMPI's 65536-byte threshold): rank 0 computes from 2 s + the transfer.
  // Eager, rank 0 computes at once and rank 1 finds the message there at 2 s.
  const std::string big = "0 send 1 0 100000 2\n0 compute 1e9\n1 compute 2e9\n1 recv 0 0 100000 2\n";
  EXPECT_NEAR(mpi_hand_timed("mt_big.ti", big, "rendezvous"), 3 + mpi_transfer(100000), 1e-9);
  EXPECT_NEAR(mpi_hand_timed("mt_big_eager.ti", big, "eager"), 2.0, 1e-9);
  // 65535 bytes: complete at once; rank 0 ends at 1 s, rank 1 at 2 s + the transfer.
  const std::string small = "0 send 1 0 65535 2\n0 compute 1e9\n1 compute 2e9\n1 recv 0 0 65535 2\n";
  EXPECT_NEAR(mpi_hand_timed("mt_small.ti", small, "rendezvous"), 2 + mpi_transfer(65535), 1e-9);
}

TEST(MpiTraceRuns, AHeldMessageDoesNotHoldBackAnotherTag) {
  // Rank 0 posts tag 1 then tag 2 and waits for both; rank 1 receives tag 2 first, computes 1 s,
  // then receives tag 1. The tag-2 message moves at once, the tag-1 message once rank 1 posts it:
  // rank 1 ends at transfer + 1 s + transfer (no deadlock, no waiting for the first one).
  const std::string tags = "0 isend 1 1 1000 2\n0 isend 1 2 1000 2\n0 waitall 2\n1 recv 0 2 1000 2\n"
                           "1 compute 1e9\n1 recv 0 1 1000 2\n";
  EXPECT_NEAR(mpi_hand_timed("mt_tags.ti", tags, "rendezvous"), 1 + 2 * mpi_transfer(1000), 1e-9);
}

TEST(MpiTraceRuns, OvertakingMessagesAreNotTakenForReSends) {
  // Rank 0 (cluster 0) sends tag 1 then tag 2 to rank 2 (cluster 1), which receives tag 2 first:
  // the tag-2 message leaves first. hc3i and msglog number a channel's messages; the older one,
  // arriving second, is new (hc3i used to drop it as a re-send: the run never ended). Every
  // protocol completes with both messages delivered once.
  const std::string trace = temp_path("mt_overtake.ti");
  std::ofstream(trace) << "0 isend 2 1 1000 2\n0 isend 2 2 1000 2\n0 waitall 2\n2 recv 0 2 1000 2\n"
                          "2 compute 1e9\n2 recv 0 1 1000 2\n1 compute 1\n3 compute 1\n";
  for (const std::string protocol : {"none", "hc3i", "msglog", "coordinated", "independent"}) {
    RunConfig c = make_config(small_topology(2, 2, INFINITY), mpi_application(trace));
    c.options.protocol = protocol;
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << protocol << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << protocol;
    EXPECT_EQ(counter(r, "app.delivered"), 2) << protocol;
    EXPECT_EQ(res["consistency"]["violations"], 0) << protocol;
  }
}

TEST(MpiTraceRuns, ARandomTraceWithOvertakingMessagesRecoversUnderHc3iAndMsglog) {
  // tests/data/mpi/random8.ti, round-robin on workloads/mpi's 2 x 8 federation, about 40 to 60
  // failures (federation MTBF 3 min): before hc3i and msglog numbered overtaking messages, hc3i
  // hung and msglog ended at the end date with 582 consistency violations on this run.
  json topo = json::parse(std::ifstream(kMpiDir + "/platforms/two-clusters.json"));
  topo["mtbf"] = "3min";
  topo["failures"] = {
      {"model", "exponential"}, {"detection_delay", "1s"}, {"downtime", "1min"}, {"restart_overhead", "10s"}};
  const json app = mpi_application(CKPTSIM_SOURCE_DIR "/tests/data/mpi/random8.ti",
                                   {{"compute_scale", 8e4}, {"placement", "round-robin"}});
  const json timers{{"default", {{"checkpoint_period", "5min"}, {"gc_period", "30min"}}}};
  RunConfig ref = make_config(small_topology(2, 8, INFINITY), app);
  const auto free = run_in_child(ref);
  ASSERT_EQ(free.exit_status, 0) << free.error;
  for (const auto& [protocol, params] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
           {"hc3i", {}},
           {"hc3i", {{"transitive", "true"}}},
           {"msglog", {{"variant", "pessimistic"}}},
           {"msglog", {{"variant", "causal"}}},
           {"msglog", {{"variant", "optimistic"}}}}) {
    RunConfig c = make_config(topo, app, timers);
    c.options.protocol = protocol;
    c.options.params = params;
    c.options.seed = 1;
    c.options.end_date = 30 * 3600;
    auto r = run_in_child(c);
    const std::string what = protocol + (params.empty() ? "" : " " + params.begin()->second);
    ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
    const auto& res = r.document["results"];
    EXPECT_EQ(res["status"], "completed") << what;
    EXPECT_GE(res["failures"].get<int>(), 30) << what;
    EXPECT_EQ(res["consistency"]["violations"], 0) << what;
    EXPECT_EQ(res["result_checksum"], free.document["results"]["result_checksum"]) << what;
  }
}

TEST(MpiTraceRuns, ABadTraceIsAnInputErrorBeforeAnythingIsWritten) {
  // From the command line, in another folder: exit 2, the trace's file and line, no output file.
  const std::string trace = temp_path("mt_cli_bad.ti");
  std::ofstream(trace) << "0 init\n1 init\n0 send 1 0 10\n1 compute 1e9\n";
  const std::string app = temp_path("mt_cli_bad.json");
  std::ofstream(app) << json{{"kind", "mpi-trace"}, {"trace", trace}}.dump();
  const std::string out = temp_path("mt_cli_bad_out.json");
  auto r = run_cli("run --protocol coordinated --application " + app + " --output " + out);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find(trace + ": line 3: rank 0's send to rank 1 (tag 0) has no matching receive in rank 1's trace"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(std::ifstream(out).good()) << "an output was written";
  // The shipped application files run from anywhere: their traces are relative to them.
  auto ok = run_cli("run --protocol none --quiet --application " + kMpiDir + "/cg.application.json --topology " +
                    kMpiDir + "/platforms/two-clusters.json");
  EXPECT_EQ(ok.status, 0) << ok.out;
}

TEST(MpiTraceRuns, ShippedTracesAgreeWithSmpiReplay) {
  // Failure-free, protocol none, on the very platform XML SMPI replayed on (docs/MODEL.md, "MPI
  // traces", explains the differences). The issue asks for 5 %; measured within 1 %, so 2 % here
  // catches a change of semantics (eager transfers were 3 to 20 % off).
  const auto ref = smpi_reference();
  for (const std::string trace : {"jacobi2d", "cg", "master_worker", "coverage"})
    for (const std::string platform : {"two-clusters", "four-clusters"}) {
      json topo{{"platform", kMpiDir + "/platforms/" + platform + ".xml"}};
      RunConfig c = make_config(topo, mpi_application(kMpiDir + "/traces/" + trace + "/" + trace + ".ti"));
      auto r = run_in_child(c);
      ASSERT_EQ(r.exit_status, 0) << trace << " on " << platform << ": " << r.error;
      const double smpi = ref.at({trace, platform});
      const double ours = r.document["results"]["makespan"].get<double>();
      EXPECT_NEAR(ours / smpi, 1, 0.02) << trace << " on " << platform << ": ckptsim " << ours << " s, SMPI " << smpi;
    }
}

TEST(MpiTraceRuns, CoordinatedCheckpointsAtTheTracesCollectives) {
  // The LAM/MPI paper's rule (coordinated, trigger collective) on cg: every wave starts when rank
  // 0 reaches a collective of the trace (its allreduces), none from the period alone.
  json topo = small_topology(2, 8, 5.0);
  for (auto& cl : topo["clusters"]) cl["checkpoint_size"] = "1MB";
  RunConfig c = make_config(
      topo, mpi_application(kMpiDir + "/traces/cg/cg.ti", {{"compute_scale", 5000}, {"placement", "round-robin"}}),
      {{"default", {{"checkpoint_period", 2}}}});
  c.options.protocol = "coordinated";
  c.options.params["trigger"] = "collective";
  c.options.seed = 4;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  EXPECT_GT(r.document["results"]["failures"].get<int>(), 0);
  EXPECT_GE(counter(r, "coordinated.waves_collective"), 5);
  EXPECT_EQ(counter(r, "coordinated.waves_collective"), counter(r, "coordinated.waves_started"));
}

// The shipped jacobi2d and cg traces and tests/data/mpi/large.ti (sends of 64 KiB and more, which
// end only once delivered) (16 ranks, computations x 5000: about 14 s of work) on 2 x 8 nodes,
// federation MTBF 5 s, checkpoints every 2 s: seeds until 100 runs had failures, the protocol's
// variants and the traces taking turns.
class MpiTraceThroughFailures : public ::testing::TestWithParam<std::string> {};

TEST_P(MpiTraceThroughFailures, HundredFailingRunsKeepTheStateConsistentAndTheResult) {
  const std::string protocol = GetParam();
  const std::map<std::string, std::vector<std::map<std::string, std::string>>> variants{
      {"none", {{}}},
      {"coordinated", {{}}},
      {"hc3i", {{}, {{"transitive", "true"}}}},
      {"independent", {{{"unit", "process"}}, {{"unit", "cluster"}}}},
      {"msglog", {{{"variant", "pessimistic"}}, {{"variant", "causal"}}, {{"variant", "optimistic"}}}},
  };
  const std::vector<std::string> traces{"jacobi2d", "cg", "large"};
  const auto path = [](const std::string& trace) {
    return trace == "large" ? CKPTSIM_SOURCE_DIR "/tests/data/mpi/large.ti"
                            : kMpiDir + "/traces/" + trace + "/" + trace + ".ti";
  };
  json app_extra{{"compute_scale", 5000}, {"placement", "round-robin"}};
  std::map<std::string, json> failure_free;
  for (const std::string& trace : traces) {
    RunConfig c = make_config(small_topology(2, 8, INFINITY), mpi_application(path(trace), app_extra));
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << r.error;
    failure_free[trace] = r.document["results"]["result_checksum"];
  }
  const auto& mine = variants.at(protocol);
  int failing = 0;
  for (int seed = 1; failing < 100 && seed <= 150; seed++) {
    const std::string& trace = traces[static_cast<std::size_t>(seed) % traces.size()];
    json topo = small_topology(2, 8, 5.0);
    for (auto& cl : topo["clusters"]) cl["checkpoint_size"] = "1MB";
    RunConfig c = make_config(topo, mpi_application(path(trace), app_extra),
                              {{"default", {{"checkpoint_period", 2}, {"gc_period", 6}}}});
    c.options.protocol = protocol;
    c.options.params = mine[static_cast<std::size_t>(seed) % mine.size()];
    c.options.seed = static_cast<std::uint64_t>(seed);
    c.options.end_date = 100000;
    auto r = run_in_child(c);
    const std::string what = protocol + (c.options.params.empty() ? "" : " " + c.options.params.begin()->second) +
                             " seed " + std::to_string(seed) + " " + trace;
    ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["status"], "completed") << what;
    EXPECT_EQ(res["consistency"]["violations"].get<int>(), 0) << what;
    EXPECT_EQ(res["result_checksum"], failure_free[trace]) << what;
    failing += res["failures"].get<int>() > 0;
  }
  EXPECT_EQ(failing, 100) << protocol << ": fewer than 100 of 150 seeds drew a failure";
}

INSTANTIATE_TEST_SUITE_P(Protocols, MpiTraceThroughFailures,
                         ::testing::Values("none", "coordinated", "hc3i", "independent", "msglog"));
