/* The "replicated" storage model (Bondarenko-Iakobovski) with the coordinated protocol, scripted:
 * one cluster of 8 nodes, DF 2 copies, SD 2 saves kept. Waves are numbered 1, 2, 3...; wave k
 * of node i has copies on i + 1, i + 2 (k even) or i + 3, i + 5 (k odd), mod 8. Three or four
 * nodes fail at the same date after wave 3 committed; the trace shows which wave every node
 * restores and from which holder the failed ones load it. Also: the input errors of the model,
 * and the placement used by the other protocols. */
#include "sim/storage/replicated/scheme.hpp"
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

// 8 nodes computing 20 s each, a wave 3 s after the start and 3 s after each commit (waves 1, 2, 3
// commit just after 3, 6 and 9 s), the victims failing together at @p date.
RunConfig eight_nodes(const std::vector<int>& victims, double date, const std::string& name) {
  json topo = small_topology(1, 8, INFINITY);
  topo["failures"] = {{"downtime", 2}, {"detection_delay", 0.5}, {"overlap", "allow"}};
  topo["storage"] = {{"model", "replicated"}, {"copies", 2}, {"depth", 2}};
  json nodes = json::object();
  for (int i = 0; i < 8; i++) nodes["c0-" + std::to_string(i)] = json::array({{{"compute", 20}}});
  json failures = json::array();
  for (int v : victims) failures.push_back({{"date", date}, {"node", "c0-" + std::to_string(v)}});
  json app = {{"kind", "scripted"}, {"nodes", nodes}, {"failures", failures}};
  RunConfig c = make_config(topo, app, {{"default", {{"checkpoint_period", 3}}}});
  c.options.protocol = "coordinated";
  c.options.trace_file = temp_path(name + ".jsonl");
  c.options.end_date = 500;
  return c;
}

} // namespace

TEST(ReplicatedStorage, NewestWaveLostForANodeRestoresThePreviousOne) {
  // Wave 3 (odd) of c0-0 lives on c0-0, c0-3 and c0-5: all three fail. Wave 2 (even) survives for
  // every node: c0-0's on c0-1, c0-3's on c0-4, c0-5's on c0-6 (c0-5 itself failed).
  const std::set<int> f{0, 3, 5};
  const replicated::Scheme s{2, 2};
  ASSERT_FALSE(replicated::line_survives(3, f, s, 8));
  ASSERT_EQ(replicated::rlffn(3, f, s, 8), 2u);
  RunConfig c = eight_nodes({0, 3, 5}, 10, "repl-older");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  ASSERT_EQ(res["status"], "completed");
  EXPECT_EQ(res["consistency"]["violations"], 0);
  EXPECT_EQ(res["replicated_storage"]["mnf"], 3);
  EXPECT_EQ(res["replicated_storage"]["clusters"][0]["mnf_guaranteed"], true);

  // Three waves were committed before the burst.
  auto commits = trace_events(c.options.trace_file, "ckpt_commit");
  int before = 0;
  for (const auto& e : commits)
    if (e["node"] == 8 && e["t"].get<double>() < 10) before++;
  ASSERT_EQ(before, 3);
  // The coordinator's decisions: wave 3 skipped (c0-0's copies lost), wave 2 chosen, once per
  // failure notice, each naming the three failed nodes.
  auto lines = trace_events(c.options.trace_file, "recovery_line");
  ASSERT_GE(lines.size(), 1u);
  for (const auto& l : lines) {
    EXPECT_EQ(l["line"], 2) << l.dump();
    ASSERT_EQ(l["skipped"].size(), 1u) << l.dump();
    EXPECT_EQ(l["skipped"][0]["number"], 3);
    EXPECT_EQ(l["skipped"][0]["lost"], "c0-0");
    EXPECT_EQ(l["failed"], json::parse(R"(["c0-0", "c0-3", "c0-5"])"));
  }
  // Every node's last rollback of the recovery restores wave 2.
  std::map<int, std::uint64_t> restored;
  for (const auto& rb : trace_events(c.options.trace_file, "rollback"))
    restored[rb["node"].get<int>()] = restored_wave(rb);
  ASSERT_EQ(restored.size(), 8u);
  for (const auto& [node, wave] : restored) EXPECT_EQ(wave, 2u) << "node " << node;
  // The failed nodes load wave 2 from the paper's recovery holder (first live receiver); the
  // others restore it from their own memory.
  std::map<int, std::string> from;
  for (const auto& l : trace_events(c.options.trace_file, "ckpt_load")) {
    EXPECT_EQ(l["number"], 2) << l.dump();
    from[l["node"].get<int>()] = l["from"];
  }
  EXPECT_EQ(from, (std::map<int, std::string>{{0, "c0-1"}, {3, "c0-4"}, {5, "c0-6"}}));
  for (int v : f) EXPECT_EQ(from[v], "c0-" + std::to_string(replicated::recovery_holder(v, 2, f, s, 8)));
  // Numbering follows the execution line: the wave after the rollback to 2 is 3 again.
  double last_rollback = 0;
  for (const auto& rb : trace_events(c.options.trace_file, "rollback")) last_rollback = rb["t"];
  std::vector<std::uint64_t> after;
  for (const auto& e : commits)
    if (e["node"] == 8 && e["t"].get<double>() > last_rollback) after.push_back(e["number"]);
  ASSERT_FALSE(after.empty());
  EXPECT_EQ(after[0], 3u);
  // Copies the failed nodes held for the others are made again once they are back.
  EXPECT_GT(r.document["stats"]["counters"].value("storage.replicas", 0.0), 0.0);
  EXPECT_EQ(r.document["stats"]["counters"].value("storage.recovery_lines_older", 0.0), lines.size());
  // Storage really held: at most SD saves per node (8 nodes x 2 waves), plus the wave under way,
  // each with DF + 1 = 3 copies of 1 MB.
  EXPECT_LE(res["storage_held_max_copy_bytes"].get<double>(), 8 * 3 * 3e6 + 1);
  EXPECT_GE(res["storage_held_max_copy_bytes"].get<double>(), 8 * 2 * 3e6 - 1);
}

