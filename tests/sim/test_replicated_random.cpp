/* The "replicated" storage model with the coordinated protocol over 120 seeded runs: two
 * clusters of 6 nodes (N = 6 >= DF^SD + SD = 6 for DF 2, SD 2, MNF = 3), a stochastic
 * application, and failure traces of two bursts of 1 to 3 simultaneous failures anywhere in the
 * federation (a third of them shaped to destroy every copy of one parity of waves for a node);
 * a quarter of the second bursts are instead MNF + 1 = 4 failures in one cluster that destroy
 * both parities. Every run ends with 0 oracle violations, every recovery restores exactly the
 * wave that the paper's RLFFN (sim/storage/replicated/scheme.hpp) computes from the trace (the kept
 * waves, the burst's victims per cluster), and a run ends as unrecoverable exactly when that
 * RLFFN finds no wave. */
#include "sim/net/ids.hpp"
#include "sim/storage/replicated/scheme.hpp"
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <random>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

constexpr int kNodes = 6; // per cluster
const replicated::Scheme kScheme{2, 2};

struct Burst {
  double date;
  std::set<int> victims; // global node ids
};

std::vector<Burst> draw_bursts(std::mt19937_64& rng) {
  std::vector<Burst> out;
  const double starts[] = {6, 24};
  for (double start : starts) {
    // Whole milliseconds: the failure trace file gives the date exactly, and the replay below
    // recognizes a burst by its date.
    Burst b{start + static_cast<double>(rng() % 8000) / 1000.0, {}};
    const int shape = static_cast<int>(rng() % (out.empty() ? 3 : 4));
    if (shape == 3) { // {i, i+1, i+2, i+4}: even waves of i on i+1, i+2; odd waves of i+1 on i+4, i
      const int c = static_cast<int>(rng() % 2);
      const int i = static_cast<int>(rng() % kNodes);
      for (int off : {0, 1, 2, 4}) b.victims.insert(c * kNodes + (i + off) % kNodes);
    } else if (shape == 0) { // a killing pattern in one cluster: {i, i+1, i+2} (even waves) or {i, i+3, i+5} (odd)
      const int c = static_cast<int>(rng() % 2);
      const int i = static_cast<int>(rng() % kNodes);
      const bool odd = rng() % 2;
      for (int off : odd ? std::vector<int>{0, 3, 5} : std::vector<int>{0, 1, 2})
        b.victims.insert(c * kNodes + (i + off) % kNodes);
    } else {
      const int size = 1 + static_cast<int>(rng() % replicated::mnf(kScheme));
      while (static_cast<int>(b.victims.size()) < size) b.victims.insert(static_cast<int>(rng() % (2 * kNodes)));
    }
    out.push_back(b);
  }
  return out;
}

// The paper's RLFFN over the waves the trace says exist: per cluster, index within it.
std::optional<std::uint64_t> expected_line(std::uint64_t committed, const std::set<std::uint64_t>& available,
                                           const std::set<int>& victims) {
  std::set<int> per[2];
  for (int v : victims) per[v / kNodes].insert(v % kNodes);
  for (std::uint64_t back = 0; back < static_cast<std::uint64_t>(kScheme.depth) && back <= committed; back++) {
    const std::uint64_t k = committed - back;
    if (k == 0) return 0; // the initial state needs no storage
    if (!available.count(k)) continue;
    if (replicated::line_survives(k, per[0], kScheme, kNodes) && replicated::line_survives(k, per[1], kScheme, kNodes))
      return k;
  }
  return std::nullopt;
}

} // namespace

