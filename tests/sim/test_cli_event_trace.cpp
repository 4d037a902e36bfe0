/* `ckptsim run --event-trace FILE --event-trace-level N` and their old names `--trace` and
 * `--trace-level`, kept as aliases for the scripts written before the rename (docs/TRACE.md):
 * every mix of the two spellings writes the same file, both spellings of one option at once are
 * refused, and an error names the option as the user wrote it. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace ckptsim::test_support;

namespace {
// The default scenario cut to 10 simulated minutes: application messages and node states, quickly.
const std::string kShortRun = "--quiet --set application/total_time=10min ";

std::string event_trace_of(const std::string& options, const std::string& name) {
  const std::string path = temp_path(name);
  const auto o = run_cli(kShortRun + options + " " + path);
  EXPECT_EQ(o.status, 0) << options << "\n" << o.out;
  return slurp(path);
}
} // namespace

TEST(CliEventTrace, BothSpellingsWriteTheSameFile) {
  const std::string level2 = event_trace_of("--event-trace-level 2 --event-trace", "new2.jsonl");
  EXPECT_EQ(level2.rfind("{\"t\":0.0,\"ev\":\"run_start\",\"protocol\":\"hc3i\"", 0), 0u) << level2.substr(0, 200);
  EXPECT_NE(level2.find("\"ev\":\"state\""), std::string::npos); // level 2: every node action
  EXPECT_EQ(event_trace_of("--trace-level 2 --trace", "old2.jsonl"), level2);
  EXPECT_EQ(event_trace_of("--trace-level 2 --event-trace", "mixed2.jsonl"), level2);

  const std::string level0 = event_trace_of("--event-trace-level 0 --trace", "mixed0.jsonl");
  EXPECT_EQ(level0.find("\"ev\":\"app_send\""), std::string::npos); // level 0: run events only
  EXPECT_NE(level0.find("\"ev\":\"run_end\""), std::string::npos);
  EXPECT_EQ(event_trace_of("--trace-level 0 --event-trace", "mixed0b.jsonl"), level0);

  // No level: the default, 1 (application messages, no node states), under either name.
  const std::string level1 = event_trace_of("--event-trace", "new1.jsonl");
  EXPECT_NE(level1.find("\"ev\":\"app_send\""), std::string::npos);
  EXPECT_EQ(level1.find("\"ev\":\"state\""), std::string::npos);
  EXPECT_EQ(event_trace_of("--trace", "old1.jsonl"), level1);
}

TEST(CliEventTrace, BothSpellingsOfOneOptionAreRefused) {
  auto both = run_cli(kShortRun + "--event-trace " + temp_path("a.jsonl") + " --trace " + temp_path("b.jsonl"));
  EXPECT_EQ(both.status, 2) << both.out;
  EXPECT_NE(both.out.find("ckptsim: command line: --trace: alias of --event-trace, also given: give one of them"),
            std::string::npos)
      << both.out;
  // Even with the same value, and even the default level given explicitly.
  both = run_cli(kShortRun + "--event-trace-level 1 --trace-level 1");
  EXPECT_EQ(both.status, 2) << both.out;
  EXPECT_NE(
      both.out.find("ckptsim: command line: --trace-level: alias of --event-trace-level, also given: give one of them"),
      std::string::npos)
      << both.out;
}

TEST(CliEventTrace, ABadLevelIsNamedAsGiven) {
  auto o = run_cli(kShortRun + "--event-trace-level 3");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("ckptsim: command line: --event-trace-level: expected 0, 1 or 2"), std::string::npos) << o.out;
  o = run_cli(kShortRun + "--trace-level 7");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("ckptsim: command line: --trace-level: expected 0, 1 or 2"), std::string::npos) << o.out;
}

TEST(CliEventTrace, HelpSaysWhichNamesAreAliases) {
  const auto o = run_cli("run --help");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("--event-trace arg "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("--event-trace-level arg (=1)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("alias of --event-trace\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("alias of --event-trace-level\n"), std::string::npos) << o.out;
}
