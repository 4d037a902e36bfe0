/* The failure sources (sim/failures/): exponential and Weibull means, uniform victims, the order of
 * the draws (gap, then victim: the seeded results depend on it), traces resolved against the
 * federation, scripted failures replacing the topology's source, determinism under the seed. */
#include "sim/app/rng.hpp"
#include "sim/config/input_error.hpp"
#include "sim/failures/source.hpp"
#include "sim/failures/trace/trace.hpp"
#include "sim/failures/weibull/weibull.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace ckptsim;

namespace {
Topology topo(int nodes, double mtbf, const std::string& model = "exponential", std::any settings = {}) {
  Topology t;
  ClusterSpec c;
  c.name = "c0";
  c.nodes = nodes;
  c.san = {1e-5, 8e7};
  t.clusters.push_back(c);
  t.mtbf = mtbf;
  t.failures.model = model;
  t.failures.settings = std::move(settings);
  return t;
}

std::unique_ptr<FailureSource> source(const Topology& t, const FederationLayout& layout, std::uint64_t seed,
                                      const std::vector<FailureEvent>& scripted = {}) {
  return make_failure_source({t, layout, seed}, scripted);
}

// Mean and standard error of the gaps of n arrivals.
std::pair<double, double> gap_stats(FailureSource& p, int n, std::vector<int>* victims = nullptr) {
  double last = 0, sum = 0, sum2 = 0;
  for (int i = 0; i < n; i++) {
    auto a = p.next();
    double g = a->date - last;
    last = a->date;
    sum += g;
    sum2 += g * g;
    EXPECT_EQ(a->victims.size(), 1u);
    EXPECT_FALSE(a->repair); // the topology's downtime
    if (victims) (*victims)[a->victims.at(0)]++;
  }
  double mean = sum / n;
  return {mean, std::sqrt((sum2 / n - mean * mean) / n)};
}
} // namespace

TEST(FailureSources, ExponentialMeanIsTheMtbfAndVictimsAreUniform) {
  Topology t = topo(10, 3600);
  FederationLayout layout(t);
  auto p = source(t, layout, 7);
  std::vector<int> victims(10, 0);
  auto [mean, se] = gap_stats(*p, 20000, &victims);
  EXPECT_NEAR(mean, 3600, 4 * se);
  for (int v : victims) // 2000 expected each; binomial sd ~42
    EXPECT_NEAR(v, 2000, 200);
}

TEST(FailureSources, RenewalSourcesDrawTheGapThenTheVictimFromTheFailureStream) {
  Topology t = topo(10, 3600);
  FederationLayout layout(t);
  auto p = source(t, layout, 7);
  Rng rng(mix_seed(7, 0xfa11u, 0x1d));
  double clock = 0;
  for (int i = 0; i < 3; i++) {
    clock += rng.exponential(3600);
    const auto victim = static_cast<NodeId>(rng.below(10));
    auto a = p->next();
    EXPECT_EQ(a->date, clock);
    EXPECT_EQ(a->victims, std::vector<NodeId>{victim});
  }
  Topology w = topo(10, 3600, "weibull", WeibullSettings{0.7});
  auto q = source(w, layout, 7);
  Rng wrng(mix_seed(7, 0xfa11u, 0x1d));
  const double gap = wrng.weibull(0.7, weibull_scale(3600, 0.7));
  const auto victim = static_cast<NodeId>(wrng.below(10));
  auto a = q->next();
  EXPECT_EQ(a->date, gap);
  EXPECT_EQ(a->victims, std::vector<NodeId>{victim});
}

TEST(FailureSources, WeibullMeanIsTheMtbf) {
  Topology t = topo(4, 1000, "weibull", WeibullSettings{0.7});
  FederationLayout layout(t);
  auto p = source(t, layout, 3);
  auto [mean, se] = gap_stats(*p, 20000);
  EXPECT_NEAR(mean, 1000, 4 * se);
  EXPECT_NEAR(weibull_scale(1000, 1.0), 1000, 1e-9);
}

