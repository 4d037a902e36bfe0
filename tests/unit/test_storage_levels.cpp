/* The "levels" storage model's pieces (issue 33, item 1): the level a checkpoint number is written
 * at, the saves a line-restoring protocol keeps, the input errors, the placement of partners and
 * encoding groups over failure domains, and the survival of an erasure-coded save in the store. */
#include "sim/config/input_error.hpp"
#include "sim/scenario/readers.hpp"
#include "sim/storage/checkpoint_store.hpp"
#include "sim/storage/levels/placement.hpp"
#include "sim/storage/levels/plan.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;
using namespace ckptsim::levels;

namespace {

Plan levels_plan(const char* text) { return parse_levels(json::parse(text), Where("topo.json", "/storage/levels")); }

// One cluster c0 of @p nodes nodes with the "storage" object @p storage (and @p extra fields).
Topology levels_topology(int nodes, const json& storage, const json& extra = json::object()) {
  json t{{"clusters", {{{"name", "c0"}, {"nodes", nodes}, {"san", {{"latency", 0}, {"bandwidth", 1e9}}}}}}};
  t["storage"] = storage;
  for (auto& [k, v] : extra.items()) t[k] = v;
  return parse_topology(t, "topo.json", "");
}

Placement levels_placement(const Topology& t, const FederationLayout& layout) {
  return Placement(*std::any_cast<std::shared_ptr<const Plan>>(t.storage.settings.at("levels")), t, layout, {true});
}

std::string levels_problem(int nodes, const json& storage, const json& extra = json::object()) {
  try {
    levels_topology(nodes, storage, extra);
  } catch (const InputError& e) {
    return e.path() + ": " + e.problem();
  }
  return "";
}

} // namespace

TEST(LevelsPlan, ACheckpointGoesToTheDeepestLevelWhoseEveryDividesItsNumber) {
  const Plan p = levels_plan(R"([{"kind": "local"}, {"kind": "partner", "every": 2}, {"kind": "xor", "every": 3},
                                 {"kind": "pfs", "every": 6}])");
  EXPECT_EQ(level_of(p, 0), 0); // the initial state
  EXPECT_EQ(level_of(p, 1), 1);
  EXPECT_EQ(level_of(p, 2), 2);
  EXPECT_EQ(level_of(p, 3), 3);
  EXPECT_EQ(level_of(p, 4), 2);
  EXPECT_EQ(level_of(p, 5), 1);
  EXPECT_EQ(level_of(p, 6), 4);
  EXPECT_EQ(level_of(p, 12), 4);
  // The pfs level is written with the level before it, then flushed.
  EXPECT_EQ(scheme_level(p, 4), 3);
  EXPECT_EQ(scheme_level(p, 2), 2);
  EXPECT_EQ(scheme_level(levels_plan(R"([{"kind": "local"}, {"kind": "pfs", "every": 2}])"), 2), 0);
}

TEST(LevelsPlan, ALineRestoringProtocolKeepsTheNewestSaveOfEachLevel) {
  const Plan sync = levels_plan(R"([{"kind": "partner"}, {"kind": "pfs", "every": 4}])");
  EXPECT_EQ(kept_saves(sync, 7), (std::vector<std::uint64_t>{7, 4}));
  EXPECT_EQ(kept_saves(sync, 8), (std::vector<std::uint64_t>{8}));
  EXPECT_EQ(kept_saves(sync, 3), (std::vector<std::uint64_t>{3, 0}));
  EXPECT_EQ(kept_saves(sync, 0), (std::vector<std::uint64_t>{0}));
  // An asynchronous flush: the newest pfs save may still be on its way, the one before is kept.
  const Plan async = levels_plan(R"([{"kind": "partner"}, {"kind": "pfs", "every": 4, "flush": "async"}])");
  EXPECT_EQ(kept_saves(async, 9), (std::vector<std::uint64_t>{9, 8, 4}));
  EXPECT_EQ(kept_saves(async, 8), (std::vector<std::uint64_t>{8, 4}));
  EXPECT_EQ(kept_saves(async, 5), (std::vector<std::uint64_t>{5, 4, 0}));
  const Plan three =
      levels_plan(R"([{"kind": "local"}, {"kind": "partner", "every": 2}, {"kind": "pfs", "every": 5}])");
  EXPECT_EQ(kept_saves(three, 13), (std::vector<std::uint64_t>{13, 12, 10}));
  EXPECT_EQ(kept_saves(three, 11), (std::vector<std::uint64_t>{11, 10}));
}

