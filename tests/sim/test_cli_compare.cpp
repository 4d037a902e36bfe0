/* `ckptsim compare`: every protocol on the same inputs and seed, one table. Checked on a scripted
 * failure that two global-restart protocols both roll back both processes, with the same failure
 * in both runs; a protocol that rejects the input is reported in its row without stopping the
 * others; an unknown protocol or a bad input is an input error (exit 2). */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

using namespace ckptsim::test_support;

namespace {
using Output = CliOutput;
Output run_compare(const std::string& args) { return run_cli("compare " + args); }

std::string write(const std::string& name, const nlohmann::json& doc) {
  const std::string path = temp_path(name);
  std::ofstream(path) << doc.dump();
  return path;
}

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    rows.push_back(cells);
  }
  return rows;
}

// Two nodes computing 10 s, a wave every 3 s, c0-1 fails at 5 s.
std::string inputs() {
  nlohmann::json topo = small_topology(1, 2, INFINITY);
  topo["failures"] = {{"downtime", 1}};
  nlohmann::json app = {{"kind", "scripted"},
                        {"nodes", {{"c0-0", {{{"compute", 10}}}}, {"c0-1", {{{"compute", 10}}}}}},
                        {"failures", {{{"date", 5}, {"node", "c0-1"}}}}};
  nlohmann::json timers = {{"default", {{"checkpoint_period", 3}}}};
  return " --topology " + write("cmp-topo.json", topo) + " --application " + write("cmp-app.json", app) + " --timers " +
         write("cmp-timers.json", timers);
}
} // namespace

TEST(CliCompare, SameFailureUnderEveryProtocolAndOneRowEach) {
  const std::string csv = temp_path("cmp.csv");
  auto o = run_compare("--protocols none,coordinated --seed 3 --csv " + csv + inputs());
  ASSERT_EQ(o.status, 0) << o.out;
  auto rows = read_csv(csv);
  ASSERT_EQ(rows.size(), 3u) << o.out;
  const auto& h = rows[0];
  auto col = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
  };
  ASSERT_LT(col("rolled back/f"), h.size());
  EXPECT_EQ(rows[1][0], "none");
  EXPECT_EQ(rows[2][0], "coordinated");
  for (int r = 1; r <= 2; r++) {
    EXPECT_EQ(rows[r][col("failures/def")], "1/0") << rows[r][0];
    EXPECT_EQ(rows[r][col("rolled back/f")], "2.0") << rows[r][0]; // a global restart: both processes
    EXPECT_EQ(rows[r][col("violations")], "0") << rows[r][0];
  }
  // none restarts from scratch: 5 s of work lost on each node; coordinated from wave 1 (3 s of work).
  EXPECT_EQ(rows[1][col("lost work (s)")], "10");
  EXPECT_EQ(rows[2][col("lost work (s)")], "4");
  EXPECT_EQ(rows[1][col("ckpt saves")], "0");
  // The same failure, listed for each run.
  EXPECT_NE(o.out.find("none                     5 s c0-1"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("coordinated              5 s c0-1"), std::string::npos) << o.out;
}

TEST(CliCompare, AProtocolRejectingTheInputStopsTheComparisonBeforeAnyRun) {
  // cck needs a stencil application: checked before any run, said once, exit 2, no table.
  auto o = run_compare("--protocols none,cck --seed 3" + inputs());
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("stencil"), std::string::npos) << o.out; // cck's own message
  EXPECT_NE(o.out.find("ckptsim compare: cck refused (above): nothing ran"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("makespan"), std::string::npos) << o.out;
  // A bad parameter of one protocol, or a bad option of every run: said once, nothing runs.
  auto param = run_compare("--protocols none,coordinated:nosuch=1 --seed 3" + inputs());
  EXPECT_EQ(param.status, 2) << param.out;
  EXPECT_EQ(param.out.find("makespan"), std::string::npos) << param.out;
  auto option = run_compare("--protocols none,coordinated --sed 3" + inputs());
  EXPECT_EQ(option.status, 2) << option.out;
  EXPECT_EQ(option.out, "ckptsim: command line: --sed: unknown option (did you mean \"--seed\"?)\n"
                        "ckptsim compare: none refused (above): nothing ran\n");
}

