#include "sim/platform/platform.hpp"

#include "sim/config/input_error.hpp"
#include "sim/platform/xml_services.hpp"
#include "sim/version.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

namespace ckptsim {

namespace {

constexpr const char* kControllerHost = "controller";

std::string found_cluster_names(const XmlFederation& fed) {
  std::string out;
  for (const auto& c : fed.clusters) out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

// A zero-latency, unbounded loopback per host: signals between two actors of one host (failure
// notices, the engine's local events) take no simulated time. Star zones do not use SimGrid's
// implicit loopback, so it is declared explicitly.
void add_loopback(sg4::NetZone* zone, sg4::Host* host) {
  auto* lo = zone->create_link(host->get_name() + "_lo", 1e300);
  lo->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)->set_latency(0)->seal();
  zone->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(lo)}, false);
}

// One star zone: hosts with a split-duplex link of half the zone's latency each way.
sg4::NetZone* create_star(sg4::NetZone* root, const std::string& name, const std::vector<std::string>& hosts,
                          double speed, const LinkSpec& link, std::vector<sg4::Host*>& out,
                          simgrid::kernel::routing::NetPoint*& gateway) {
  auto* zone = sg4::create_star_zone(name);
  zone->set_parent(root);
  for (const auto& host_name : hosts) {
    auto* host = zone->create_host(host_name, speed);
    host->seal();
    auto* l = zone->create_split_duplex_link(host_name + "_link", link.bandwidth);
    l->set_latency(link.latency / 2)->seal();
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(l, sg4::LinkInRoute::Direction::UP)}, true);
    add_loopback(zone, host);
    out.push_back(host);
  }
  gateway = zone->create_router(name + "_router");
  zone->seal();
  return zone;
}

Platform build_from_topology(const Topology& topo) {
  Platform p;
  p.layout = FederationLayout(topo);
  auto* root = sg4::create_full_zone("federation");
  std::vector<sg4::NetZone*> zones;
  std::vector<simgrid::kernel::routing::NetPoint*> gateways;
  for (ClusterId c = 0; c < p.layout.num_clusters(); c++) {
    const auto& spec = topo.clusters[c];
    std::vector<std::string> names;
    for (int i = 0; i < spec.nodes; i++) names.push_back(p.layout.host_name(p.layout.cluster(c).first + i));
    simgrid::kernel::routing::NetPoint* gw = nullptr;
    zones.push_back(create_star(root, spec.name, names, spec.speed, spec.san, p.hosts, gw));
    gateways.push_back(gw);
  }
  std::vector<sg4::Host*> ctl;
  simgrid::kernel::routing::NetPoint* ctl_gw = nullptr;
  auto* ctl_zone = create_star(root, "controller_zone", {kControllerHost}, 1e9, topo.controller, ctl, ctl_gw);
  p.controller = ctl.front();
  std::vector<std::string> server_names;
  for (int k = 0; k < topo.storage.servers; k++) server_names.push_back(fmt::format("server-{}", k));
  simgrid::kernel::routing::NetPoint* storage_gw = nullptr;
  auto* storage_zone = create_star(root, "storage", server_names, 1e9, topo.storage.server_link, p.servers, storage_gw);
  for (std::size_t i = 0; i < zones.size(); i++) {
    for (std::size_t j = i + 1; j < zones.size(); j++) {
      const LinkSpec& spec = topo.wan[i][j - i - 1];
      auto* wan = root->create_split_duplex_link(fmt::format("wan_{}_{}", i, j), spec.bandwidth);
      wan->set_latency(spec.latency)->seal();
      root->add_route(zones[i]->get_netpoint(), zones[j]->get_netpoint(), gateways[i], gateways[j],
                      {sg4::LinkInRoute(wan, sg4::LinkInRoute::Direction::UP)}, true);
    }
    // The controller reaches every cluster through a link of its own, so its traffic does not
    // contend with the WAN.
    auto* l = root->create_split_duplex_link(fmt::format("controller_{}", i), topo.controller.bandwidth);
    l->set_latency(topo.controller.latency)->seal();
    root->add_route(ctl_zone->get_netpoint(), zones[i]->get_netpoint(), ctl_gw, gateways[i],
                    {sg4::LinkInRoute(l, sg4::LinkInRoute::Direction::UP)}, true);
    // Servers and nodes contend on the servers' links and the nodes' SAN links only.
    auto* s = root->create_link(fmt::format("storage_{}", i), 1e300);
    s->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)->set_latency(0)->seal();
    root->add_route(storage_zone->get_netpoint(), zones[i]->get_netpoint(), storage_gw, gateways[i],
                    {sg4::LinkInRoute(s)}, true);
  }
  root->seal();
  return p;
}