TEST(LevelsPlan, BadPlansAreInputErrorsNamingTheField) {
  const json partner{{"kind", "partner"}};
  auto storage = [](json levels) { return json{{"model", "levels"}, {"levels", std::move(levels)}}; };
  EXPECT_EQ(levels_problem(4, storage(json::parse(R"([{"kind": "partner"}, {"kind": "pfs", "every": 2}])"))), "");
  EXPECT_EQ(levels_problem(4, storage(json::parse(R"([{"kind": "partner", "every": 2}])"))),
            "/storage/levels/0/every: the first level takes every checkpoint the deeper levels do not: its every "
            "must be 1");
  EXPECT_EQ(levels_problem(4, storage(json::parse(R"([{"kind": "partner"}, {"kind": "local"}])"))),
            "/storage/levels/1/kind: the local level must be the first: every checkpoint is written to the node's "
            "device first");
  EXPECT_EQ(levels_problem(4, storage(json::parse(R"([{"kind": "pfs"}, {"kind": "partner"}])"))),
            "/storage/levels/0/kind: the pfs level must be the last (the deepest)");
  EXPECT_EQ(levels_problem(4, storage(json::parse(R"([{"kind": "rs", "group": 4, "parity": 4}])"))),
            "/storage/levels/0/parity: a group of 4 nodes cannot hold 4 parity: choose group > parity");
  EXPECT_EQ(levels_problem(4, storage(json::parse(R"([{"kind": "disk"}])"))),
            "/storage/levels/0/kind: \"disk\" is not one of: local, partner, xor, rs, pfs");
  EXPECT_EQ(levels_problem(4, storage(json::parse(R"([{"kind": "partner", "group": 4}])"))),
            "/storage/levels/0/group: unknown field \"group\" (known fields here: distance, domain, every, kind)");
  EXPECT_EQ(levels_problem(4, storage(json::array())),
            "/storage/levels: expected a non-empty array of levels, e.g. [{\"kind\": \"partner\"}]");
  EXPECT_EQ(levels_problem(4, json{{"model", "levels"}}),
            "/storage/levels: missing required field \"levels\" for the \"levels\" storage model, e.g. [{\"kind\": "
            "\"partner\"}, {\"kind\": \"pfs\", \"every\": 10}]");
  EXPECT_EQ(levels_problem(4, json{{"model", "buddy"}, {"levels", json::array({partner})}}),
            "/storage/levels: only meaningful with the \"levels\" storage model");
  json pfs = storage(json::parse(R"([{"kind": "partner"}, {"kind": "pfs", "every": 2, "bandwidth": "1GBps"}])"));
  pfs["server_link"] = {{"latency", 0}, {"bandwidth", 1e9}};
  EXPECT_EQ(levels_problem(4, pfs),
            "/storage/levels/1: the pfs level's bandwidth and latency define the checkpoint servers' zone; remove "
            "\"server_link\" or give the link there");
}

TEST(LevelsPlan, APfsLevelsLinkIsTheCheckpointServersOne) {
  const Topology t = levels_topology(
      4, json::parse(R"({"model": "levels", "levels": [{"kind": "pfs", "bandwidth": "2GBps", "latency": "1ms"}]})"));
  EXPECT_EQ(t.storage.servers, 1);
  EXPECT_DOUBLE_EQ(t.storage.server_link.bandwidth, 2e9);
  EXPECT_DOUBLE_EQ(t.storage.server_link.latency, 1e-3);
}

TEST(LevelsPlacement, PartnersAndGroupsAreSpreadOverTheDomains) {
  // 8 nodes in racks of 4: the order alternates the racks, 0 4 1 5 2 6 3 7.
  const json storage = json::parse(R"({"model": "levels", "levels": [{"kind": "partner"}, {"kind": "xor", "group": 4,
                                       "every": 2}]})");
  const Topology t = levels_topology(8, storage, {{"domains", {{"rack", 4}}}});
  const FederationLayout layout(t);
  const Placement p = levels_placement(t, layout);
  EXPECT_EQ(p.partner(0, 0), 4);
  EXPECT_EQ(p.partner(0, 4), 1);
  EXPECT_EQ(p.partner(0, 7), 0);
  EXPECT_EQ(p.group(1, 0), (std::vector<NodeId>{0, 4, 1, 5}));
  EXPECT_EQ(p.group(1, 6), (std::vector<NodeId>{2, 6, 3, 7}));
  EXPECT_NE(p.group_id(1, 0), p.group_id(1, 6));
  EXPECT_EQ(p.group_id(1, 0), p.group_id(1, 5));
}