TEST(ReplicatedStorage, NoKeptWaveSurvivesIsUnrecoverable) {
  // {0, 1, 2, 5}: wave 2 (even) of c0-0 was on c0-1 and c0-2, wave 3 (odd) of c0-5 on c0-0 and
  // c0-2: MNF + 1 = 4 failures and no common wave left.
  const std::set<int> f{0, 1, 2, 5};
  ASSERT_EQ(replicated::rlffn(3, f, {2, 2}, 8), std::nullopt);
  RunConfig c = eight_nodes({0, 1, 2, 5}, 10, "repl-none");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  const std::string status = res["status"];
  EXPECT_EQ(status.rfind("unrecoverable failure: ", 0), 0u) << status;
  EXPECT_NE(status.find("no copy of checkpoint 3 of c0-5 survives (its copies were on c0-5, c0-0, c0-2)"),
            std::string::npos)
      << status;
  EXPECT_NE(status.find("no copy of checkpoint 2 of c0-0 survives (its copies were on c0-0, c0-1, c0-2)"),
            std::string::npos)
      << status;
  EXPECT_NE(status.find("checkpoints searched: 3, 2; failed nodes: c0-0, c0-1, c0-2, c0-5"), std::string::npos)
      << status;
  EXPECT_TRUE(res["makespan"].is_null());
  // Decided before any load: nobody rolled back or read a copy.
  EXPECT_TRUE(trace_events(c.options.trace_file, "ckpt_load").empty());
  EXPECT_TRUE(trace_events(c.options.trace_file, "rollback").empty());
  auto un = trace_events(c.options.trace_file, "unrecoverable");
  ASSERT_EQ(un.size(), 1u);
  EXPECT_EQ(un[0]["searched"], json::parse("[3, 2]"));
  // The command line says so too, with its exit status.
  const auto& u = r.document["stats"]["series"]["unrecoverable"];
  ASSERT_EQ(u.size(), 1u);
  EXPECT_DOUBLE_EQ(u[0]["date"].get<double>(), 10.5);
}

