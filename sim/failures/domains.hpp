/* Failure domains: the groups of nodes that fail together (a rack, a power group, a cluster, a
 * site). The topology declares them ("domains" at the top level and in clusters, "sites"); here
 * they become lists of nodes once the federation's layout exists (a platform XML gives the hosts
 * late). */
#pragma once

#include "sim/config/topology.hpp"
#include "sim/net/ids.hpp"
#include "sim/platform/layout.hpp"

#include <string>
#include <vector>

namespace ckptsim {

/** @brief The domains of @p scope ("cluster", "site" or a declared domain name), each a non-empty
 *  list of nodes in increasing order, no node in two. An InputError (the topology's file and
 *  field) for a node name or a cluster name the federation lacks, or a node in two domains. */
std::vector<std::vector<NodeId>> failure_domains(const Topology& topology, const FederationLayout& layout,
                                                 const std::string& scope);

} // namespace ckptsim
