/* Where the "levels" model puts a node's copies: its partner and its encoding group, spread over
 * failure domains as SCR spreads its sets over its failure groups. The nodes of a cluster are put
 * in round-robin order over the domains of the level's scope (the first node of each domain, then
 * the second of each...); a partner is the distance-th next node in that order that is in another
 * domain, and the encoding groups are consecutive runs of `group` nodes of that order (the
 * remainder of the cluster joins the last group when it is too small to be a group of its own), so
 * the members of a group sit in different domains as long as the domains allow. Without domains the
 * order is the cluster's own. Built once per run (StorageModelInfo::prepare). */
#pragma once

#include "sim/config/topology.hpp"
#include "sim/platform/layout.hpp"
#include "sim/storage/levels/plan.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ckptsim::levels {

/** @brief The placement of one level in one cluster. */
struct ClusterOrder {
  std::vector<NodeId> order;    // the cluster's nodes, round-robin over the domains
  std::vector<int> domain;      // domain of order[i] (-1: in none)
  std::vector<int> position;    // node - first -> index in order
  std::vector<int> group_start; // index in order where each group starts (groups are consecutive runs)
  std::vector<int> group_of;    // node - first -> its group
};

class Placement {
 public:
  /** @brief The placement of every level that has one (partner, xor, rs) in every cluster that uses
   *  the model (@p uses, by cluster). InputError (the level's field) when a cluster cannot host it. */
  Placement(const Plan& plan, const Topology& topology, const FederationLayout& layout, const std::vector<bool>& uses);

  /** @brief @p node's partner for level @p level (0-based index), nullopt in a one-node cluster. */
  std::optional<NodeId> partner(int level, NodeId node) const;
  /** @brief The members of @p node's encoding group at level @p level, in order (@p node included). */
  std::vector<NodeId> group(int level, NodeId node) const;
  /** @brief A number for that group, unique in the run. */
  int group_id(int level, NodeId node) const;

 private:
  const ClusterOrder& at(int level, NodeId node) const;

  const FederationLayout& layout_;
  std::vector<Level> levels_;
  std::vector<std::vector<ClusterOrder>> by_level_; // [level][cluster]
};

/** @brief The failure-domain scope level @p l spreads over: its "domain", else the topology's only
 *  declared scope, else none (""). InputError when several are declared and none is named, or it
 *  names an undeclared one. */
std::string domain_scope(const Level& l, const Topology& topology);

} // namespace ckptsim::levels
