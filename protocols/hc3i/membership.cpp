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

NodeId Membership::recovery_leader(NodeId victim) const {
  const NodeId leader = leader_of(layout_.cluster_of(victim));
  return victim == leader ? leader + 1 : leader;
}

void Membership::broadcast(NodeContext& ctx, Msg kind, const std::shared_ptr<Body>& b, NodeId except) const {
  for (NodeId m : members_)
    if (m != except) ctx.send_control(m, control(kind, b));
}

} // namespace ckptsim::hc3i
