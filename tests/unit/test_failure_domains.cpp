/* Correlated failures (sim/failures/domains, correlated): the failure domains a topology declares
 * (racks by size or by name, clusters, sites), the sources that strike a whole domain at once at
 * their rate, the cascade after a node's failure, the merge of the streams, and bad input. */
#include "sim/app/rng.hpp"
#include "sim/config/input_error.hpp"
#include "sim/failures/domains.hpp"
#include "sim/failures/source.hpp"
#include "sim/scenario/readers.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace ckptsim;

namespace {

using NodeGroups = std::vector<std::vector<NodeId>>;

// Clusters c0 (6 nodes) and c1 (4 nodes), with @p extra merged into the topology document.
json domains_doc(const json& extra) {
  const json san = {{"latency", 0}, {"bandwidth", 1e9}};
  json t = {{"clusters", {{{"name", "c0"}, {"nodes", 6}, {"san", san}}, {{"name", "c1"}, {"nodes", 4}, {"san", san}}}},
            {"wan", {{san}}}};
  t.update(extra);
  return t;
}

Topology domains_federation(const json& extra) { return parse_topology(domains_doc(extra), "topo.json", ""); }

std::string domain_problem(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(FailureDomains, RacksBySizeOrByNameClustersAndSites) {
  json doc = domains_doc({{"domains", {{"rack", 4}}}, {"sites", {{"grenoble", {"c0", "c1"}}}}});
  doc["clusters"][1]["domains"] = {{"rack", json::array({json::array({"c1-0", "c1-3"}), json::array({"c1-2", "c1-1"})})}};
  const Topology t = parse_topology(doc, "topo.json", "");
  const FederationLayout layout(t);
  EXPECT_EQ(failure_domains(t, layout, "rack"), (NodeGroups{{0, 1, 2, 3}, {4, 5}, {6, 9}, {7, 8}}));
  EXPECT_EQ(failure_domains(t, layout, "cluster"), (NodeGroups{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9}}));
  EXPECT_EQ(failure_domains(t, layout, "site"), (NodeGroups{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}));
}

TEST(FailureDomains, BadDomainsAndScopesNameTheField) {
  EXPECT_NE(domain_problem([] {
              domains_federation({{"domains", {{"cluster", 2}}}});
            }).find("topo.json: /domains/cluster: \"cluster\" is a scope of its own"),
            std::string::npos);
  EXPECT_NE(domain_problem([] {
              domains_federation({{"domains", {{"rack", 0}}}});
            }).find("/domains/rack"),
            std::string::npos);
  EXPECT_NE(domain_problem([] {
              domains_federation({{"sites", {{"a", {"c0"}}, {"b", {"c0"}}}}});
            }).find("/sites/b/0: cluster \"c0\" is in two sites"),
            std::string::npos);
  EXPECT_NE(domain_problem([] {
              domains_federation({{"sites", {{"a", {"c7"}}}}});
            }).find("/sites/a/0: no cluster named \"c7\""),
            std::string::npos);
  EXPECT_NE(domain_problem([] {
              domains_federation({{"failures", {{"correlated", {{{"scope", "psu"}, {"mtbf", "1d"}}}}}}});
            }).find("/failures/correlated/0/scope: no failure domain \"psu\""),
            std::string::npos);
  EXPECT_NE(domain_problem([] {
              domains_federation({{"failures", {{"correlated", {{{"scope", "site"}, {"mtbf", "1d"}}}}}}});
            }).find("/failures/correlated/0/scope: no \"sites\" in the topology"),
            std::string::npos);
  EXPECT_NE(domain_problem([] {
              domains_federation({{"failures", {{"cascade", {{"probability", 0.5}, {"window", 10}}}}}});
            }).find("/failures/cascade/scope: no failure domain \"rack\""),
            std::string::npos);
  EXPECT_NE(domain_problem([] {
              domains_federation(
                  {{"domains", {{"rack", 2}}}, {"failures", {{"cascade", {{"probability", 1.5}, {"window", 10}}}}}});
            }).find("/failures/cascade/probability"),
            std::string::npos);
  // A node named in another cluster's rack, or in two racks: found when the platform exists.
  json doc = domains_doc(json::object());
  doc["clusters"][0]["domains"] = {{"rack", json::array({json::array({"c0-0", "c1-0"})})}};
  const Topology t = parse_topology(doc, "topo.json", "");
  const FederationLayout layout(t);
  EXPECT_NE(domain_problem([&] {
              failure_domains(t, layout, "rack");
            }).find("topo.json: /clusters/0/domains/rack/0/1: node \"c1-0\" is not in cluster c0"),
            std::string::npos);
  json twice = domains_doc({{"domains", {{"rack", json::array({json::array({"c0-0", "c0-1"}), json::array({"c0-1"})})}}}});
  const Topology t2 = parse_topology(twice, "topo.json", "");
  const FederationLayout layout2(t2);
  EXPECT_NE(domain_problem([&] { failure_domains(t2, layout2, "rack"); }).find("node c0-1 is in two \"rack\" domains"),
            std::string::npos);
}

TEST(CorrelatedFailures, EachScopeStrikesWholeDomainsAtItsRate) {
  // Node failures every 500 s on average, racks (of 2) every 2000 s, clusters every 5000 s: over
  // 200 seeds of 100,000 s each, the events of each scope agree with their rate within 3 standard
  // errors (Poisson: variance = mean); every event strikes exactly one whole domain.
  const Topology t = domains_federation(
      {{"mtbf", 500},
       {"domains", {{"rack", 2}}},
       {"failures",
        {{"correlated",
          {{{"scope", "rack"}, {"mtbf", 2000}, {"downtime", {{"distribution", "exponential"}, {"mean", 60}}}},
           {{"scope", "cluster"}, {"mtbf", 5000}}}}}}});
  const FederationLayout layout(t);
  const NodeGroups racks = failure_domains(t, layout, "rack");
  const NodeGroups clusters = failure_domains(t, layout, "cluster");
  constexpr double kHorizon = 1e5;
  constexpr int kSeeds = 200;
  std::map<std::string, double> sum, sum2;
  double rack_repairs = 0;
  int rack_events = 0;
  for (int seed = 1; seed <= kSeeds; seed++) {
    auto source = make_failure_source({t, layout, static_cast<std::uint64_t>(seed)});
    std::map<std::string, int> count;
    double last = 0;
    while (auto a = source->next()) {
      ASSERT_GE(a->date, last); // one stream in date order
      last = a->date;
      if (a->date > kHorizon) break;
      const std::string scope = a->scope.empty() ? "node" : a->scope;
      count[scope]++;
      if (scope == "node") {
        EXPECT_EQ(a->victims.size(), 1u);
        EXPECT_FALSE(a->repair);
      } else {
        const NodeGroups& d = scope == "rack" ? racks : clusters;
        EXPECT_NE(std::find(d.begin(), d.end(), a->victims), d.end()) << scope;
        EXPECT_EQ(a->repair.has_value(), scope == "rack"); // the cluster source has no downtime of its own
        if (a->repair) {
          rack_repairs += *a->repair;
          rack_events++;
        }
      }
    }
    for (const char* s : {"node", "rack", "cluster"}) {
      sum[s] += count[s];
      sum2[s] += count[s] * count[s];
    }
  }
  for (const auto& [scope, mtbf] : std::map<std::string, double>{{"node", 500}, {"rack", 2000}, {"cluster", 5000}}) {
    const double expected = kHorizon / mtbf;
    const double mean = sum[scope] / kSeeds;
    const double se = std::sqrt(expected / kSeeds);
    EXPECT_NEAR(mean, expected, 3 * se) << scope;
    EXPECT_NEAR(sum2[scope] / kSeeds - mean * mean, expected, 0.25 * expected) << scope; // Poisson's variance
  }
  EXPECT_NEAR(rack_repairs / rack_events, 60, 3 * 60 / std::sqrt(rack_events));
}

TEST(CorrelatedFailures, TheNodeSourceIsUnchangedByCorrelatedSources) {
  const Topology plain = domains_federation({{"mtbf", 500}, {"domains", {{"rack", 2}}}});
  const Topology both = domains_federation({{"mtbf", 500},
                                            {"domains", {{"rack", 2}}},
                                            {"failures", {{"correlated", {{{"scope", "rack"}, {"mtbf", 700}}}}}}});
  const FederationLayout layout(plain);
  auto a = make_failure_source({plain, layout, 9});
  auto b = make_failure_source({both, layout, 9});
  int correlated = 0;
  for (int i = 0; i < 100;) {
    const auto e = b->next();
    if (!e->scope.empty()) {
      correlated++;
      continue;
    }
    const auto d = a->next();
    EXPECT_EQ(e->date, d->date);
    EXPECT_EQ(e->victims, d->victims);
    i++;
  }
  EXPECT_GT(correlated, 30); // about 100 x 500 / 700
}

TEST(CorrelatedFailures, ACascadeStrikesTheVictimsRackmatesWithinTheWindow) {
  // Racks of 3 in c0 (0-2, 3-5) and c1 (6-8, 9): each node failure is followed by failures of its
  // rack-mates, each with probability 0.5, within 20 s.
  const Topology t = domains_federation({{"mtbf", 1000},
                                         {"domains", {{"rack", 3}}},
                                         {"failures", {{"cascade", {{"probability", 0.5}, {"window", 20}}}}}});
  const FederationLayout layout(t);
  const NodeGroups racks = failure_domains(t, layout, "rack");
  auto rack_of = [&](NodeId n) {
    for (std::size_t r = 0; r < racks.size(); r++)
      if (std::find(racks[r].begin(), racks[r].end(), n) != racks[r].end()) return r;
    return racks.size();
  };
  auto source = make_failure_source({t, layout, 4});
  std::vector<FailureArrival> nodes;
  int followers = 0, possible = 0;
  double last = 0;
  for (int i = 0; i < 20000; i++) {
    auto a = source->next();
    ASSERT_GE(a->date, last);
    last = a->date;
    if (a->scope.empty()) {
      nodes.push_back(*a);
      possible += static_cast<int>(racks[rack_of(a->victims[0])].size()) - 1;
      continue;
    }
    ASSERT_EQ(a->scope, "cascade");
    followers++;
    // Its origin: a node failure of the same rack at most 20 s before.
    bool found = false;
    for (auto it = nodes.rbegin(); it != nodes.rend() && it->date >= a->date - 20 - 1e-9; ++it)
      found = found || (rack_of(it->victims[0]) == rack_of(a->victims[0]) && it->victims[0] != a->victims[0]);
    EXPECT_TRUE(found) << "cascade failure of node " << a->victims[0] << " at " << a->date;
  }
  const double p = static_cast<double>(followers) / possible;
  EXPECT_NEAR(p, 0.5, 3 * std::sqrt(0.25 / possible));
}
