/* `ckptsim compare`: every protocol on the same inputs and seed, one table. Checked on a scripted
 * failure that two global-restart protocols both roll back both processes, with the same failure
 * in both runs; a protocol that rejects the input is reported in its row without stopping the
 * others; an unknown protocol or a bad input is an input error (exit 2). */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <array>
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

TEST(CliCompare, AProtocolRejectingTheInputIsReportedAndTheOthersRun) {
  // cck needs a stencil application: its child exits 2, the table says so, the command exits 3.
  auto o = run_compare("--protocols cck,none --seed 3" + inputs());
  EXPECT_EQ(o.status, 3) << o.out;
  EXPECT_NE(o.out.find("failed (exit 2)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("stencil"), std::string::npos) << o.out; // cck's own message
  EXPECT_NE(o.out.find("\nnone "), std::string::npos) << o.out;
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