TEST(CliCompare, UnknownProtocolOrBadInputIsAnInputError) {
  auto o = run_compare("--protocols none,nosuch" + inputs());
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("nosuch"), std::string::npos) << o.out;
  std::string files = inputs();
  files.replace(files.find("--topology ") + 11, files.find(" --application") - files.find("--topology ") - 11,
                "/nonexistent.json");
  auto bad = run_compare("--protocols none,coordinated" + files);
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_NE(bad.out.find("/nonexistent.json"), std::string::npos) << bad.out;
  auto param = run_compare("--protocols none:oops");
  EXPECT_EQ(param.status, 2) << param.out;
}

TEST(CliCompare, PlotDrawsTheTableAsAnImage) {
  // The default scenario, shortened: both protocols' rows drawn by plots/compare.py into a PNG.
  const std::string png = temp_path("compare_plot.png");
  auto r = run_compare("--protocols none,coordinated --seed 3 --set topology/clusters/0/nodes=3 "
                       "--set topology/clusters/1/nodes=3 --set application/total_time=1h --plot " +
                       png);
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string image = slurp(png);
  ASSERT_GT(image.size(), 10000u) << "an empty or tiny image";
  EXPECT_EQ(image.substr(1, 3), "PNG");
  // A format matplotlib is not asked for: refused before any run.
  auto bad = run_compare("--protocols none --plot " + temp_path("compare_plot.gif"));
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_NE(bad.out.find("--plot"), std::string::npos) << bad.out;
  EXPECT_EQ(bad.out.find("makespan"), std::string::npos) << "it ran the protocols: " << bad.out;
}

