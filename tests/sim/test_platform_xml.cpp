/* Platform XML files as SimGrid users write them (the shapes of platforms/, docs/INPUTS.md "Platform
 * XML"): the clusters found (names, nodes in platform order, speeds), the controller and checkpoint
 * servers ckptsim adds, the routes it adds (its own links only) and those it leaves alone (the file's,
 * exactly), and the bad platforms it refuses with the file and the reason. Each platform is loaded in
 * a forked child: SimGrid's engine is process-global. */
#include "sim/config/input_error.hpp"
#include "sim/platform/platform.hpp"
#include "sim/scenario/readers.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

const std::string kPlatforms = std::string(CKPTSIM_SOURCE_DIR) + "/platforms/";

using RouteQuery = std::pair<std::string, std::string>;

// Loads the platform of @p topology as a run does; returns its clusters, controller, servers and the
// routes asked for ({"links": names, "latency": s}), or the InputError's text under "error".
json load_platform_xml(const json& topology, const std::vector<RouteQuery>& routes = {}) {
  const ChildText child = run_forked([&] {
    Topology topo = parse_topology(topology, "topo.json", "");
    std::string arg0 = "test";
    std::string quiet = "--log=root.thres:critical";
    std::vector<char*> argv{arg0.data(), quiet.data(), nullptr};
    int argc = 2;
    sg4::Engine engine(&argc, argv.data());
    configure_network_model(engine, "CM02");
    const Platform p = create_platform(engine, topo);
    json out;
    for (ClusterId c = 0; c < p.layout.num_clusters(); c++) {
      const ClusterLayout& cl = p.layout.cluster(c);
      json cluster{{"name", cl.name}, {"hosts", json::array()}, {"speeds", json::array()}};
      for (NodeId n = cl.first; n < cl.first + cl.size; n++) {
        cluster["hosts"].push_back(p.layout.host_name(n));
        cluster["speeds"].push_back(p.layout.speed(n));
      }
      out["clusters"].push_back(cluster);
    }
    out["controller"] = p.controller->get_name();
    out["controller_zone"] = p.controller->get_englobing_zone()->get_name();
    out["servers"] = json::array();
    for (const auto* s : p.servers) out["servers"].push_back(s->get_name() + "@" + s->get_englobing_zone()->get_name());
    for (const auto& [from, to] : routes) {
      std::vector<sg4::Link*> links;
      double latency = 0;
      sg4::Host::by_name(from)->route_to(sg4::Host::by_name(to), links, &latency);
      json names = json::array();
      for (const auto* l : links) names.push_back(l->get_name());
      out["routes"][from + ">" + to] = {{"links", names}, {"latency", latency}};
    }
    return out.dump();
  });
  if (child.exit_status == 2) return {{"error", child.text}};
  EXPECT_EQ(child.exit_status, 0) << child.text;
  return child.exit_status == 0 ? json::parse(child.text) : json::object();
}

json platform(const std::string& file, json extra = json::object()) {
  extra["platform"] = kPlatforms + file;
  return extra;
}

std::vector<std::string> names(const std::string& prefix, int first, int last) {
  std::vector<std::string> out;
  for (int i = first; i <= last; i++) out.push_back(prefix + std::to_string(i));
  return out;
}

std::vector<std::string> cluster_names(const json& loaded) {
  std::vector<std::string> out;
  for (const auto& c : loaded["clusters"]) out.push_back(c["name"]);
  return out;
}

std::vector<std::string> hosts_of(const json& loaded, std::size_t cluster) {
  return loaded["clusters"][cluster]["hosts"].get<std::vector<std::string>>();
}

json route(const json& loaded, const std::string& from, const std::string& to) {
  return loaded["routes"][from + ">" + to];
}

std::vector<std::string> links(const json& loaded, const std::string& from, const std::string& to) {
  return route(loaded, from, to)["links"].get<std::vector<std::string>>();
}

} // namespace

