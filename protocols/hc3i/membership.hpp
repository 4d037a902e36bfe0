/* Who is who around an HC3I node: its cluster, the cluster's members and leader, the other
 * clusters' leaders, and who leads a cluster's recovery. Fixed for the whole run: every part of
 * the node reads it (node.hpp). */
#pragma once

#include "protocols/hc3i/messages.hpp"
#include "sim/protocol/protocol.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ckptsim::hc3i {

/** @brief A node's place in the federation: its cluster, its peers, the leaders. */
class Membership {
 public:
  Membership(const FederationLayout& layout, NodeId self);

  const FederationLayout& layout() const { return layout_; }
  NodeId self() const { return self_; }
  int cluster() const { return cluster_; }
  int clusters() const { return clusters_; }
  /** @brief The nodes of this cluster, leader first. */
  const std::vector<NodeId>& members() const { return members_; }
  NodeId leader() const { return leader_; }
  bool is_leader() const { return self_ == leader_; }
  int cluster_of(NodeId n) const { return layout_.cluster_of(n); }
  NodeId leader_of(int cluster) const { return layout_.cluster(cluster).first; }
  /** @brief Who leads this cluster's recovery from failure @p n: its lowest member that @p n did
   *  not strike (the leader unless it is a victim); none when @p n struck every member.
   *  Survivors and restarted victims compute it from the same list of victims: they agree. */
  std::optional<NodeId> recovery_leader(const FailureNotice& n) const;
  /** @brief The victims of @p n in this cluster, increasing order. */
  std::vector<NodeId> victims_here(const FailureNotice& n) const;
  std::string name(NodeId n) const { return layout_.host_name(n); }
  /** @brief Sends @p kind with body @p b to every member of the cluster but @p except. */
  void broadcast(NodeContext& ctx, Msg kind, const std::shared_ptr<Body>& b, NodeId except = -1) const;

 private:
  const FederationLayout& layout_;
  const NodeId self_;
  const int cluster_;
  const int clusters_;
  std::vector<NodeId> members_;
  NodeId leader_;
};

} // namespace ckptsim::hc3i
