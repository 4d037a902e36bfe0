#include "sim/platform/xml_clusters.hpp"

#include "sim/config/input_error.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>

#include <fmt/format.h>

namespace ckptsim {

namespace sg4 = simgrid::s4u;

namespace {

constexpr const char* kStorageZone = "storage";

// A zone and the nodes it holds itself (not those of its sub-zones).
struct ZoneNodes {
  sg4::NetZone* zone;
  std::vector<sg4::Host*> nodes;
};

// The hosts a zone holds directly, as the file declares them: SimGrid numbers a zone's netpoints in
// creation order, whereas its host lists are sorted by name (c0-10 before c0-2).
std::vector<sg4::Host*> direct_hosts(const sg4::NetZone* zone) {
  std::vector<sg4::Host*> hosts;
  for (const auto* point : zone->get_impl()->get_vertices())
    if (point->is_host()) hosts.push_back(sg4::Host::by_name(point->get_name()));
  return hosts;
}

void collect_servers(const sg4::NetZone* zone, std::vector<sg4::Host*>& servers) {
  for (auto* h : direct_hosts(zone)) servers.push_back(h);
  for (const auto* child : zone->get_children()) collect_servers(child, servers);
}

// Pre-order walk: the zones holding nodes, each with its nodes; zones named "storage" hold servers.
void collect_zone_nodes(sg4::NetZone* zone, const sg4::Host* controller, std::vector<ZoneNodes>& holders,
                        XmlFederation& fed) {
  if (zone->get_name() == kStorageZone) {
    fed.has_storage_zone = true;
    collect_servers(zone, fed.servers);
    return;
  }
  ZoneNodes holder{zone, {}};
  for (auto* h : direct_hosts(zone))
    if (h != controller) holder.nodes.push_back(h);
  if (!holder.nodes.empty()) holders.push_back(holder);
  for (auto* child : zone->get_children()) collect_zone_nodes(child, controller, holders, fed);
}

XmlCluster merged_cluster(const std::string& name, const std::vector<ZoneNodes>& holders) {
  XmlCluster c{name, {}};
  for (const auto& h : holders) c.nodes.insert(c.nodes.end(), h.nodes.begin(), h.nodes.end());
  return c;
}

sg4::Host* find_controller(const sg4::Engine& engine, const Topology& topo) {
  if (topo.controller_host.empty()) return engine.host_by_name_or_null("controller");
  sg4::Host* host = engine.host_by_name_or_null(topo.controller_host);
  if (!host)
    throw InputError(topo.platform_xml, "",
                     fmt::format("no host named \"{}\" in this platform, which the controller must be (--controller "
                                 "or the topology's \"controller\": {{\"host\": ...}})",
                                 topo.controller_host));
  return host;
}

} // namespace

XmlFederation find_federation(const sg4::Engine& engine, const Topology& topo) {
  XmlFederation fed;
  fed.controller = find_controller(engine, topo);
  sg4::NetZone* root = engine.get_netzone_root();
  fed.flat = root->get_children().empty();
  if (topo.clusters_at == ClustersAt::Clusters) {
    std::vector<ZoneNodes> holders;
    collect_zone_nodes(root, fed.controller, holders, fed);
    for (const auto& h : holders) fed.clusters.push_back(merged_cluster(h.zone->get_name(), {h}));
  } else {
    // Sites: the root's own nodes (if any) form one cluster, then each child zone with all its nodes.
    ZoneNodes own{root, {}};
    for (auto* h : direct_hosts(root))
      if (h != fed.controller) own.nodes.push_back(h);
    if (!own.nodes.empty()) fed.clusters.push_back(merged_cluster(root->get_name(), {own}));
    std::size_t sites = 0;
    for (auto* child : root->get_children()) {
      std::vector<ZoneNodes> holders;
      collect_zone_nodes(child, fed.controller, holders, fed);
      if (holders.empty()) continue;
      fed.clusters.push_back(merged_cluster(child->get_name(), holders));
      sites++;
    }
    if (sites == 0)
      throw InputError(topo.platform_xml, "",
                       fmt::format("no site level (\"clusters_at\": \"sites\"): no child zone of the root zone \"{}\" "
                                   "holds hosts; use \"clusters\"",
                                   root->get_name()));
  }
  if (fed.controller) {
    for (const auto* s : fed.servers)
      if (s == fed.controller)
        throw InputError(topo.platform_xml, "",
                         fmt::format("host \"{}\" cannot be both the controller and a checkpoint server (it is in "
                                     "zone \"storage\")",
                                     s->get_name()));
  }
  if (fed.clusters.empty())
    throw InputError(topo.platform_xml, "",
                     engine.get_host_count() == 0
                         ? "no host to run the application on: the platform holds no host at all"
                         : "no host to run the application on: the platform holds no host besides the controller "
                           "and the checkpoint servers (zone \"storage\")");
  return fed;
}

} // namespace ckptsim
