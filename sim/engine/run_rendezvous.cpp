/* The Run's part in rendezvous sends (Workload::rendezvous, rendezvous.hpp): the matching that
 * SMPI's mailboxes do, read from the receivers' application states, and the wake-ups of the nodes
 * that hold messages a receiver now takes. */
#include "sim/engine/run.hpp"
#include "sim/node/node_runtime.hpp"

#include <fmt/format.h>

namespace ckptsim {

Envelope* Run::wake_token() {
  static Envelope token;
  return &token;
}

sg4::Mailbox* Run::bell(NodeId endpoint, Incarnation inc) const {
  return sg4::Mailbox::by_name(fmt::format("b{}@{}", endpoint, inc));
}

bool Run::receive_posted(const AppMessage& msg) const {
  const NodeRuntime* rt = endpoints_.runtimes[msg.dst];
  if (rt == nullptr || rt->dead()) return false; // down: it posts again once restored
  return workload_->receive_posted(rt->app_state(), msg);
}

void Run::posted_by(NodeId receiver) {
  if (!network_.rendezvous.awaited(receiver)) return;
  // Collected first: a wake-up is a SimGrid call, which lets other actors run (and change the
  // board, or kill a holder: its runtime is looked up again before each wake-up).
  std::vector<std::pair<NodeId, Incarnation>> wake;
  network_.rendezvous.settle(receiver, [&](NodeId holder) {
    NodeRuntime* rt = endpoints_.runtimes[holder];
    if (rt == nullptr || rt->dead()) return true; // its next incarnation awaits again if it holds
    if (!rt->holds_posted_for(receiver)) return false;
    wake.emplace_back(holder, rt->incarnation());
    return true;
  });
  for (const auto& [holder, inc] : wake) {
    const NodeRuntime* rt = endpoints_.runtimes[holder];
    if (rt == nullptr || rt->incarnation() != inc || !alive(holder, inc) || !network_.rendezvous.ring(holder)) continue;
    CommProxies::put_detached_as(rt->actor(), bell(holder, inc), wake_token());
  }
}

} // namespace ckptsim