// The profile files a platform XML names (state_file, bandwidth_file, ... and speed_file)
// exist where SimGrid 3.32 looks for them, the XML's folder; otherwise SimGrid aborts the whole
// program. It also fails on an absolute name (its search goes on through the folders after
// opening it): both are input errors here.
void check_profile_files(const std::string& xml_file) {
  std::ifstream in(xml_file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string dir = std::filesystem::path(xml_file).parent_path().string();
  static const std::regex attribute(R"re(\b([a-z]+_file)\s*=\s*["']([^"']*)["'])re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), attribute); it != std::sregex_iterator(); ++it) {
    const std::string field = (*it)[1], name = (*it)[2];
    const auto line = 1 + std::count(text.begin(), text.begin() + it->position(), '\n');
    if (std::filesystem::path(name).is_absolute())
      throw InputError(xml_file, fmt::format("line {}: {}", line, field),
                       fmt::format("\"{}\": SimGrid 3.32 cannot open a profile by an absolute name; give it relative "
                                   "to the platform's folder",
                                   name));
    if (!std::ifstream(dir.empty() ? name : dir + "/" + name))
      throw InputError(xml_file, fmt::format("line {}: {}", line, field),
                       fmt::format("cannot open profile \"{}\" (relative to the platform's folder {})", name,
                                   dir.empty() ? "." : dir));
  }
}

// Hosts and network from a platform XML, completed with what the file lacks (xml_services.hpp):
// the topology's clusters become the platform's.
Platform load_xml(sg4::Engine& engine, Topology& topo) {
  check_profile_files(topo.platform_xml);
  try {
    engine.load_platform(topo.platform_xml);
  } catch (const std::exception& e) {
    throw InputError(topo.platform_xml, "", fmt::format("SimGrid cannot load this platform: {}", e.what()));
  }
  const XmlFederation fed = find_federation(engine, topo);
  std::map<std::string, ClusterSpec> given;
  for (const auto& c : topo.clusters) given[c.name] = c;
  Platform p;
  std::vector<ClusterSpec> clusters;
  std::vector<std::vector<std::string>> names;
  std::vector<std::vector<double>> speeds;
  for (const XmlCluster& found : fed.clusters) {
    ClusterSpec spec;
    if (auto it = given.find(found.name); it != given.end()) {
      spec = it->second;
      given.erase(it);
    }
    spec.name = found.name;
    spec.nodes = static_cast<int>(found.nodes.size());
    spec.speed = found.nodes.front()->get_speed();
    names.emplace_back();
    speeds.emplace_back();
    for (auto* h : found.nodes) {
      names.back().push_back(h->get_name());
      speeds.back().push_back(h->get_speed());
      p.hosts.push_back(h);
    }
    clusters.push_back(spec);
  }
  if (!given.empty())
    throw InputError(topo.source, "/clusters",
                     fmt::format("cluster \"{}\" is not a cluster of the platform {} (its clusters: {})",
                                 given.begin()->first, topo.platform_xml, found_cluster_names(fed)));
  const XmlServices services = complete_platform(engine, fed, topo);
  p.controller = services.controller;
  p.servers = services.servers;
  topo.clusters = clusters;
  topo.storage.servers = static_cast<int>(p.servers.size());
  p.layout = FederationLayout(topo, names, speeds);
  return p;
}

} // namespace

void configure_network_model(sg4::Engine& engine, const std::string& model) {
  if (model == "CM02") {
    engine.set_config("network/model:CM02");
    engine.set_config("network/TCP-gamma:0");
    engine.set_config("network/crosstraffic:0");
  } else if (model == "LV08") {
    engine.set_config("network/model:LV08");
  } else if (model == "SMPI") {
    // SMPI's own settings: its latency and bandwidth factors by message size, TCP gamma and
    // cross-traffic left at SimGrid's defaults, as smpirun sets them.
    engine.set_config("network/model:SMPI");
  } else {
    throw InputError("command line", "--network-model", fmt::format("unknown model \"{}\" (CM02, LV08, SMPI)", model));
  }
}

Platform create_platform(sg4::Engine& engine, Topology& topology) {
  return topology.platform_xml.empty() ? build_from_topology(topology) : load_xml(engine, topology);
}