TEST(PlatformXml, FederationsClustersAreItsClusterTags) {
  const json p = load_platform_xml(platform("federation.xml"), {{"rennes-a-0", "lyon-a-5"},
                                                                {"controller", "nancy-b-3"},
                                                                {"lyon-a-2", "controller"},
                                                                {"server-0", "lyon-a-2"},
                                                                {"controller", "controller"}});
  ASSERT_FALSE(p.contains("error")) << p;
  EXPECT_EQ(cluster_names(p),
            (std::vector<std::string>{"rennes-a", "rennes-b", "nancy-a", "nancy-b", "nancy-c", "lyon-a"}));
  EXPECT_EQ(hosts_of(p, 0), names("rennes-a-", 0, 7));
  EXPECT_EQ(hosts_of(p, 4), names("nancy-c-", 0, 7));
  std::vector<double> first_speeds;
  for (const auto& c : p["clusters"]) first_speeds.push_back(c["speeds"][0]);
  EXPECT_EQ(first_speeds, (std::vector<double>{10e9, 12e9, 8e9, 8e9, 16e9, 10e9}));
  // The file has neither: ckptsim adds a controller and one server, each in a zone of its own.
  EXPECT_EQ(p["controller"], "controller");
  EXPECT_EQ(p["controller_zone"], "ckptsim-controller");
  EXPECT_EQ(p["servers"], json({"server-0@storage"}));
  // The file's route, untouched: star link (split-duplex: SimGrid's default) and backbone, site uplink, WAN, site
  // uplink, star link.
  EXPECT_EQ(links(p, "rennes-a-0", "lyon-a-5"),
            (std::vector<std::string>{"rennes-a_link_0_UP", "rennes-a_backbone", "rennes-a-uplink",
                                      "backbone-rennes-lyon", "lyon-a-uplink", "lyon-a_link_5_DOWN"}));
  EXPECT_DOUBLE_EQ(route(p, "rennes-a-0", "lyon-a-5")["latency"].get<double>(),
                   5e-6 + 1e-6 + 20e-6 + 3e-3 + 20e-6 + 5e-6);
  // ckptsim's: the controller's link to the cluster (the 4th: nancy-b), then the free link of the gateway.
  EXPECT_EQ(links(p, "controller", "nancy-b-3"), (std::vector<std::string>{"ckptsim-controller-3_UP", "ckptsim-free"}));
  EXPECT_DOUBLE_EQ(route(p, "controller", "nancy-b-3")["latency"].get<double>(), 1e-6);
  EXPECT_EQ(links(p, "lyon-a-2", "controller"),
            (std::vector<std::string>{"ckptsim-free", "ckptsim-controller-5_DOWN"}));
  EXPECT_EQ(links(p, "server-0", "lyon-a-2"),
            (std::vector<std::string>{"server-0_link_UP", "ckptsim-storage-backbone", "ckptsim-free"}));
  EXPECT_DOUBLE_EQ(route(p, "server-0", "lyon-a-2")["latency"].get<double>(), 10e-6);
  EXPECT_EQ(links(p, "controller", "controller"), (std::vector<std::string>{"ckptsim-free"}));
}

TEST(PlatformXml, SitesLevelMakesEachSiteACluster) {
  const json p =
      load_platform_xml(platform("federation.xml", {{"clusters_at", "sites"}}), {{"controller", "nancy-c-7"}});
  ASSERT_FALSE(p.contains("error")) << p;
  EXPECT_EQ(cluster_names(p), (std::vector<std::string>{"rennes", "nancy", "lyon"}));
  std::vector<std::string> rennes = names("rennes-a-", 0, 7);
  for (const auto& h : names("rennes-b-", 0, 7)) rennes.push_back(h);
  EXPECT_EQ(hosts_of(p, 0), rennes);
  EXPECT_EQ(hosts_of(p, 1).size(), 24u);
  EXPECT_EQ(hosts_of(p, 2), names("lyon-a-", 0, 7));
  // One controller link per cluster: nancy is the second.
  EXPECT_EQ(links(p, "controller", "nancy-c-7"), (std::vector<std::string>{"ckptsim-controller-1_UP", "ckptsim-free"}));
}

