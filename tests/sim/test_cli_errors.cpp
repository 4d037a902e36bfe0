/* Errors that point at the fix (issue 35, item 4): a mistyped option or field is named, with the
 * name most likely meant; a seed is a non-negative integer; a file that cannot be opened is said
 * with the path tried and the system's reason. Each is exit status 2, before anything runs. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fstream>

using namespace ckptsim::test_support;

TEST(CliErrors, AnUnknownOptionIsNamedWithTheOneMeant) {
  auto o = run_cli("--sed 3");
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.out, "ckptsim: command line: --sed: unknown option (did you mean \"--seed\"?)\n");
  o = run_cli("run --quiett");
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.out, "ckptsim: command line: --quiett: unknown option (did you mean \"--quiet\"?)\n");
  o = run_cli("run --frobnicate 1"); // nothing near: no guess
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.out, "ckptsim: command line: --frobnicate: unknown option\n");
}

TEST(CliErrors, ASeedIsANonNegativeInteger) {
  for (const char* bad : {"-1", "1.5", "3x", "", "99999999999999999999"}) {
    auto o = run_cli(std::string("--quiet --seed '") + bad + "'");
    EXPECT_EQ(o.status, 2) << bad;
    EXPECT_EQ(o.out, std::string("ckptsim: command line: --seed: a seed is an integer from 0 to 9223372036854775807, "
                                 "found \"") +
                         bad + "\"\n");
  }
}

TEST(CliErrors, AFileThatCannotBeOpenedIsSaidWithThePathTriedAndWhy) {
  auto o = run_cli("validate /nonexistent/topo.json");
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.out, "ckptsim: /nonexistent/topo.json: /: cannot open this file (/nonexistent/topo.json): No such file "
                   "or directory\n");
  // A relative name is resolved against the current folder (run_cli runs from /): said in full.
  o = run_cli("validate nothere.json");
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.out, "ckptsim: nothere.json: /: cannot open this file (/nothere.json): No such file or directory\n");
}

TEST(CliErrors, AMisspeltRequiredFieldIsNamedAsUnknown) {
  const std::string dir = temp_folder("misspelt");
  std::ofstream(dir + "/app.json") << R"({"kind": "stochastic", "totaltime": "1h",
    "clusters": [{"compute": {"distribution": "exponential", "mean": "10s"}, "send": {"same": 0.1}}]})";
  std::ofstream(dir + "/topo.json") << R"({"clusters": [{"name": "c0", "nodes": 2,
    "san": {"latency": "10us", "bandwidth": "80MBps"}}], "mtbf": "inf"})";
  auto o = run_cli("validate --topology " + dir + "/topo.json --application " + dir + "/app.json");
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.out, "ckptsim: " + dir +
                       "/app.json: /totaltime: unknown field \"totaltime\" (did you mean "
                       "\"total_time\"? it is required here and missing)\n");
}