std::string platform_xml(const Topology& topo) {
  if (!topo.platform_xml.empty())
    throw InputError(topo.source, "/platform", "this topology already uses a platform XML");
  std::string x = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n";
  x += fmt::format("<!-- Generated by ckptsim {} from {}: the same hosts, links and times as the platform ckptsim "
                   "builds from it. -->\n",
                   ckptsim::version(), topo.source);
  x += "<platform version=\"4.1\">\n  <zone id=\"federation\" routing=\"Full\">\n";
  auto cluster = [&](const std::string& name, const std::string& radical, double speed, const LinkSpec& l) {
    x += fmt::format("    <cluster id=\"{0}\" prefix=\"{0}-\" suffix=\"\" radical=\"{1}\" speed=\"{2:.17g}f\" "
                     "bw=\"{3:.17g}Bps\" lat=\"{4:.17g}s\" sharing_policy=\"SPLITDUPLEX\" router_id=\"{0}_router\" "
                     "loopback_bw=\"1e300Bps\" loopback_lat=\"0s\"/>\n",
                     name, radical, speed, l.bandwidth, l.latency / 2);
  };
  for (const auto& c : topo.clusters) cluster(c.name, fmt::format("0-{}", c.nodes - 1), c.speed, c.san);
  x += "    <zone id=\"controller_zone\" routing=\"Cluster\">\n      <host id=\"controller\" speed=\"1Gf\"/>\n";
  x += fmt::format("      <link id=\"controller_link\" bandwidth=\"{:.17g}Bps\" latency=\"{:.17g}s\" "
                   "sharing_policy=\"SPLITDUPLEX\"/>\n",
                   topo.controller.bandwidth, topo.controller.latency / 2);
  x +=
      "      <link id=\"controller_lo\" bandwidth=\"1e300Bps\" latency=\"0s\" sharing_policy=\"FATPIPE\"/>\n"
      "      <host_link id=\"controller\" up=\"controller_link_UP\" down=\"controller_link_DOWN\"/>\n"
      "      <router id=\"controller_zone_router\"/>\n"
      "      <route src=\"controller\" dst=\"controller\" symmetrical=\"NO\"><link_ctn id=\"controller_lo\"/></route>\n"
      "    </zone>\n";
  x += fmt::format("    <cluster id=\"storage\" prefix=\"server-\" suffix=\"\" radical=\"0-{}\" speed=\"1Gf\" "
                   "bw=\"{:.17g}Bps\" lat=\"{:.17g}s\" sharing_policy=\"SPLITDUPLEX\" router_id=\"storage_router\" "
                   "loopback_bw=\"1e300Bps\" loopback_lat=\"0s\"/>\n",
                   topo.storage.servers - 1, topo.storage.server_link.bandwidth, topo.storage.server_link.latency / 2);
  const std::size_t n = topo.clusters.size();
  for (std::size_t i = 0; i < n; i++) {
    x += fmt::format("    <link id=\"storage_{}\" bandwidth=\"1e300Bps\" latency=\"0s\" sharing_policy=\"FATPIPE\"/>\n",
                     i);
    for (std::size_t j = i + 1; j < n; j++) {
      const auto& l = topo.wan[i][j - i - 1];
      x += fmt::format("    <link id=\"wan_{}_{}\" bandwidth=\"{:.17g}Bps\" latency=\"{:.17g}s\" "
                       "sharing_policy=\"SPLITDUPLEX\"/>\n",
                       i, j, l.bandwidth, l.latency);
    }
    x += fmt::format("    <link id=\"controller_{}\" bandwidth=\"{:.17g}Bps\" latency=\"{:.17g}s\" "
                     "sharing_policy=\"SPLITDUPLEX\"/>\n",
                     i, topo.controller.bandwidth, topo.controller.latency);
  }
  for (std::size_t i = 0; i < n; i++) {
    for (std::size_t j = i + 1; j < n; j++)
      x += fmt::format("    <zoneRoute src=\"{0}\" dst=\"{1}\" gw_src=\"{0}_router\" gw_dst=\"{1}_router\">"
                       "<link_ctn id=\"wan_{2}_{3}\" direction=\"UP\"/></zoneRoute>\n",
                       topo.clusters[i].name, topo.clusters[j].name, i, j);
    x += fmt::format("    <zoneRoute src=\"controller_zone\" dst=\"{0}\" gw_src=\"controller_zone_router\" "
                     "gw_dst=\"{0}_router\"><link_ctn id=\"controller_{1}\" direction=\"UP\"/></zoneRoute>\n",
                     topo.clusters[i].name, i);
    x += fmt::format("    <zoneRoute src=\"storage\" dst=\"{0}\" gw_src=\"storage_router\" gw_dst=\"{0}_router\">"
                     "<link_ctn id=\"storage_{1}\"/></zoneRoute>\n",
                     topo.clusters[i].name, i);
  }
  x += "  </zone>\n</platform>\n";
  return x;
}

} // namespace ckptsim