TEST(PlatformXml, FatTreeTorusAndDragonflyClusters) {
  const json p = load_platform_xml(platform("topologies.xml"), {{"ft-3", "torus-5"}, {"controller", "df-6"}});
  ASSERT_FALSE(p.contains("error")) << p;
  EXPECT_EQ(cluster_names(p), (std::vector<std::string>{"fattree", "torus", "dragonfly"}));
  EXPECT_EQ(hosts_of(p, 0), names("ft-", 0, 7));
  EXPECT_EQ(hosts_of(p, 1), names("torus-", 0, 7));
  EXPECT_EQ(hosts_of(p, 2), names("df-", 0, 7));
  const auto ft_torus = links(p, "ft-3", "torus-5");
  EXPECT_NE(std::find(ft_torus.begin(), ft_torus.end(), "fattree-torus"), ft_torus.end()) << json(ft_torus);
  EXPECT_EQ(links(p, "controller", "df-6"), (std::vector<std::string>{"ckptsim-controller-2_UP", "ckptsim-free"}));
}

TEST(PlatformXml, ARootClusterIsTheWholePlatformInFileOrder) {
  const json p = load_platform_xml(platform("fat-tree.xml"),
                                   {{"controller", "node-9"}, {"node-9", "controller"}, {"server-0", "node-2"}});
  ASSERT_FALSE(p.contains("error")) << p;
  EXPECT_EQ(cluster_names(p), (std::vector<std::string>{"fat-tree"}));
  EXPECT_EQ(hosts_of(p, 0), names("node-", 0, 15)); // node-2 before node-10, as the radical lists them
  // A zone added under the root would change its routing: the controller and the server join the root.
  EXPECT_EQ(p["controller_zone"], "fat-tree");
  EXPECT_EQ(p["servers"], json({"server-0@fat-tree"}));
  EXPECT_EQ(links(p, "controller", "node-9"), (std::vector<std::string>{"ckptsim-controller-0_UP"}));
  EXPECT_EQ(links(p, "node-9", "controller"), (std::vector<std::string>{"ckptsim-controller-0_DOWN"}));
  EXPECT_EQ(links(p, "server-0", "node-2"), (std::vector<std::string>{"server-0_link_UP"}));
}

TEST(PlatformXml, ZonesWithExplicitRoutesKeepTheirHostsSpeeds) {
  const json p = load_platform_xml(platform("routed-zones.xml"), {{"lab-1", "lab-3"}, {"office-1", "lab-2"}});
  ASSERT_FALSE(p.contains("error")) << p;
  EXPECT_EQ(cluster_names(p), (std::vector<std::string>{"lab", "office"}));
  EXPECT_EQ(hosts_of(p, 0), names("lab-", 1, 4));
  EXPECT_EQ(hosts_of(p, 1), names("office-", 1, 3));
  EXPECT_EQ(p["clusters"][0]["speeds"], json({1e9, 1e9, 2e9, 2e9}));
  EXPECT_EQ(links(p, "lab-1", "lab-3"), (std::vector<std::string>{"lab-1-nic", "lab-3-nic"}));
  EXPECT_EQ(links(p, "office-1", "lab-2"), (std::vector<std::string>{"office-1-nic", "campus-uplink", "lab-2-nic"}));
}

