/* Progress without a terminal (issue 35, item 5): a run whose stderr is a pipe or a log says how
 * far it is on a line of its own every --progress-every of wall time (a minute by default), unless
 * --quiet or --progress false. Here the interval is made tiny so that the default scenario (about
 * a second of wall time) writes several lines. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

using namespace ckptsim::test_support;

namespace {
std::vector<std::smatch> progress_lines(const std::string& out, std::vector<std::string>& storage) {
  static const std::regex line(R"(ckptsim: progress after [0-9]+\.[0-9] s of wall time: simulated [^,]+, ([0-9.]+) % )"
                               R"(of the work done, [0-9]+ events/s, ([0-9]+)/200 processes done, failures so far: )"
                               R"(([0-9]+))");
  std::stringstream ss(out);
  for (std::string l; std::getline(ss, l);)
    if (l.rfind("ckptsim: progress", 0) == 0) storage.push_back(l);
  std::vector<std::smatch> found;
  for (const auto& l : storage) {
    std::smatch m;
    EXPECT_TRUE(std::regex_match(l, m, line)) << l;
    found.push_back(m);
  }
  return found;
}
} // namespace

TEST(CliProgress, WithoutATerminalARunWritesALineEveryIntervalSayingHowFarItIs) {
  // stderr is a pipe here (run_cli), as in a batch job.
  auto o = run_cli("--quiet --progress true --progress-every 0.01s");
  ASSERT_EQ(o.status, 0) << o.out;
  std::vector<std::string> storage;
  const auto lines = progress_lines(o.out, storage);
  ASSERT_GE(lines.size(), 2u) << o.out;
  double share = 0;
  int failures = 0;
  for (const auto& m : lines) { // the share of the work and the failures only grow
    EXPECT_GE(std::stod(m[1]), share);
    EXPECT_LE(std::stod(m[1]), 100.0);
    EXPECT_GE(std::stoi(m[3]), failures);
    share = std::stod(m[1]);
    failures = std::stoi(m[3]);
  }
  EXPECT_LE(failures, 3);                         // the default seed's run has three failures
  EXPECT_EQ(o.out.find('\r'), std::string::npos); // lines for a log, not a line redrawn
}

TEST(CliProgress, QuietOrProgressFalseWritesNoLine) {
  for (const char* args : {"--quiet --progress-every 0.01s", "--progress false --progress-every 0.01s"}) {
    auto o = run_cli(args);
    ASSERT_EQ(o.status, 0) << o.out;
    EXPECT_EQ(o.out.find("ckptsim: progress"), std::string::npos) << args << "\n" << o.out;
  }
  auto bad = run_cli("--progress-every 0s");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "ckptsim: command line: --progress-every: must be greater than zero\n");
}