TEST(ReplicatedStorageRandom, EveryRecoveryRestoresTheRlffnWaveOver120Seeds) {
  int recoveries = 0;
  int older = 0;
  int failures = 0;
  int unrecoverable = 0;
  for (int seed = 1; seed <= 120; seed++) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
    const auto bursts = draw_bursts(rng);
    const std::string trace_in = temp_path("repl-failures-" + std::to_string(seed) + ".txt");
    {
      std::ofstream f(trace_in);
      for (const auto& b : bursts)
        for (int v : b.victims) f << fmt::format("{:.3f}", b.date) << " c" << v / kNodes << "-" << v % kNodes << "\n";
    }
    json topo = small_topology(2, kNodes, INFINITY);
    topo["failures"] = {{"model", "trace"},
                        {"trace", trace_in},
                        {"downtime", 0.5 + (seed % 3)},
                        {"detection_delay", (seed % 2) * 0.3},
                        {"restart_overhead", (seed % 4) * 0.2},
                        {"overlap", "allow"}};
    topo["storage"] = {{"model", "replicated"}, {"copies", kScheme.copies}, {"depth", kScheme.depth}};
    RunConfig c = make_config(topo, small_application(2, 1.0, 40.0, 0.5, 0.2),
                              {{"default", {{"checkpoint_period", 3 + seed % 3}}}});
    c.options.protocol = "coordinated";
    c.options.seed = static_cast<std::uint64_t>(seed);
    c.options.end_date = 2000;
    c.options.trace_file = temp_path("repl-random.jsonl");
    auto r = run_in_child(c);
    ASSERT_EQ(r.exit_status, 0) << "seed " << seed << ": " << r.error;
    const auto& res = r.document["results"];
    ASSERT_EQ(res["consistency"]["violations"].get<int>(), 0) << "seed " << seed;
    failures += res["failures"].get<int>();

    // Replay the trace: waves committed along the line, the decisions after each burst.
    const NodeId coordinator = 2 * kNodes;
    std::uint64_t committed = 0;
    std::set<std::uint64_t> available;
    std::size_t next_burst = 0;
    std::optional<std::uint64_t> expected;
    std::map<int, std::uint64_t> restored; // node -> wave of its last rollback in this recovery
    bool checking = false;
    auto check_recovery = [&] {
      if (!checking) return;
      ASSERT_TRUE(expected) << "seed " << seed;
      ASSERT_EQ(restored.size(), static_cast<std::size_t>(2 * kNodes)) << "seed " << seed;
      for (const auto& [node, wave] : restored) ASSERT_EQ(wave, *expected) << "seed " << seed << " node " << node;
      recoveries++;
      checking = false;
    };
    for (const auto& e : read_trace(c.options.trace_file)) {
      const std::string ev = e["ev"];
      if (ev == "failure" && next_burst < bursts.size() && e["t"].get<double>() >= bursts[next_burst].date - 1e-9) {
        check_recovery();
        expected = expected_line(committed, available, bursts[next_burst].victims);
        if (expected && *expected < committed) older++;
        restored.clear();
        checking = true;
        next_burst++;
      } else if (ev == "ckpt_commit" && e["node"] == coordinator) {
        check_recovery();
        committed = e["number"];
        available.insert(committed);
        std::erase_if(available, [&](std::uint64_t k) { return k + kScheme.depth <= committed; });
      } else if (ev == "rollback_order") {
        committed = e["wave"];
        std::erase_if(available, [&](std::uint64_t k) { return k > committed; });
      } else if (ev == "rollback" && checking) {
        restored[e["node"].get<int>()] = restored_wave(e);
      }
    }
    const std::string status = res["status"];
    if (status == "completed") {
      check_recovery();
      ASSERT_EQ(next_burst, bursts.size()) << "seed " << seed;
    } else { // only when the trace says no kept wave survives
      ASSERT_EQ(status.rfind("unrecoverable", 0), 0u) << "seed " << seed << ": " << status;
      ASSERT_FALSE(expected) << "seed " << seed << ": " << status;
      unrecoverable++;
    }
  }
  std::printf("replicated: 120 runs, %d failures, %d recoveries checked (%d to an older wave), %d unrecoverable\n",
              failures, recoveries, older, unrecoverable);
  EXPECT_GE(failures, 120 * 2);
  EXPECT_GE(recoveries, 180);
  EXPECT_GE(unrecoverable, 15) << "second bursts of MNF + 1 failures destroying both parities";
  EXPECT_GE(older, 10) << "bursts that destroyed the newest wave of some node";
}