TEST(PlatformXml, AFlatZoneWithRoutersIsOneCluster) {
  const json p = load_platform_xml(platform("flat-routers.xml"), {{"pc-1", "pc-8"}, {"pc-2", "controller"}});
  ASSERT_FALSE(p.contains("error")) << p;
  EXPECT_EQ(cluster_names(p), (std::vector<std::string>{"office-floor"}));
  EXPECT_EQ(hosts_of(p, 0), names("pc-", 1, 8));
  // Dijkstra's paths are the file's: the controller, linked to every host, is no shortcut.
  EXPECT_EQ(links(p, "pc-1", "pc-8"), (std::vector<std::string>{"pc-1-cable", "left-right", "pc-8-cable"}));
  EXPECT_EQ(links(p, "pc-2", "controller"), (std::vector<std::string>{"ckptsim-controller-0_DOWN"}));
}

TEST(PlatformXml, AnExistingHostCanBeTheControllerAndIsThenNoNode) {
  const json p =
      load_platform_xml(platform("flat-routers.xml", {{"controller", {{"host", "pc-1"}}}}), {{"pc-1", "pc-5"}});
  ASSERT_FALSE(p.contains("error")) << p;
  EXPECT_EQ(hosts_of(p, 0), names("pc-", 2, 8));
  EXPECT_EQ(p["controller"], "pc-1");
  EXPECT_EQ(links(p, "pc-1", "pc-5"), (std::vector<std::string>{"pc-1-cable", "left-right", "pc-5-cable"}));
}

TEST(PlatformXml, CkptsimsOwnXmlLoadsWithItsControllerAndServers) {
  const Topology topo = parse_topology(json::parse(R"({"clusters": [
      {"name": "c0", "nodes": 12, "san": {"latency": "10us", "bandwidth": "80MBps"}},
      {"name": "c1", "nodes": 2, "san": {"latency": "10us", "bandwidth": "80MBps"}, "speed": "2Gf"}],
    "wan": [[{"latency": "150us", "bandwidth": "100MBps"}]], "storage": {"servers": 2}})"),
                                       "t.json", "");
  const std::string xml = temp_path("own.xml");
  std::ofstream(xml) << platform_xml(topo);
  const json p = load_platform_xml({{"platform", xml}});
  ASSERT_FALSE(p.contains("error")) << p;
  EXPECT_EQ(cluster_names(p), (std::vector<std::string>{"c0", "c1"}));
  EXPECT_EQ(hosts_of(p, 0), names("c0-", 0, 11));
  EXPECT_EQ(p["clusters"][1]["speeds"], json({2e9, 2e9}));
  EXPECT_EQ(p["controller_zone"], "controller_zone");
  EXPECT_EQ(p["servers"], json({"server-0@storage", "server-1@storage"}));
}

TEST(PlatformXml, BadPlatformsNameTheFileAndTheReason) {
  const std::string empty = temp_path("nohost.xml");
  std::ofstream(empty)
      << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
         "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><router id=\"r\"/></zone></platform>\n";
  EXPECT_EQ(load_platform_xml({{"platform", empty}})["error"],
            empty + ": /: no host to run the application on: the platform holds no host at all");
  EXPECT_EQ(load_platform_xml(platform("flat-routers.xml", {{"controller", {{"host", "pc-9"}}}}))["error"],
            kPlatforms + "flat-routers.xml: /: no host named \"pc-9\" in this platform, which the controller must be "
                         "(--controller or the topology's \"controller\": {\"host\": ...})");
  EXPECT_EQ(load_platform_xml(platform("flat-routers.xml", {{"clusters_at", "sites"}}))["error"],
            kPlatforms +
                "flat-routers.xml: /: no site level (\"clusters_at\": \"sites\"): no child zone of the root zone "
                "\"office-floor\" holds hosts; use \"clusters\"");
  EXPECT_EQ(load_platform_xml(platform("federation.xml",
                                       {{"clusters_at", "sites"}, {"clusters", {{{"name", "rennes-a"}}}}}))["error"],
            "topo.json: /clusters: cluster \"rennes-a\" is not a cluster of the platform " + kPlatforms +
                "federation.xml (its clusters: rennes, nancy, lyon)");
}
