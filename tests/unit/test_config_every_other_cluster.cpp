/* The stochastic application's "*" entry (docs/INPUTS.md): one entry for every cluster the file
 * does not list, its "send" {"same": p, "other": q} made explicit per cluster: p toward its own
 * cluster, q spread over the other clusters in proportion to their nodes. Exactly the probabilities
 * of the equivalent explicit file, and each mistake reported at its place. */
#include "sim/app/stochastic/spec.hpp"
#include "sim/config/application.hpp"
#include "sim/config/topology.hpp"
#include "sim/scenario/readers.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

// c0 and c1 of 2 nodes, c2 of 4: the spreads below are exact binary fractions.
Topology clusters_2_2_4() {
  return parse_topology(json::parse(R"({"clusters": [
      {"name": "c0", "nodes": 2, "san": {"latency": 0, "bandwidth": 1e8}},
      {"name": "c1", "nodes": 2, "san": {"latency": 0, "bandwidth": 1e8}},
      {"name": "c2", "nodes": 4, "san": {"latency": 0, "bandwidth": 1e8}}],
    "wan": [[{"latency": 0, "bandwidth": 1e8}, {"latency": 0, "bandwidth": 1e8}], [{"latency": 0, "bandwidth": 1e8}]]})"),
                        "topo.json", "");
}

const StochasticSpec& stochastic(const Application& app) { return app.spec_as<StochasticSpec>(); }

Application parse(const char* text, const Topology& topo = clusters_2_2_4()) {
  return parse_application(json::parse(text), "app.json", topo);
}

testing::AssertionResult rejected(const char* text, const std::string& path, const std::string& problem) {
  try {
    parse(text);
  } catch (const InputError& e) {
    if (e.path() == path && e.problem().find(problem) != std::string::npos) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "got " << e.what();
  }
  return testing::AssertionFailure() << "accepted";
}

TEST(ConfigEveryOtherCluster, SpreadsOtherOverTheOtherClustersNodes) {
  const Application app = parse(R"({"kind": "stochastic", "total_time": "1h", "message_size": "2KiB", "clusters": [
      {"cluster": "c1", "compute": "10s", "send": {"c0": 0.25}},
      {"cluster": "*", "compute": "100s", "send": {"same": 0.5, "other": 0.375}}]})");
  const StochasticSpec& s = stochastic(app);
  ASSERT_EQ(s.clusters.size(), 3u);
  // c0: 0.375 over c1 (2 nodes) and c2 (4 nodes); c2: over c0 and c1 (2 nodes each).
  EXPECT_EQ(s.clusters[0].send_probability, (std::vector<double>{0.5, 0.125, 0.25}));
  EXPECT_EQ(s.clusters[2].send_probability, (std::vector<double>{0.1875, 0.1875, 0.5}));
  EXPECT_EQ(s.clusters[0].cluster, "c0");
  EXPECT_EQ(s.clusters[2].cluster, "c2");
  EXPECT_DOUBLE_EQ(s.clusters[2].compute.mean, 100);
  EXPECT_DOUBLE_EQ(s.clusters[2].message_size, 2048);
  // A listed cluster keeps its own entry.
  EXPECT_EQ(s.clusters[1].send_probability, (std::vector<double>{0.25, 0, 0}));
  EXPECT_DOUBLE_EQ(s.clusters[1].compute.mean, 10);
}

TEST(ConfigEveryOtherCluster, GivesExactlyTheEquivalentExplicitFile) {
  const StochasticSpec star = stochastic(parse(R"({"kind": "stochastic", "total_time": "1h", "clusters": [
      {"cluster": "*", "compute": {"distribution": "uniform", "min": "1s", "max": "3s"}, "message_size": 100,
       "send": {"same": 0.25, "other": 0.75}}]})"));
  const StochasticSpec explicit_file = stochastic(parse(R"({"kind": "stochastic", "total_time": "1h", "clusters": [
      {"cluster": "c0", "compute": {"distribution": "uniform", "min": "1s", "max": "3s"}, "message_size": 100,
       "send": {"c0": 0.25, "c1": 0.25, "c2": 0.5}},
      {"cluster": "c1", "compute": {"distribution": "uniform", "min": "1s", "max": "3s"}, "message_size": 100,
       "send": {"c0": 0.25, "c1": 0.25, "c2": 0.5}},
      {"cluster": "c2", "compute": {"distribution": "uniform", "min": "1s", "max": "3s"}, "message_size": 100,
       "send": {"c0": 0.375, "c1": 0.375, "c2": 0.25}}]})"));
  ASSERT_EQ(star.clusters.size(), explicit_file.clusters.size());
  for (std::size_t c = 0; c < star.clusters.size(); c++) {
    EXPECT_EQ(star.clusters[c].cluster, explicit_file.clusters[c].cluster);
    EXPECT_EQ(star.clusters[c].send_probability, explicit_file.clusters[c].send_probability) << c;
    EXPECT_EQ(star.clusters[c].message_size, explicit_file.clusters[c].message_size);
    EXPECT_EQ(star.clusters[c].compute.kind, explicit_file.clusters[c].compute.kind);
    EXPECT_EQ(star.clusters[c].compute.min, explicit_file.clusters[c].compute.min);
    EXPECT_EQ(star.clusters[c].compute.max, explicit_file.clusters[c].compute.max);
  }
}

TEST(ConfigEveryOtherCluster, OnOneClusterOtherHasNowhereToGo) {
  const Topology one = parse_topology(
      json::parse(R"({"clusters": [{"name": "solo", "nodes": 3, "san": {"latency": 0, "bandwidth": 1e8}}]})"), "t.json",
      "");
  const StochasticSpec s = stochastic(parse(R"({"kind": "stochastic", "total_time": "1h", "clusters": [
      {"cluster": "*", "compute": "1s", "send": {"same": 0.5, "other": 0.5}}]})",
                                            one));
  EXPECT_EQ(s.clusters.at(0).send_probability, (std::vector<double>{0.5}));
}

TEST(ConfigEveryOtherCluster, Mistakes) {
  EXPECT_TRUE(rejected(R"({"kind": "stochastic", "total_time": 1, "clusters": [
      {"cluster": "*", "compute": 1}, {"cluster": "*", "compute": 2}]})",
                       "/clusters/1/cluster", "\"*\" is given twice"));
  EXPECT_TRUE(rejected(R"({"kind": "stochastic", "total_time": 1, "clusters": [
      {"cluster": "*", "compute": 1, "send": {"same": 1.5}}]})",
                       "/clusters/0/send/same", "a probability must be within [0, 1], found 1.5"));
  EXPECT_TRUE(rejected(R"({"kind": "stochastic", "total_time": 1, "clusters": [
      {"cluster": "*", "compute": 1, "send": {"same": 0.75, "other": 0.5}}]})",
                       "/clusters/0/send", "\"same\" + \"other\" = 1.25 is above 1"));
  EXPECT_TRUE(rejected(R"({"kind": "stochastic", "total_time": 1, "clusters": [
      {"cluster": "*", "compute": 1, "send": {"c1": 0.5}}]})",
                       "/clusters/0/send/c1", "unknown field \"c1\" (known fields here: other, same)"));
  EXPECT_TRUE(rejected(R"({"kind": "stochastic", "total_time": 1, "clusters": [
      {"cluster": "c0", "compute": 1, "send": {"same": 0.5}}, {"cluster": "*", "compute": 1}]})",
                       "/clusters/0/send/same", "\"same\" and \"other\" belong to the \"*\" entry"));
}

} // namespace
} // namespace ckptsim
