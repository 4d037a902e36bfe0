/* Same inputs and seed: identical statistics and trace. Other seed: other failures. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

RunConfig failing_run(std::uint64_t seed, const std::string& trace) {
  json topo = small_topology(2, 4, 40.0);
  topo["failures"] = {{"downtime", 3}, {"detection_delay", 0.5}, {"restart_overhead", 1}};
  RunConfig c = make_config(topo, small_application(2, 1.0, 80.0, 0.5, 0.2));
  c.options.seed = seed;
  c.options.trace_file = trace;
  c.options.trace_level = 2;
  return c;
}

std::vector<double> failure_dates(const json& doc) {
  std::vector<double> dates;
  for (const auto& f : doc["stats"]["series"]["failures"]) dates.push_back(f["date"]);
  return dates;
}
} // namespace

TEST(Determinism, SameSeedGivesIdenticalStatisticsAndTrace) {
  auto t1 = temp_path("a.jsonl"), t2 = temp_path("b.jsonl");
  auto a = run_in_child(failing_run(9, t1));
  auto b = run_in_child(failing_run(9, t2));
  ASSERT_EQ(a.exit_status, 0) << a.error;
  ASSERT_EQ(b.exit_status, 0) << b.error;
  ASSERT_GT(a.document["results"]["failures"].get<int>(), 0);
  EXPECT_EQ(without_wall_clock(a.document).dump(), without_wall_clock(b.document).dump());
  const std::string ta = slurp(t1), tb = slurp(t2);
  EXPECT_GT(ta.size(), 1000u);
  EXPECT_EQ(ta, tb);
}

TEST(Determinism, OtherSeedGivesOtherFailureDates) {
  auto a = run_in_child(failing_run(9, ""));
  auto b = run_in_child(failing_run(10, ""));
  ASSERT_EQ(a.exit_status, 0) << a.error;
  ASSERT_EQ(b.exit_status, 0) << b.error;
  auto da = failure_dates(a.document), db = failure_dates(b.document);
  ASSERT_FALSE(da.empty());
  ASSERT_FALSE(db.empty());
  EXPECT_NE(da, db);
}