TEST(LevelsPlacement, WithoutDomainsTheClustersOrderAndARemainderTooSmallJoinsTheLastGroup) {
  {
    const Topology t = levels_topology(8, json::parse(R"({"model": "levels", "levels": [{"kind": "partner",
                                                          "distance": 3}, {"kind": "xor", "group": 3}]})"));
    const FederationLayout layout(t);
    const Placement p = levels_placement(t, layout);
    EXPECT_EQ(p.partner(0, 0), 3);
    EXPECT_EQ(p.partner(0, 6), 1);
    EXPECT_EQ(p.group(1, 7), (std::vector<NodeId>{6, 7})); // 8 = 3 + 3 + 2: two survive one loss
  }
  {
    const Topology t =
        levels_topology(7, json::parse(R"({"model": "levels", "levels": [{"kind": "xor", "group": 3}]})"));
    const FederationLayout layout(t);
    const Placement p = levels_placement(t, layout);
    EXPECT_EQ(p.group(0, 6), (std::vector<NodeId>{3, 4, 5, 6})); // 7 = 3 + 4: a lone node joins
  }
}

TEST(LevelsPlacement, ClustersThatCannotHostALevelAreInputErrors) {
  auto placement_problem = [](int nodes, const char* levels, const json& extra = json::object()) {
    const Topology t = levels_topology(nodes, json{{"model", "levels"}, {"levels", json::parse(levels)}}, extra);
    const FederationLayout layout(t);
    try {
      levels_placement(t, layout);
    } catch (const InputError& e) {
      return e.path() + ": " + e.problem();
    }
    return std::string();
  };
  EXPECT_EQ(placement_problem(1, R"([{"kind": "partner"}])"),
            "/storage/levels/0: cluster c0 has one node: no partner for its checkpoints");
  EXPECT_EQ(placement_problem(2, R"([{"kind": "rs", "group": 4, "parity": 2}])"),
            "/storage/levels/0: cluster c0 has 2 node(s): a rs group needs more than 2 (its parity)");
  EXPECT_EQ(placement_problem(4, R"([{"kind": "partner"}])", {{"domains", {{"rack", 4}}}}),
            "/storage/levels/0: every node of cluster c0 is in one \"rack\" domain: no partner in another domain");
  EXPECT_EQ(placement_problem(4, R"([{"kind": "partner", "domain": "room"}])", {{"domains", {{"rack", 2}}}}),
            "/storage/levels/0/domain: no failure domains \"room\" are declared (the topology's \"domains\" has: "
            "rack)");
  EXPECT_EQ(placement_problem(4, R"([{"kind": "partner"}])", {{"domains", {{"rack", 2}, {"power", 2}}}}),
            "/storage/levels/0: the topology declares several failure-domain scopes (power, rack): name the one this "
            "level's copies are spread over with \"domain\"");
}

TEST(LevelsStore, AnEncodedSaveSurvivesAsManyLostMembersAsItsParity) {
  CheckpointStore store;
  const ErasureGroup xor4{7, 4, 1, 100.0 / 3};
  for (NodeId n = 0; n < 4; n++) store.add(n, 1, Snapshot{}, 100, 2, xor4);
  store.holder_failed(1); // before the encoding: its save is gone
  EXPECT_FALSE(store.restorable(1, 1));
  for (NodeId n = 0; n < 4; n++) store.add(n, 1, Snapshot{}, 100, 2, xor4);
  for (NodeId n = 0; n < 4; n++) store.encoded(n, 1);
  EXPECT_EQ(store.shares_alive(7, 1), 4);
  // Copies: 4 saves of 100 in their nodes' memories and 4 shares of 100/3 of parity.
  EXPECT_NEAR(store.held_copy_bytes(), 400 + 400.0 / 3, 1e-9);
  store.holder_failed(1);
  EXPECT_EQ(store.shares_alive(7, 1), 3);
  EXPECT_TRUE(store.restorable(1, 1)); // rebuilt from the three others
  store.reencoded(1, 1);               // the rebuild re-creates its share
  EXPECT_EQ(store.shares_alive(7, 1), 4);
  store.holder_failed(2);
  store.holder_failed(3); // two of four lost: xor cannot rebuild them
  EXPECT_FALSE(store.restorable(2, 1));
  EXPECT_FALSE(store.restorable(3, 1));
  EXPECT_TRUE(store.restorable(0, 1));  // its own copy
  EXPECT_FALSE(store.restorable(0, 2)); // never saved
  store.drop(0, 1);
  EXPECT_EQ(store.shares_alive(7, 1), 1);
  // Reed-Solomon with parity 2 survives the two.
  CheckpointStore rs;
  const ErasureGroup rs4{9, 4, 2, 100.0};
  for (NodeId n = 0; n < 4; n++) {
    rs.add(n, 1, Snapshot{}, 100, 2, rs4);
    rs.encoded(n, 1);
  }
  rs.holder_failed(2);
  rs.holder_failed(3);
  EXPECT_TRUE(rs.restorable(2, 1));
  EXPECT_TRUE(rs.restorable(3, 1));
  rs.holder_failed(0);
  EXPECT_FALSE(rs.restorable(2, 1));
  EXPECT_EQ(rs.level_bytes_max().size(), 3u);
  EXPECT_NEAR(rs.level_bytes_max()[2], 800, 1e-9); // 4 x (100 + 100)
}
