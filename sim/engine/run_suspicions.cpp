/* The Run's heartbeat suspicions of partitioned nodes (sim/engine/suspicions.hpp, docs/MODEL.md
 * "Network faults"): with heartbeat detection, a node cut off from the monitor (the controller
 * host) for the timeout is suspected. A suspected node is fenced, as cluster managers do so that
 * a node declared failed cannot go on computing and sending (no split brain): the engine kills it,
 * and the suspicion is the failure's detection. The node comes back after a repair time drawn
 * from the topology's downtime, and not before it reaches the monitor again. */
#include "sim/engine/run.hpp"

#include <simgrid/s4u.hpp>

namespace ckptsim {

bool Run::routed_to_monitor(NodeId n) const { return links_.route_up(host_of(n), platform_.controller); }

void Run::check_routes() {
  auto& fenced = failures_.fenced_waiting;
  if (!fenced.empty()) { // repaired fenced nodes whose route to the monitor is back rejoin
    std::vector<FailureId> back;
    for (const auto& [id, victims] : fenced)
      if (std::all_of(victims.begin(), victims.end(), [&](NodeId v) { return routed_to_monitor(v); }))
        back.push_back(id);
    for (FailureId id : back) fenced.erase(id); // all first: a restart checks the routes again
    for (FailureId id : back) restart(id);
    for (const auto& [id, victims] : fenced) // still waiting: the run waits for the link's repair
      for (NodeId v : victims) links_.hold(v);
  }
  Suspicions* s = failures_.suspicions.get();
  if (s == nullptr || ending_.end.over()) return;
  const double now = sg4::Engine::get_clock();
  for (NodeId n = 0; n < num_nodes(); n++) {
    if (!endpoints_.up[n]) continue;
    const auto due = s->route(n, routed_to_monitor(n), now);
    if (!due) continue;
    sg4::Actor::create("suspect", platform_.controller, [this, when = *due] {
      sg4::this_actor::sleep_until(when);
      suspect();
    })->daemonize();
  }
}

void Run::suspect() {
  if (ending_.end.over()) return;
  std::vector<NodeId> victims = failures_.suspicions->due(sg4::Engine::get_clock());
  std::erase_if(victims, [&](NodeId v) { return !endpoints_.up[v] || routed_to_monitor(v); });
  if (victims.empty()) return; // back in time, or failed meanwhile
  const double now = sg4::Engine::get_clock();
  observe_.trace.emit(0, now, "suspected", {{"nodes", victims}});
  observe_.stats.add("network.suspicions");
  observe_.stats.add("network.nodes_suspected", static_cast<double>(victims.size()));
  failure_arrival(victims, failures_.fence_repairs.draw(inputs_.topology.failures.downtime), false, true);
}

void Run::restart_when_routed(FailureId id) {
  if (ending_.end.over()) return;
  const auto& victims = failures_.recoveries.at(id).victims;
  if (std::all_of(victims.begin(), victims.end(), [&](NodeId v) { return routed_to_monitor(v); })) {
    restart(id);
    return;
  }
  failures_.fenced_waiting[id] = victims;
  for (NodeId v : victims) links_.hold(v);
  update_engine_waiting();
}

} // namespace ckptsim
