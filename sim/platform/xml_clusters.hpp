/* Who is who in a loaded SimGrid platform XML (docs/INPUTS.md, "Platform XML"): its nodes, grouped
 * in clusters at the level the topology chooses, its controller host if it has one, and the hosts
 * of its zones named "storage" (the checkpoint servers). Hosts are in platform order: zones in the
 * file's order, parents before their children, and a zone's hosts in the order it declares them. */
#pragma once

#include "sim/config/topology.hpp"

#include <simgrid/s4u.hpp>

#include <string>
#include <vector>

namespace ckptsim {

struct XmlCluster {
  std::string name;                       // the zone's
  std::vector<simgrid::s4u::Host*> nodes; // in platform order
};

struct XmlFederation {
  std::vector<XmlCluster> clusters;
  simgrid::s4u::Host* controller = nullptr; // the file's host named as the controller; nullptr: none
  std::vector<simgrid::s4u::Host*> servers; // hosts of the zones named "storage"
  bool has_storage_zone = false;
  bool flat = false; // the root zone has no child zone: everything ckptsim adds goes in the root
};

/** @brief Finds the clusters of the platform loaded in @p engine (InputError naming the XML file). */
XmlFederation find_federation(const simgrid::s4u::Engine& engine, const Topology& topology);

} // namespace ckptsim