TEST(FailureSources, SameSeedSameArrivalsOtherSeedOthers) {
  Topology t = topo(4, 100);
  FederationLayout layout(t);
  auto a = source(t, layout, 11), b = source(t, layout, 11), c = source(t, layout, 12);
  for (int i = 0; i < 5; i++) {
    auto x = a->next(), y = b->next(), z = c->next();
    EXPECT_EQ(x->date, y->date);
    EXPECT_EQ(x->victims, y->victims);
    EXPECT_NE(x->date, z->date);
  }
}

TEST(FailureSources, InfiniteMtbfOrModelNoneMeansNoFailure) {
  Topology t = topo(4, INFINITY);
  FederationLayout layout(t);
  EXPECT_FALSE(source(t, layout, 1)->next());
  Topology w = topo(4, INFINITY, "weibull", WeibullSettings{2});
  EXPECT_FALSE(source(w, layout, 1)->next());
  Topology n = topo(4, 10, "none");
  EXPECT_FALSE(source(n, layout, 1)->next());
}

TEST(FailureSources, TraceIsReplayedAndNamesAreResolved) {
  Topology t = topo(4, 10, "trace", TraceSettings{{{5, "c0-2", "f: line 1"}, {9, "3", "f: line 2"}}});
  FederationLayout layout(t);
  auto p = source(t, layout, 1);
  auto a = p->next();
  EXPECT_EQ(a->date, 5);
  EXPECT_EQ(a->victims, std::vector<NodeId>{2});
  EXPECT_FALSE(a->repair);
  auto b = p->next();
  EXPECT_EQ(b->date, 9);
  EXPECT_EQ(b->victims, std::vector<NodeId>{3});
  EXPECT_FALSE(p->next());
}

TEST(FailureSources, ScriptedFailuresReplaceTheTopologysSource) {
  Topology t = topo(4, 10); // exponential, a failure every 10 s on average
  FederationLayout layout(t);
  auto p = source(t, layout, 1, {{100, "c0-1", "app.json: /failures/0"}});
  auto a = p->next();
  EXPECT_EQ(a->date, 100);
  EXPECT_EQ(a->victims, std::vector<NodeId>{1});
  EXPECT_FALSE(p->next());
}

TEST(FailureSources, UnknownNodeInTraceIsAnInputError) {
  Topology t = topo(4, 10, "trace", TraceSettings{{{5, "c9-0", "trace.txt: line 3"}}});
  FederationLayout layout(t);
  try {
    source(t, layout, 1);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "trace.txt");
    EXPECT_EQ(e.path(), "line 3");
    EXPECT_EQ(e.problem(), "no node \"c9-0\" in the federation (host name or index below 4)");
  }
}

TEST(FailureSources, ATraceLineListingSeveralNodesIsOneFailureOfAllOfThem) {
  Topology t =
      topo(4, 10, "trace", TraceSettings{{{5, "c0-3,c0-1,0", "trace.txt: line 1"}, {7, "2", "trace.txt: line 2"}}});
  FederationLayout layout(t);
  auto p = source(t, layout, 1);
  auto a = p->next();
  EXPECT_EQ(a->date, 5);
  EXPECT_EQ(a->victims, (std::vector<NodeId>{0, 1, 3})); // increasing order
  EXPECT_EQ(p->next()->victims, std::vector<NodeId>{2});
  const auto problem = [&](const std::string& nodes) {
    Topology bad = topo(4, 10, "trace", TraceSettings{{{5, nodes, "trace.txt: line 4"}}});
    FederationLayout l(bad);
    try {
      source(bad, l, 1);
    } catch (const InputError& e) {
      EXPECT_EQ(e.path(), "line 4");
      return e.problem();
    }
    return std::string("no error");
  };
  EXPECT_EQ(problem("c0-1,c0-1"), "node \"c0-1\" is listed twice in one failure");
  EXPECT_EQ(problem("c0-1,"), "no node \"\" in the federation (host name or index below 4)");
  EXPECT_EQ(problem("c0-1,c7-7"), "no node \"c7-7\" in the federation (host name or index below 4)");
}