TEST(CliCompare, AFailedDrawingExitsWith1AfterTheTable) {
  // A drawing script that refuses its input (exit 2): the runs are done, the table printed; the
  // command says the drawing failed and exits 1, not 2 (which would say the user's input was bad).
  const std::string dir = temp_folder("compare_plot_fails");
  std::ofstream(dir + "/compare.py") << "import sys\nsys.exit(2)\n";
  setenv("CKPTSIM_PLOTS", dir.c_str(), 1);
  auto r = run_compare("--protocols none --seed 3 --set topology/clusters/0/nodes=3 --set topology/clusters/1/nodes=3 "
                       "--set application/total_time=1h --plot " +
                       temp_path("compare_plot_fails.png"));
  unsetenv("CKPTSIM_PLOTS");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("makespan"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--plot: drawing"), std::string::npos) << r.out;
}

TEST(CliCompare, LinkFailuresAddTheNetworkColumns) {
  // c0-0 sends 1000 bytes to c1-0 at 1 s while the WAN is down from 0.5 s to 3 s: it waits 2 s.
  nlohmann::json topo = small_topology(2, 1, INFINITY);
  topo["link_failures"] = {{{"link", "wan_0_1"}, {"down", 0.5}, {"up", 3}}};
  nlohmann::json app = {{"kind", "scripted"},
                        {"nodes", {{"c0-0", {{{"compute", 1}}, {{"send", "c1-0"}, {"size", 1000}}}}}}};
  const std::string csv = temp_path("cmp-net.csv");
  auto o = run_compare("--protocols none,coordinated --csv " + csv + " --topology " + write("cmp-net-topo.json", topo) +
                       " --application " + write("cmp-net-app.json", app));
  ASSERT_EQ(o.status, 0) << o.out;
  auto rows = read_csv(csv);
  ASSERT_EQ(rows.size(), 3u) << o.out;
  const std::vector<std::string> tail(rows[0].end() - 4, rows[0].end());
  EXPECT_EQ(tail, (std::vector<std::string>{"cut off (s)", "msgs delayed", "delay (s)", "resent"}));
  for (std::size_t r = 1; r < 3; r++) {
    const std::vector<std::string> cells(rows[r].end() - 4, rows[r].end());
    EXPECT_EQ(cells, (std::vector<std::string>{"2", "1", "2", "0"})) << rows[r][0]; // 2.5 s cut off
  }
  EXPECT_NE(o.out.find("network faults: cut off ="), std::string::npos) << o.out;
  // Without link failures the table keeps its columns.
  auto plain = run_compare("--protocols none --csv " + csv + inputs());
  ASSERT_EQ(plain.status, 0) << plain.out;
  EXPECT_EQ(read_csv(csv)[0].back(), "violations");
}

TEST(CliCompare, SeedsGiveEachProtocolsMeanAndIntervalThatSingleRunsReproduce) {
  nlohmann::json topo = small_topology(2, 2, 4 * 3600.0);
  nlohmann::json app = small_application(2, 20, 2 * 3600.0, 0.3, 0.05);
  nlohmann::json timers = {{"default", {{"checkpoint_period", "10min"}}}};
  const std::string files = " --topology " + write("cmps-topo.json", topo) + " --application " +
                            write("cmps-app.json", app) + " --timers " + write("cmps-timers.json", timers);
  const std::string csv = temp_path("cmps.csv");
  auto o = run_compare("--protocols none,coordinated --seeds 1-3,7 --jobs 2 --csv " + csv + files);
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("means over 4 seeds (1-3,7)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(" ± "), std::string::npos) << o.out;
  auto rows = read_csv(csv);
  ASSERT_EQ(rows.size(), 3u);
  const auto& h = rows[0];
  auto col = [&](const std::string& name) {
    const auto i = static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
    EXPECT_LT(i, h.size()) << name;
    return i;
  };
  // The same seeds run one by one: the table's means and intervals are theirs (Student's t with
  // 3 degrees of freedom: 3.182), and each seed gives both protocols the same first failure.
  const double t3 = 3.182;
  std::vector<std::string> first_failure(4);
  for (int r = 1; r <= 2; r++) {
    const std::string protocol = rows[r][0];
    EXPECT_EQ(rows[r][col("runs")], "4");
    EXPECT_EQ(rows[r][col("failed")], "0");
    std::vector<double> makespans, saves;
    int k = 0;
    for (int seed : {1, 2, 3, 7}) {
      const std::string out = temp_path("cmps-" + protocol + std::to_string(seed) + ".json");
      auto one = run_cli("run --quiet --protocol " + protocol + " --seed " + std::to_string(seed) + " --output " + out +
                         files);
      ASSERT_EQ(one.status, 0) << one.out;
      std::ifstream in(out);
      const auto doc = nlohmann::json::parse(in);
      makespans.push_back(doc["results"]["makespan"].get<double>());
      saves.push_back(doc["stats"]["counters"].value("storage.saves", 0.0));
      const auto& series = doc["stats"]["series"];
      const std::string first = series.contains("failures") ? series["failures"][0]["date"].dump() + " " +
                                                                  series["failures"][0]["host"].get<std::string>()
                                                            : "none";
      if (r == 1) first_failure[k] = first;
      EXPECT_EQ(first, first_failure[k]) << "seed " << seed;
      k++;
    }
    auto mean_ci = [&](const std::vector<double>& xs) {
      double m = 0, s2 = 0;
      for (double x : xs) m += x / 4;
      for (double x : xs) s2 += (x - m) * (x - m) / 3;
      return std::pair<double, double>(m, t3 * std::sqrt(s2 / 4));
    };
    const auto [m, ci] = mean_ci(makespans);
    EXPECT_NEAR(std::stod(rows[r][col("makespan (s)")]), m, 0.001) << protocol;
    EXPECT_NEAR(std::stod(rows[r][col("makespan (s) ci95")]), ci, 0.002 + 0.001 * ci) << protocol;
    const auto [ms, cis] = mean_ci(saves);
    EXPECT_NEAR(std::stod(rows[r][col("ckpt saves")]), ms, 0.01) << protocol;
    EXPECT_NEAR(std::stod(rows[r][col("ckpt saves ci95")]), cis, 0.01 + 0.001 * cis) << protocol;
  }
  EXPECT_GT(std::stod(rows[2][col("ckpt saves")]), 0); // coordinated saves, none does not
  EXPECT_EQ(rows[1][col("ckpt saves")], "0.00");
  // --seed and --seeds together, a negative seed, a seed twice: said before any run.
  auto both = run_compare("--seed 2 --seeds 1-3" + files);
  EXPECT_EQ(both.status, 2);
  EXPECT_EQ(both.out, "ckptsim: command line: --seeds: give --seed (one run per protocol) or --seeds, not both\n");
  auto twice = run_compare("--seeds 1-3,2" + files);
  EXPECT_EQ(twice.status, 2);
  EXPECT_EQ(twice.out, "ckptsim: command line: --seeds: seed 2 is given twice\n");
  auto negative = run_compare("--seeds -1" + files);
  EXPECT_EQ(negative.status, 2);
  EXPECT_EQ(negative.out, "ckptsim: command line: --seeds: a seed is an integer from 0 to 9223372036854775807, found "
                          "\"-1\"\n");
}
