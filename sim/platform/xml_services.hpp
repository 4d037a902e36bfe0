/* What ckptsim adds to a platform XML that lacks it (docs/INPUTS.md, "Platform XML"): a controller
 * host and checkpoint servers, each reaching every node through links of its own and no link of the
 * file. Their routes are SimGrid bypass routes, which the routing of the file's zones never sees,
 * so adding them changes no route between two hosts of the file, whatever the zones' routing (full,
 * Floyd, Dijkstra, star, torus, fat tree, dragonfly). The platform is then sealed and every route a
 * run takes is checked: a missing one is an InputError here, not an abort in the middle of a run. */
#pragma once

#include "sim/platform/xml_clusters.hpp"

#include <simgrid/s4u.hpp>

#include <vector>

namespace ckptsim {

struct XmlServices {
  simgrid::s4u::Host* controller = nullptr;
  std::vector<simgrid::s4u::Host*> servers;
};

/** @brief Adds the controller @p fed lacks (links: @p topology's "controller", one per cluster) and,
 *  when the file has no zone "storage", @p topology's checkpoint servers ("storage": "servers",
 *  "server_link"); seals the platform and checks its routes (InputError naming the XML file). */
XmlServices complete_platform(simgrid::s4u::Engine& engine, const XmlFederation& fed, const Topology& topology);

} // namespace ckptsim
