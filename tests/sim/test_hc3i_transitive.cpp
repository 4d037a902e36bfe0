/* The transitive variant of HC3I (report section 7: the whole DDV piggybacked instead of the SN)
 * against the basic protocol on the same runs (same federation, application, timers and seed,
 * failure-free so that both see the same messages): it never takes more forced CLCs, and over
 * the set it takes fewer (what the report expects of it). */
#include "tests/support/sim_child.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {
double forced(const ChildResult& r) {
  double n = 0;
  for (const auto& v : r.document["stats"]["per_cluster"]["hc3i.clc_forced"]) n += v.get<double>();
  return n;
}
} // namespace

TEST(Hc3iTransitive, NeverMoreForcedClcsThanTheBasicProtocol) {
  double basic_total = 0, transitive_total = 0;
  for (int i = 0; i < 40; i++) {
    const int clusters = 3 + i % 3;
    RunConfig c = make_config(small_topology(clusters, 3, INFINITY), small_application(clusters, 2.0, 600.0, 0.3, 0.05),
                              {{"default", {{"checkpoint_period", 20 + 10 * (i % 4)}}}});
    c.options.protocol = "hc3i";
    c.options.seed = static_cast<std::uint64_t>(i + 1);
    auto basic = run_in_child(c);
    c.options.params["transitive"] = "true";
    auto transitive = run_in_child(c);
    ASSERT_EQ(basic.exit_status, 0) << basic.error;
    ASSERT_EQ(transitive.exit_status, 0) << transitive.error;
    const std::string what = fmt::format("run {} ({} clusters, seed {})", i, clusters, i + 1);
    // Same application messages: the comparison is on the same run.
    EXPECT_EQ(basic.document["stats"]["matrices"]["app.messages"],
              transitive.document["stats"]["matrices"]["app.messages"])
        << what;
    EXPECT_LE(forced(transitive), forced(basic)) << what;
    EXPECT_EQ(transitive.document["results"]["consistency"]["violations"], 0) << what;
    basic_total += forced(basic);
    transitive_total += forced(transitive);
  }
  std::printf("[ hc3i transitive ] forced CLCs over 40 runs: basic %.0f, transitive %.0f\n", basic_total,
              transitive_total);
  EXPECT_LT(transitive_total, basic_total);
}
