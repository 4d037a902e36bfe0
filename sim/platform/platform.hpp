/* The SimGrid platform of a run: built from the topology (a star zone per cluster, one
 * split-duplex link per host carrying half the SAN latency each way, so a message between two
 * nodes crosses exactly one SAN latency; a router per cluster; one WAN link per pair of clusters
 * in a full root zone; a controller host in a zone of its own for the engine's and the protocols'
 * non-computing actors; a "storage" zone of checkpoint servers, each behind its own link, joined
 * to every cluster without a bottleneck of its own) or loaded from any SimGrid XML (its clusters:
 * xml_clusters.hpp; the controller and servers ckptsim adds when the file has none: xml_services.hpp).
 * Resulting costs of a built platform under CM02 (docs/MODEL.md):
 *   intra-cluster: SAN latency + size / SAN bandwidth
 *   inter-cluster: SAN latency + WAN latency + size / min(SAN bandwidth, WAN bandwidth) */
#pragma once

#include "sim/config/topology.hpp"
#include "sim/platform/layout.hpp"

#include <simgrid/s4u.hpp>

#include <string>
#include <vector>

namespace ckptsim {

namespace sg4 = simgrid::s4u;

struct Platform {
  FederationLayout layout;
  std::vector<sg4::Host*> hosts; // by node id
  sg4::Host* controller = nullptr;
  std::vector<sg4::Host*> servers; // checkpoint servers ("servers" storage model)
};

/** @brief Sets the network model ("CM02": latency + size/bandwidth, as in the papers; "LV08";
 *  "SMPI": SimGrid's model of MPI transfers, for MPI traces).
 *  Must run after the Engine exists and before the platform is created. */
void configure_network_model(sg4::Engine& engine, const std::string& model);

/** @brief Builds or loads the platform; with an XML, fills @p topology's clusters from its zones
 *  (and its server count from the servers it has or ckptsim added). */
Platform create_platform(sg4::Engine& engine, Topology& topology);

/** @brief The SimGrid XML equivalent of a topology (same hosts, links and times). */
std::string platform_xml(const Topology& topology);

} // namespace ckptsim