TEST(ReplicatedStorage, BeforeSdWavesTheInitialStateIsTheFallback) {
  // At 4 s only wave 1 (odd) exists; {0, 3, 5} destroys c0-0's copies of it: back to the start.
  RunConfig c = eight_nodes({0, 3, 5}, 4, "repl-initial");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  ASSERT_EQ(r.document["results"]["status"], "completed");
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
  for (const auto& l : trace_events(c.options.trace_file, "recovery_line")) EXPECT_EQ(l["line"], 0) << l.dump();
  auto rollbacks = trace_events(c.options.trace_file, "rollback");
  ASSERT_FALSE(rollbacks.empty());
  for (const auto& rb : rollbacks) EXPECT_EQ(restored_wave(rb), 0u) << rb.dump();
}

TEST(ReplicatedStorage, InvalidPlacementIsAnInputError) {
  // DF 2, SD 2 on 5 nodes: k odd puts copy j = 2 at offset 5 = 0 mod 5, on the node itself.
  RunConfig c = eight_nodes({}, 10, "repl-invalid");
  c.topology_doc["clusters"][0]["nodes"] = 5;
  c.application_doc["nodes"] = json::object();
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/storage/copies"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("on the node itself"), std::string::npos) << r.error;
  // Missing DF / SD, or given without the model.
  RunConfig m = eight_nodes({}, 10, "repl-missing");
  m.topology_doc["storage"].erase("depth");
  auto rm = run_in_child(m);
  ASSERT_EQ(rm.exit_status, 2);
  EXPECT_NE(rm.error.find("/storage/depth"), std::string::npos) << rm.error;
  RunConfig u = eight_nodes({}, 10, "repl-unused");
  u.topology_doc["storage"]["model"] = "servers";
  auto ru = run_in_child(u);
  ASSERT_EQ(ru.exit_status, 2);
  EXPECT_NE(ru.error.find("only meaningful"), std::string::npos) << ru.error;
}

// The model is usable by any protocol: hc3i, independent and msglog (each with its own checkpoint
// numbering and garbage collection) save every checkpoint to the receivers the formula gives for
// its number, within the node's cluster, and recover from failures with 0 oracle violations.
TEST(ReplicatedStorage, EveryProtocolSavesToTheFormulasReceivers) {
  const replicated::Scheme s{2, 2};
  for (const std::string protocol : {"hc3i", "independent", "msglog"}) {
    int failures = 0;
    for (std::uint64_t seed = 1; seed <= 3; seed++) {
      json topo = small_topology(2, 6, 40.0);
      topo["failures"] = {{"downtime", 1}, {"detection_delay", 0.2}};
      topo["storage"] = {{"model", "replicated"}, {"copies", 2}, {"depth", 2}};
      for (auto& c : topo["clusters"]) c["checkpoint_size"] = "64KB";
      RunConfig c = make_config(topo, small_application(2, 1.0, 100.0, 0.3, 0.05),
                                {{"default", {{"checkpoint_period", 5}, {"gc_period", 20}}}});
      c.options.protocol = protocol;
      c.options.seed = seed;
      c.options.end_date = 20000;
      c.options.trace_file = temp_path("repl-" + protocol + ".jsonl");
      auto r = run_in_child(c);
      ASSERT_EQ(r.exit_status, 0) << protocol << ": " << r.error;
      const auto& res = r.document["results"];
      ASSERT_EQ(res["status"], "completed") << protocol << " seed " << seed;
      EXPECT_EQ(res["consistency"]["violations"], 0) << protocol << " seed " << seed;
      failures += res["failures"].get<int>();
      int saves = 0;
      for (const auto& e : trace_events(c.options.trace_file, "ckpt_save")) {
        const int node = e["node"];
        std::vector<std::string> want;
        for (int to : replicated::receivers(node % 6, e["number"].get<std::uint64_t>(), s, 6))
          want.push_back("c" + std::to_string(node / 6) + "-" + std::to_string(to));
        EXPECT_EQ(e["copies"].get<std::vector<std::string>>(), want) << protocol << ": " << e.dump();
        saves++;
      }
      EXPECT_GT(saves, 12) << protocol;
    }
    EXPECT_GT(failures, 0) << protocol;
  }
}
