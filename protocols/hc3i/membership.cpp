/* HC3I: a node's place in the federation. */
#include "protocols/hc3i/membership.hpp"

namespace ckptsim::hc3i {

Membership::Membership(const FederationLayout& layout, NodeId self)
    : layout_(layout)
    , self_(self)
    , cluster_(layout.cluster_of(self))
    , clusters_(layout.num_clusters()) {
  const auto& cl = layout.cluster(cluster_);
  for (int i = 0; i < cl.size; i++) members_.push_back(cl.first + i);
  leader_ = cl.first;
}

std::optional<NodeId> Membership::recovery_leader(const FailureNotice& n) const {
  for (NodeId m : members_) // leader first, then increasing
    if (!n.struck(m)) return m;
  return std::nullopt;
}

std::vector<NodeId> Membership::victims_here(const FailureNotice& n) const {
  std::vector<NodeId> here;
  for (NodeId v : n.victims)
    if (cluster_of(v) == cluster_) here.push_back(v);
  return here;
}

void Membership::broadcast(NodeContext& ctx, Msg kind, const std::shared_ptr<Body>& b, NodeId except) const {
  for (NodeId m : members_)
    if (m != except) ctx.send_control(m, control(kind, b));
}

} // namespace ckptsim::hc3i
