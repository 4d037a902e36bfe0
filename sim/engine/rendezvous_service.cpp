#include "sim/engine/rendezvous_service.hpp"
#include "sim/node/node_runtime.hpp"

namespace ckptsim {

Envelope* RendezvousService::wake_token() {
  static Envelope token;
  return &token;
}

bool RendezvousService::receive_posted(const AppMessage& msg) const {
  const NodeRuntime* rt = endpoints_.runtimes[msg.dst];
  if (rt == nullptr || rt->dead()) return false; // down: it posts again once restored
  return workload_->receive_posted(rt->app_state(), msg);
}

void RendezvousService::posted_by(NodeId receiver) {
  if (!board_.awaited(receiver)) return;
  // Collected first: a wake-up is a SimGrid call, which lets other actors run (and change the
  // board, or kill a holder: its runtime is looked up again before each wake-up).
  std::vector<std::pair<NodeId, Incarnation>> wake;
  board_.settle(receiver, [&](NodeId holder) {
    NodeRuntime* rt = endpoints_.runtimes[holder];
    if (rt == nullptr || rt->dead()) return true; // its next incarnation awaits again if it holds
    if (!rt->holds_posted_for(receiver)) return false;
    wake.emplace_back(holder, rt->incarnation());
    return true;
  });
  for (const auto& [holder, inc] : wake) {
    const NodeRuntime* rt = endpoints_.runtimes[holder];
    if (rt == nullptr || rt->incarnation() != inc || !wire_.alive(holder, inc) || !board_.ring(holder)) continue;
    CommProxies::put_detached_as(rt->actor(), wire_.bell(holder, inc), wake_token());
  }
}

} // namespace ckptsim
