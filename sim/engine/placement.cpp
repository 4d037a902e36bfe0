/* Where processes run (topology failures.restart). "spare": process i always runs on host i, which
 * comes back after the downtime (or a spare takes its place). "shrink" (the LAM/MPI paper's
 * lb_fault_app): a failed host stays off for good and its processes restart on the surviving
 * host that runs the fewest processes (the lowest index among equals); a host running k
 * processes gives each 1/k of its speed. A failure strikes a host: under shrink, every process on
 * it dies (one failure event, one recovery, each process counted as a failure), each restarted
 * elsewhere. */
#include "sim/engine/run.hpp"
#include "sim/node/node_runtime.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim {

void Run::init_placement() {
  if (shrinking() && num_nodes() < 2)
    throw InputError(inputs_.topology.source, "/failures/restart",
                     "\"shrink\" restarts a failed process on a surviving node: the federation has one node, nothing "
                     "to shrink onto");
}

int Run::cpu_share(NodeId node) const {
  if (!shrinking() || node >= num_nodes()) return 1;
  int k = 0;
  for (NodeId p = 0; p < num_nodes(); p++)
    k += endpoints_.host_index[p] == endpoints_.host_index[node] && (endpoints_.up[p] || p == node) ? 1 : 0;
  return std::max(k, 1);
}

void Run::share_host(int host) {
  for (NodeId p = 0; p < num_nodes(); p++)
    if (endpoints_.host_index[p] == host && endpoints_.up[p] && endpoints_.runtimes[p])
      endpoints_.runtimes[p]->set_cpu_share(cpu_share(p));
}

void Run::shrink_failure_arrival(const std::vector<int>& struck, double repair) {
  const double now = sg4::Engine::get_clock();
  std::vector<int> hosts;
  for (int host : struck) {
    if (endpoints_.host_dead[host]) { // off for good since an earlier failure: per-host rate thinning
      observe_.stats.add("failures.ignored_down");
      observe_.trace.emit(1, now, "failure_ignored", {{"node", host}, {"reason", "host off (shrink)"}});
      continue;
    }
    hosts.push_back(host);
  }
  if (hosts.empty() || defer(hosts, repair)) return;
  // Every process on the failed hosts dies: one failure, one recovery, however many processes.
  std::vector<NodeId> victims;
  for (NodeId p = 0; p < num_nodes(); p++)
    if (endpoints_.up[p] && std::find(hosts.begin(), hosts.end(), endpoints_.host_index[p]) != hosts.end())
      victims.push_back(p);
  // Their work is read before the hosts go off with the first strike (which kills the actors).
  for (NodeId p : victims)
    endpoints_.death_work[p] = endpoints_.runtimes[p] ? endpoints_.runtimes[p]->current_work() : 0.0;
  for (int host : hosts) {
    endpoints_.host_dead[host] = true;
    std::vector<NodeId> on_host;
    for (NodeId p : victims)
      if (endpoints_.host_index[p] == host) on_host.push_back(p);
    if (on_host.size() > 1)
      observe_.trace.emit(0, now, "host_failure",
                          {{"host", platform_.hosts[host]->get_name()}, {"processes", on_host}});
  }
  if (!victims.empty()) strike(victims, repair, true);
}

bool Run::place_restart(NodeId victim) {
  if (!shrinking()) {
    platform_.hosts[victim]->turn_on();
    return true;
  }
  int best = -1;
  int best_load = 0;
  for (int h = 0; h < num_nodes(); h++) {
    if (endpoints_.host_dead[h]) continue;
    int load = 0;
    for (NodeId p = 0; p < num_nodes(); p++) load += endpoints_.host_index[p] == h && endpoints_.up[p] ? 1 : 0;
    if (best < 0 || load < best_load) {
      best = h;
      best_load = load;
    }
  }
  const double now = sg4::Engine::get_clock();
  if (best < 0) {
    end_unrecoverable(fmt::format("no surviving node to restart {} on (restart: shrink)", endpoint_name(victim)),
                      {{"node", victim}, {"reason", "no surviving node"}});
    return false;
  }
  const int from = endpoints_.host_index[victim];
  endpoints_.host_index[victim] = best;
  observe_.stats.add("placement.moved");
  observe_.trace.emit(0, now, "process_moved",
                      {{"node", victim},
                       {"from", platform_.hosts[from]->get_name()},
                       {"to", platform_.hosts[best]->get_name()},
                       {"processes", best_load + 1}});
  endpoints_.up[victim] = true; // counted on its new host from now on (the caller sets it too)
  share_host(best);             // the processes already there slow down before the newcomer starts
  return true;
}

} // namespace ckptsim
