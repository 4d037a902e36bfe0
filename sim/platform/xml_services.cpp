#include "sim/platform/xml_services.hpp"

#include "sim/config/input_error.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace ckptsim {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

namespace {

// Bandwidth of a link that costs nothing and is never shared (a FATPIPE of zero latency).
constexpr double kFreeBandwidth = 1e300;

// The zones holding @p nodes themselves, each once, in platform order.
std::vector<sg4::NetZone*> zones_holding(const std::vector<sg4::Host*>& nodes) {
  std::vector<sg4::NetZone*> zones;
  for (const auto* node : nodes)
    if (std::find(zones.begin(), zones.end(), node->get_englobing_zone()) == zones.end())
      zones.push_back(node->get_englobing_zone());
  return zones;
}

class PlatformCompletion {
 public:
  PlatformCompletion(sg4::Engine& engine, const XmlFederation& fed, const Topology& topo)
      : engine_(engine)
      , fed_(fed)
      , topo_(topo)
      , root_(engine.get_netzone_root()) {
    // Created whatever is added: a node without a route to itself gets one through it, which is
    // known only once the platform is sealed, when no link can be created any more.
    free_ = free_link("ckptsim-free");
  }

  sg4::Host* add_controller();
  std::vector<sg4::Host*> add_servers();
  void seal_and_check(const XmlServices& services);

 private:
  std::string fresh(const std::string& name) const;
  sg4::Link* free_link(const std::string& name) {
    return root_->create_link(fresh(name), kFreeBandwidth)
        ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
        ->set_latency(0)
        ->seal();
  }
  sg4::SplitDuplexLink* link(const std::string& name, const LinkSpec& spec);
  sg4::NetZone* service_zone(const std::string& name, NetPoint*& gateway);
  NetPoint* gateway_of(sg4::NetZone* zone);
  void join(sg4::NetZone* service, NetPoint* service_gateway, sg4::NetZone* holder, sg4::Link* link);
  void join_directly(const sg4::Host* service, const std::vector<sg4::Host*>& nodes, sg4::SplitDuplexLink* link);
  void give_self_route(sg4::Host* host) const;
  void check_route(const sg4::Host* from, const sg4::Host* to) const;

  sg4::Engine& engine_;
  const XmlFederation& fed_;
  const Topology& topo_;
  sg4::NetZone* root_;
  sg4::Link* free_ = nullptr;
  std::map<sg4::NetZone*, NetPoint*> gateways_; // per zone holding nodes: where services enter it
};

// A name ckptsim gives to what it adds must be free in the file.
std::string PlatformCompletion::fresh(const std::string& name) const {
  if (engine_.netpoint_by_name_or_null(name) || engine_.link_by_name_or_null(name))
    throw InputError(topo_.platform_xml, "",
                     fmt::format("this platform already names a host, router, zone or link \"{}\": ckptsim needs the "
                                 "name for what it adds (docs/INPUTS.md, \"Platform XML\")",
                                 name));
  return name;
}

sg4::SplitDuplexLink* PlatformCompletion::link(const std::string& name, const LinkSpec& spec) {
  auto* l = root_->create_split_duplex_link(fresh(name), spec.bandwidth);
  l->set_latency(spec.latency)->seal();
  return l;
}

// A star zone of the services, child of the root; @p gateway is where its routes start.
sg4::NetZone* PlatformCompletion::service_zone(const std::string& name, NetPoint*& gateway) {
  auto* zone = sg4::create_star_zone(fresh(name));
  zone->set_parent(root_);
  gateway = zone->create_router(fresh(name + "-gateway"));
  return zone;
}

// A router in a zone holding nodes, joined to each of them by the free link: the services' routes
// enter the zone there, so they never cross a link of the file.
NetPoint* PlatformCompletion::gateway_of(sg4::NetZone* zone) {
  if (auto it = gateways_.find(zone); it != gateways_.end()) return it->second;
  NetPoint* gateway = zone->create_router(fresh("ckptsim-gateway-" + zone->get_name()));
  for (const auto& cluster : fed_.clusters)
    for (auto* node : cluster.nodes)
      if (node->get_englobing_zone() == zone) {
        zone->add_bypass_route(gateway, node->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(free_)});
        zone->add_bypass_route(node->get_netpoint(), gateway, nullptr, nullptr, {sg4::LinkInRoute(free_)});
      }
  gateways_[zone] = gateway;
  return gateway;
}

// Routes between a service zone and a zone holding nodes, both ways, crossing @p link (UP toward the
// nodes when it is split-duplex).
void PlatformCompletion::join(sg4::NetZone* service, NetPoint* service_gateway, sg4::NetZone* holder, sg4::Link* link) {
  NetPoint* gateway = gateway_of(holder);
  const bool duplex = link->get_sharing_policy() == sg4::Link::SharingPolicy::SPLITDUPLEX;
  auto in = [&](sg4::LinkInRoute::Direction d) { return duplex ? sg4::LinkInRoute(link, d) : sg4::LinkInRoute(link); };
  root_->add_bypass_route(service->get_netpoint(), holder->get_netpoint(), service_gateway, gateway,
                          {in(sg4::LinkInRoute::Direction::UP)});
  root_->add_bypass_route(holder->get_netpoint(), service->get_netpoint(), gateway, service_gateway,
                          {in(sg4::LinkInRoute::Direction::DOWN)});
}

