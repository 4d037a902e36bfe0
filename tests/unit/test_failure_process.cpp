/* Failure arrivals (sim/failures/failure_process): exponential and Weibull means, uniform
 * victims, traces resolved against the federation, determinism under the seed. */
#include "sim/config/input_error.hpp"
#include "sim/failures/failure_process.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace ckptsim;

namespace {
Topology topo(int nodes, double mtbf, FailureModel model = FailureModel::Exponential, double shape = 1) {
  Topology t;
  ClusterSpec c;
  c.name = "c0";
  c.nodes = nodes;
  c.san = {1e-5, 8e7};
  t.clusters.push_back(c);
  t.mtbf = mtbf;
  t.failures.model = model;
  t.failures.weibull_shape = shape;
  return t;
}

// Mean and standard error of the gaps of n arrivals.
std::pair<double, double> gap_stats(FailureProcess& p, int n, std::vector<int>* victims = nullptr) {
  double last = 0, sum = 0, sum2 = 0;
  for (int i = 0; i < n; i++) {
    auto a = p.next();
    double g = a->date - last;
    last = a->date;
    sum += g;
    sum2 += g * g;
    if (victims) (*victims)[a->victim]++;
  }
  double mean = sum / n;
  return {mean, std::sqrt((sum2 / n - mean * mean) / n)};
}
} // namespace

TEST(FailureProcess, ExponentialMeanIsTheMtbfAndVictimsAreUniform) {
  Topology t = topo(10, 3600);
  FederationLayout layout(t);
  FailureProcess p(t, layout, 7);
  std::vector<int> victims(10, 0);
  auto [mean, se] = gap_stats(p, 20000, &victims);
  EXPECT_NEAR(mean, 3600, 4 * se);
  for (int v : victims) // 2000 expected each; binomial sd ~42
    EXPECT_NEAR(v, 2000, 200);
}

TEST(FailureProcess, WeibullMeanIsTheMtbf) {
  Topology t = topo(4, 1000, FailureModel::Weibull, 0.7);
  FederationLayout layout(t);
  FailureProcess p(t, layout, 3);
  auto [mean, se] = gap_stats(p, 20000);
  EXPECT_NEAR(mean, 1000, 4 * se);
  EXPECT_NEAR(FailureProcess::weibull_scale(1000, 1.0), 1000, 1e-9);
}

TEST(FailureProcess, SameSeedSameArrivalsOtherSeedOthers) {
  Topology t = topo(4, 100);
  FederationLayout layout(t);
  FailureProcess a(t, layout, 11), b(t, layout, 11), c(t, layout, 12);
  for (int i = 0; i < 5; i++) {
    auto x = a.next(), y = b.next(), z = c.next();
    EXPECT_EQ(x->date, y->date);
    EXPECT_EQ(x->victim, y->victim);
    EXPECT_NE(x->date, z->date);
  }
}

TEST(FailureProcess, InfiniteMtbfOrModelNoneMeansNoFailure) {
  Topology t = topo(4, INFINITY);
  FederationLayout layout(t);
  EXPECT_FALSE(FailureProcess(t, layout, 1).next());
  Topology n = topo(4, 10, FailureModel::None);
  EXPECT_FALSE(FailureProcess(n, layout, 1).next());
}

TEST(FailureProcess, TraceIsReplayedAndNamesAreResolved) {
  Topology t = topo(4, 10, FailureModel::Trace);
  t.failures.trace = {{5, "c0-2", "f: line 1"}, {9, "3", "f: line 2"}};
  FederationLayout layout(t);
  FailureProcess p(t, layout, 1);
  auto a = p.next();
  EXPECT_EQ(a->date, 5);
  EXPECT_EQ(a->victim, 2);
  auto b = p.next();
  EXPECT_EQ(b->victim, 3);
  EXPECT_FALSE(p.next());
}

TEST(FailureProcess, UnknownNodeInTraceIsAnInputError) {
  Topology t = topo(4, 10, FailureModel::Trace);
  t.failures.trace = {{5, "c9-0", "trace.txt: line 3"}};
  FederationLayout layout(t);
  try {
    FailureProcess p(t, layout, 1);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "trace.txt");
    EXPECT_EQ(e.path(), "line 3");
    EXPECT_NE(e.problem().find("no node \"c9-0\""), std::string::npos);
  }
}
