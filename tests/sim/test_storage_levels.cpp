/* Multi-level checkpointing (issue 33, items 1 and 2; docs/INPUTS.md "Storage levels"). One cluster
 * of 8 nodes, SAN links of 100 MB/s with no latency, checkpoints of 100 MB, a coordinated wave every
 * 10 min over an application of 1 h: the cost of each level computed by hand, the level each
 * recovery is served from after a node failure, a group's losses and a cluster outage, an
 * asynchronous flush cut by an outage, the protocols that refuse the model, and every protocol that
 * uses it through seeded runs with node failures and cluster outages. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"
#include "tests/support/variants.hpp"

#include <gtest/gtest.h>

#include <fstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

constexpr double kLvEps = 1e-3; // the controller's links add microseconds to each wave

// One cluster c0 of 8 nodes; @p levels the storage levels; failures from @p log (none if empty).
RunConfig levels_run(const std::string& name, const json& levels, const std::string& log = "",
                     const std::string& protocol = "coordinated") {
  json topo{{"clusters",
             {{{"name", "c0"},
               {"nodes", 8},
               {"san", {{"latency", 0}, {"bandwidth", "100MBps"}}},
               {"checkpoint_size", "100MB"}}}},
            {"storage", {{"model", "levels"}, {"levels", levels}}}};
  if (!log.empty()) {
    const std::string trace = temp_path(name + ".log");
    std::ofstream(trace) << log;
    topo["failures"] = {
        {"model", "trace"}, {"trace", trace}, {"downtime", 60}, {"detection_delay", 1}, {"restart_overhead", 10}};
  }
  json app{{"kind", "stochastic"},
           {"total_time", "1h"},
           {"clusters", {{{"cluster", "*"}, {"compute", "1min"}, {"send", {{"same", 0.0}}}}}}};
  RunConfig c = make_config(topo, app, {{"default", {{"checkpoint_period", "10min"}, {"gc_period", "1h"}}}});
  c.options.protocol = protocol;
  c.options.end_date = 1e6;
  c.options.trace_file = temp_path(name + ".jsonl");
  return c;
}

const json& level(const ChildResult& r, int l) { return r.document["results"]["storage_levels"]["levels"][l - 1]; }

// The recovery lines the coordinator chose, in order.
std::vector<json> lines(const RunConfig& c) { return trace_events(c.options.trace_file, "recovery_line"); }

// The level each node's loads were served from, in order.
std::map<int, std::vector<int>> loads_by_node(const RunConfig& c) {
  std::map<int, std::vector<int>> out;
  for (const auto& e : trace_events(c.options.trace_file, "ckpt_load")) out[e["node"]].push_back(e["level"]);
  return out;
}

const json kLocalPartnerPfs = json::parse(R"([{"kind": "local", "bandwidth": "1GBps"}, {"kind": "partner"},
  {"kind": "pfs", "every": 4, "bandwidth": "200MBps", "latency": 0}])");

} // namespace

TEST(StorageLevels, EachLevelCostsWhatTheDeviceTheNetworkAndTheFileSystemGive) {
  // A partner wave: 100 MB to the local device at 1 GB/s (0.1 s), then to the partner at 100 MB/s
  // (1 s): 1.1 s. A pfs wave (the 4th): the same, then 8 x 100 MB through the file system's
  // 200 MB/s: 4 s more, 5.1 s. Waves at 10, 20, 30, 40 (pfs) and 50 min delay the application;
  // the 6th starts as it ends.
  RunConfig c = levels_run("costs", kLocalPartnerPfs);
  auto r = run_in_child(c);
  ASSERT_EQ(clean_completion(r), "");
  const auto& res = r.document["results"];
  EXPECT_NEAR(res["makespan"].get<double>(), 3600 + 4 * 1.1 + 5.1, kLvEps);
  EXPECT_EQ(level(r, 1)["checkpoints"], 0); // every checkpoint goes deeper: the device is written by all
  EXPECT_EQ(level(r, 2)["checkpoints"], 5 * 8);
  EXPECT_EQ(level(r, 3)["checkpoints"], 8);
  EXPECT_NEAR(level(r, 2)["time"].get<double>(), 40 * 1.1, 40 * kLvEps);
  EXPECT_NEAR(level(r, 3)["time"].get<double>(), 8 * 5.1, 8 * kLvEps);
  EXPECT_DOUBLE_EQ(level(r, 2)["bytes_written"].get<double>(), 40 * 200e6); // device + partner
  EXPECT_DOUBLE_EQ(level(r, 3)["bytes_written"].get<double>(), 8 * 300e6);  // device + partner + flush
  EXPECT_DOUBLE_EQ(counter(r, "storage.bytes_written.server-0"), 8 * 100e6);
  EXPECT_DOUBLE_EQ(counter(r, "storage.bytes_local"), 48 * 100e6);
  EXPECT_EQ(level(r, 3)["flush"], "sync");
  // Kept: the newest wave and the newest pfs one, each in memory, on the partner (and the pfs).
  EXPECT_DOUBLE_EQ(level(r, 3)["held_max_bytes"].get<double>(), 8 * 300e6);
  EXPECT_EQ(r.document["run"]["storage"], "levels");
}

TEST(StorageLevels, ANodeIsServedByItsPartnerAndAClusterOutageByTheFileSystem) {
  // c0-3 fails at 15 min: wave 1 is restored, c0-3 reading its copy from its partner c0-4, the
  // others from their devices. The period starts again when c0-3 is back (16 min 1 s): waves 2,
  // 3, 4 (pfs) and 5 at 26, 36, 46 and 56 min. At 58 min the whole cluster fails: wave 5 (a
  // partner wave) died with it, wave 4 is on the file system.
  RunConfig c = levels_run("served", kLocalPartnerPfs, "15min c0-3\n58min c0-0,c0-1,c0-2,c0-3,c0-4,c0-5,c0-6,c0-7\n");
  auto r = run_in_child(c);
  ASSERT_EQ(clean_completion(r), "");
  const auto ls = lines(c);
  ASSERT_EQ(ls.size(), 2u);
  EXPECT_EQ(ls[0]["line"], 1);
  EXPECT_EQ(ls[0]["skipped"], json::array());
  EXPECT_EQ(ls[1]["line"], 4);
  EXPECT_EQ(ls[1]["skipped"], json::parse(R"([{"number": 5, "lost": "c0-0"}])"));
  const auto loads = loads_by_node(c);
  EXPECT_EQ(loads.at(3), (std::vector<int>{2, 3}));
  EXPECT_EQ(loads.at(0), (std::vector<int>{1, 3}));
  const auto first_load = trace_events(c.options.trace_file, "ckpt_load");
  for (const auto& e : first_load) {
    if (e["node"] == 3 && e["level"] == 2) {
      EXPECT_EQ(e["from"], json::parse(R"(["c0-4"])"));
    }
  }
  EXPECT_EQ(level(r, 1)["recoveries_served"], 7);
  EXPECT_EQ(level(r, 2)["recoveries_served"], 1);
  EXPECT_EQ(level(r, 3)["recoveries_served"], 8);
}

TEST(StorageLevels, AnXorGroupRebuildsOneLostMemberButNotTwo) {
  // Groups of 4 in node order: {c0-0..c0-3}, {c0-4..c0-7}. At 15 min c0-1 and c0-5 fail, one per
  // group: both rebuilt from their groups (33.3 MB from each of 3 members through the victim's
  // 100 MB/s link, 1 s, then 100 MB decoded at 1 GB/s, 0.1 s). Waves 2, 3 (pfs) and 4 follow at
  // 26, 36 and 46 min. At 47 min c0-0 and c0-2 fail, two of one group: wave 4 cannot be rebuilt,
  // wave 3 is restored, the two from the file system, the others from their memories.
  const json plan = json::parse(R"([{"kind": "xor", "group": 4}, {"kind": "pfs", "every": 3, "bandwidth": "1GBps"}])");
  RunConfig c = levels_run("xor", plan, "15min c0-1,c0-5\n47min c0-0,c0-2\n");
  auto r = run_in_child(c);
  ASSERT_EQ(clean_completion(r), "");
  const auto ls = lines(c);
  ASSERT_EQ(ls.size(), 2u);
  EXPECT_EQ(ls[0]["line"], 1);
  EXPECT_EQ(ls[1]["line"], 3);
  EXPECT_EQ(ls[1]["skipped"], json::parse(R"([{"number": 4, "lost": "c0-0"}])"));
  const auto loads = trace_events(c.options.trace_file, "ckpt_load");
  ASSERT_FALSE(loads.empty());
  int from_group = 0;
  for (const auto& e : loads)
    if (e["node"] == 1 && e["number"] == 1) {
      from_group++;
      EXPECT_EQ(e["level"], 1);
      EXPECT_EQ(e["from"], json::parse(R"(["c0-0", "c0-2", "c0-3"])"));
    }
  EXPECT_EQ(from_group, 1);
  // c0-1's restore: its load starts, then 1 s of transfers and 0.1 s of decoding.
  double load_at = -1, restored_at = -1;
  for (const auto& e : read_trace(c.options.trace_file)) {
    if (e["ev"] == "ckpt_load" && e["node"] == 1 && load_at < 0) load_at = e["t"];
    if (e["ev"] == "rollback" && e["node"] == 1 && restored_at < 0) restored_at = e["t"];
  }
  EXPECT_NEAR(restored_at - load_at, 1.1, kLvEps);
  EXPECT_EQ(level(r, 1)["recoveries_served"], 2);
  EXPECT_EQ(level(r, 2)["recoveries_served"], 2);
  EXPECT_EQ(r.document["results"]["storage_levels"]["recoveries_from_memory"], 12);
}

TEST(StorageLevels, AReedSolomonGroupWithParityTwoRebuildsTwoLostMembers) {
  const json plan = json::parse(R"([{"kind": "rs", "group": 4, "parity": 2}, {"kind": "pfs", "every": 3}])");
  RunConfig c = levels_run("rs", plan, "15min c0-0,c0-2\n");
  auto r = run_in_child(c);
  ASSERT_EQ(clean_completion(r), "");
  const auto ls = lines(c);
  ASSERT_EQ(ls.size(), 1u);
  EXPECT_EQ(ls[0]["line"], 1);
  for (const auto& e : trace_events(c.options.trace_file, "ckpt_load"))
    if (e["node"] == 0 || e["node"] == 2) {
      EXPECT_EQ(e["level"], 1);
      EXPECT_EQ(e["from"].size(), 2u); // g - k = 2 members, 50 MB each
    }
  EXPECT_EQ(level(r, 1)["recoveries_served"], 2);
}

TEST(StorageLevels, AnAsynchronousFlushLetsTheApplicationGoOnAndAnOutageDuringItFallsBack) {
  // Flush of 8 x 100 MB through 8 MB/s: 100 s, during which the application runs (a wave costs
  // the partner copy only, 1 s). The cluster fails at 20 min 50 s, during wave 2's flush: wave 1
  // (a partner wave) and wave 2 died with the cluster, and the file system has no complete one:
  // the line is the initial state. Failing at 22 min instead, after the flush, restores wave 2.
  const json plan = json::parse(R"([{"kind": "partner"}, {"kind": "pfs", "every": 2, "bandwidth": "8MBps",
                                     "latency": 0, "flush": "async"}])");
  const std::string all = "c0-0,c0-1,c0-2,c0-3,c0-4,c0-5,c0-6,c0-7";
  {
    RunConfig c = levels_run("async-clean", plan);
    auto r = run_in_child(c);
    ASSERT_EQ(clean_completion(r), "");
    EXPECT_NEAR(level(r, 2)["time"].get<double>(), 8 * 3 * 1.0, 24 * kLvEps); // waves 2, 4, 6
    EXPECT_NEAR(level(r, 2)["flush_time"].get<double>(), 8 * 3 * 100.0, 24 * kLvEps);
    EXPECT_EQ(level(r, 2)["flush"], "async");
  }
  {
    RunConfig c = levels_run("async-cut", plan, "1250s " + all + "\n");
    auto r = run_in_child(c);
    ASSERT_EQ(clean_completion(r), "");
    const auto ls = lines(c);
    ASSERT_EQ(ls.size(), 1u);
    EXPECT_EQ(ls[0]["line"], 0);
    EXPECT_EQ(ls[0]["skipped"], json::parse(R"([{"number": 2, "lost": "c0-0"}])"));
  }
  {
    RunConfig c = levels_run("async-done", plan, "22min " + all + "\n");
    auto r = run_in_child(c);
    ASSERT_EQ(clean_completion(r), "");
    const auto ls = lines(c);
    ASSERT_EQ(ls.size(), 1u);
    EXPECT_EQ(ls[0]["line"], 2);
    EXPECT_EQ(level(r, 2)["recoveries_served"], 8);
  }
}

TEST(StorageLevels, ProtocolsThatCannotUseTheLevelsSayWhy) {
  auto refused = [](const std::string& protocol, const json& plan) {
    RunConfig c = levels_run("refused-" + protocol, plan, "", protocol);
    c.application_doc = {{"kind", "stencil"}, {"dims", 1},        {"width", 16},
                         {"iterations", 4},   {"task_cost", 0.5}, {"cell_size", "1KiB"}};
    auto r = run_in_child(c);
    EXPECT_EQ(r.exit_status, 2) << protocol;
    return r.error;
  };
  const json partner = json::parse(R"([{"kind": "partner"}])");
  for (const std::string p : {"cck", "taskgraph"})
    EXPECT_NE(refused(p, partner)
                  .find("/storage/model: " + p +
                        " relies on one remote copy of each checkpoint where "
                        "its storage model puts it: it cannot use the \"levels\" storage model"),
              std::string::npos)
        << p;
  EXPECT_NE(refused("independent", json::parse(R"([{"kind": "partner"}, {"kind": "xor", "every": 2}])"))
                .find("/storage/levels/1/kind: an xor group encodes its members' checkpoints of one number together"),
            std::string::npos);
  EXPECT_NE(refused("hc3i", json::parse(R"([{"kind": "local"}, {"kind": "partner", "every": 2}])"))
                .find("/storage/levels/0: hc3i restores the checkpoint its own rules choose, and a checkpoint written "
                      "at the local level only dies with its node"),
            std::string::npos);
}

namespace {

// 2 clusters of 4 nodes, node failures every 200 s on average and a cluster outage every 60 s (a
// run lasts about 40 s).
RunConfig levels_variant_config(int seed, const ProtocolVariant& v, bool failures, const json& plan) {
  json topo = small_topology(2, 4, failures ? 200 : INFINITY);
  for (auto& cl : topo["clusters"]) cl["checkpoint_size"] = "100kB";
  topo["failures"] = {{"downtime", 1.0}, {"restart_overhead", 0.2}, {"detection_delay", 0.5}};
  if (failures) topo["failures"]["correlated"] = json::array({json{{"scope", "cluster"}, {"mtbf", 60}}});
  topo["storage"] = {{"model", "levels"}, {"levels", plan}};
  json app{{"kind", "stencil"}, {"dims", 1},        {"width", 16},
           {"iterations", 40},  {"task_cost", 0.5}, {"cell_size", "16KiB"}};
  return variant_config(topo, app, v, seed);
}

class LevelsRuns : public ::testing::TestWithParam<ProtocolVariant> {};

} // namespace

TEST_P(LevelsRuns, ThirtyRunsWithNodeFailuresAndClusterOutagesEndConsistent) {
  const ProtocolVariant& v = GetParam();
  const bool per_process = v.protocol == "independent" || v.protocol == "msglog";
  const json plan =
      per_process ? json::parse(R"([{"kind": "local"}, {"kind": "partner"}, {"kind": "pfs", "every": 3}])")
                  : json::parse(R"([{"kind": "local"}, {"kind": "partner"}, {"kind": "xor", "group": 3, "every": 2},
                                    {"kind": "pfs", "every": 3, "flush": "async"}])");
  int completed = 0, from_pfs = 0;
  for (int seed = 1; seed <= 30; seed++) {
    auto r = run_in_child(levels_variant_config(seed, v, true, plan));
    const std::string what = v.name() + " seed " + std::to_string(seed);
    ASSERT_EQ(r.exit_status, 0) << what << ": " << r.error;
    const auto& res = r.document["results"];
    EXPECT_EQ(res["consistency"]["violations"].get<int>(), 0) << what;
    const std::string status = res.value("status", "");
    from_pfs += res["storage_levels"]["levels"].back()["recoveries_served"].get<int>() > 0;
    if (v.may_livelock() && status.rfind("stuck: no progress: failures arrive faster", 0) == 0) continue;
    // A protocol that restores the checkpoint its rules chose cannot go back further when a
    // cluster outage took it (the level that holds it died): the run says so.
    if (v.protocol != "coordinated" && status.rfind("unrecoverable failure:", 0) == 0) continue;
    ASSERT_EQ(status, "completed") << what;
    completed++;
    auto ff = run_in_child(levels_variant_config(seed, v, false, plan));
    ASSERT_EQ(ff.exit_status, 0) << what << " without failures: " << ff.error;
    EXPECT_EQ(res["result_checksum"], ff.document["results"]["result_checksum"]) << what;
  }
  std::printf("%s: completed %d of 30, runs with recoveries from the file system %d\n", v.name().c_str(), completed,
              from_pfs);
  if (v.protocol == "coordinated") {
    EXPECT_GE(from_pfs, 5) << "cluster outages should be served by the pfs level";
  }
}

INSTANTIATE_TEST_SUITE_P(Protocols, LevelsRuns,
                         ::testing::Values(ProtocolVariant{"coordinated", {}, ""}, ProtocolVariant{"hc3i", {}, ""},
                                           ProtocolVariant{"independent", {{"unit", "process"}}, ""},
                                           ProtocolVariant{"msglog", {{"variant", "pessimistic"}}, ""}),
                         [](const ::testing::TestParamInfo<ProtocolVariant>& info) { return info.param.name(); });