// A flat platform: routes between @p service, a host of the root zone, and each of @p nodes, both
// ways, crossing @p link only.
void PlatformCompletion::join_directly(const sg4::Host* service, const std::vector<sg4::Host*>& nodes,
                                       sg4::SplitDuplexLink* link) {
  for (const auto* node : nodes) {
    root_->add_bypass_route(service->get_netpoint(), node->get_netpoint(), nullptr, nullptr,
                            {sg4::LinkInRoute(link, sg4::LinkInRoute::Direction::UP)});
    root_->add_bypass_route(node->get_netpoint(), service->get_netpoint(), nullptr, nullptr,
                            {sg4::LinkInRoute(link, sg4::LinkInRoute::Direction::DOWN)});
  }
}

// The controller reaches each cluster through a link of its own ("controller" of the topology).
sg4::Host* PlatformCompletion::add_controller() {
  std::vector<sg4::SplitDuplexLink*> links;
  for (std::size_t c = 0; c < fed_.clusters.size(); c++)
    links.push_back(link(fmt::format("ckptsim-controller-{}", c), topo_.controller));
  sg4::Host* controller = nullptr;
  if (fed_.flat) { // a new zone would change the root's routing (SimGrid adds loopbacks in flat zones only)
    controller = root_->create_host(fresh("controller"), 1e9)->seal();
    for (std::size_t c = 0; c < fed_.clusters.size(); c++) join_directly(controller, fed_.clusters[c].nodes, links[c]);
  } else {
    NetPoint* gateway = nullptr;
    sg4::NetZone* zone = service_zone("ckptsim-controller", gateway);
    controller = zone->create_host(fresh("controller"), 1e9)->seal();
    for (std::size_t c = 0; c < fed_.clusters.size(); c++)
      for (auto* holder : zones_holding(fed_.clusters[c].nodes)) join(zone, gateway, holder, links[c]);
  }
  give_self_route(controller);
  return controller;
}

// Each server reaches every node through its own link ("server_link"), and nothing else.
std::vector<sg4::Host*> PlatformCompletion::add_servers() {
  std::vector<sg4::Host*> servers;
  if (fed_.flat) {
    for (int k = 0; k < topo_.storage.servers; k++) {
      auto* server = root_->create_host(fresh(fmt::format("server-{}", k)), 1e9)->seal();
      auto* l = link(fmt::format("server-{}_link", k), topo_.storage.server_link);
      for (const auto& cluster : fed_.clusters) join_directly(server, cluster.nodes, l);
      servers.push_back(server);
    }
    return servers;
  }
  NetPoint* gateway = nullptr;
  sg4::NetZone* zone = service_zone("storage", gateway);
  for (int k = 0; k < topo_.storage.servers; k++) {
    auto* server = zone->create_host(fresh(fmt::format("server-{}", k)), 1e9)->seal();
    auto* l = link(fmt::format("server-{}_link", k), topo_.storage.server_link);
    zone->add_route(server->get_netpoint(), nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(l, sg4::LinkInRoute::Direction::UP)}, true);
    servers.push_back(server);
  }
  // Past its servers' own links the storage zone joins every zone of nodes for free.
  sg4::Link* backbone = free_link("ckptsim-storage-backbone");
  for (const auto& cluster : fed_.clusters)
    for (auto* holder : zones_holding(cluster.nodes)) join(zone, gateway, holder, backbone);
  return servers;
}

// ckptsim's own signals between two actors of a host cross the network: a host without a route to
// itself (the controller ckptsim adds, a node of a torus without loopback) gets a free one.
void PlatformCompletion::give_self_route(sg4::Host* host) const {
  host->get_englobing_zone()->add_bypass_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr,
                                               {sg4::LinkInRoute(free_)});
}

// Whether SimGrid finds a route: some zones throw when they have none, others return an empty one.
bool platform_has_route(const sg4::Host* from, const sg4::Host* to, std::string& why) {
  std::vector<sg4::Link*> links;
  double latency = 0;
  try {
    from->route_to(to, links, &latency);
  } catch (const std::exception& e) {
    why = fmt::format(" ({})", e.what());
    return false;
  }
  return !links.empty() || latency > 0;
}

void PlatformCompletion::check_route(const sg4::Host* from, const sg4::Host* to) const {
  std::string why;
  if (!platform_has_route(from, to, why))
    throw InputError(topo_.platform_xml, "",
                     fmt::format("no route from host \"{}\" to host \"{}\" in this platform{}", from->get_name(),
                                 to->get_name(), why));
}

// Every route a run takes: a node to itself, between nodes (each to and from the first node: a
// zone cut off from the others shows there), the controller to and from every node, each server to
// and from every node. Routes ckptsim added exist by construction and are checked all the same.
void PlatformCompletion::seal_and_check(const XmlServices& services) {
  root_->seal();
  std::string why;
  if (fed_.controller && !platform_has_route(fed_.controller, fed_.controller, why)) give_self_route(fed_.controller);
  const sg4::Host* first = fed_.clusters.front().nodes.front();
  for (const auto& cluster : fed_.clusters)
    for (auto* node : cluster.nodes) {
      if (!platform_has_route(node, node, why)) give_self_route(node);
      if (node != first) {
        check_route(node, first);
        check_route(first, node);
      }
      check_route(services.controller, node);
      check_route(node, services.controller);
      for (const auto* server : services.servers) {
        check_route(server, node);
        check_route(node, server);
      }
    }
}

} // namespace

XmlServices complete_platform(sg4::Engine& engine, const XmlFederation& fed, const Topology& topology) {
  PlatformCompletion completion(engine, fed, topology);
  XmlServices s;
  s.controller = fed.controller ? fed.controller : completion.add_controller();
  s.servers = fed.has_storage_zone ? fed.servers : completion.add_servers();
  completion.seal_and_check(s);
  return s;
}

} // namespace ckptsim
