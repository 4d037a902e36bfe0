/* Where processes run (topology failures.restart). "spare": process i always runs on host i, which
 * comes back after the downtime (or a spare takes its place). "shrink" (the LAM/MPI paper's
 * lb_fault_app): a failed host stays off for good and its processes restart on the surviving
 * host that runs the fewest processes (the lowest index among equals); a host running k
 * processes gives each 1/k of its speed. A failure strikes a host: under shrink, every process on
 * it dies, each counted as a failure of its own (same date), each restarted elsewhere. */
#include "sim/engine/run.hpp"
#include "sim/node/node_runtime.hpp"

#include <fmt/format.h>

namespace ckptsim {

void Run::init_placement() {
  host_index_.resize(static_cast<std::size_t>(num_nodes()));
  for (NodeId n = 0; n < num_nodes(); n++) host_index_[n] = n;
  host_dead_.assign(static_cast<std::size_t>(num_nodes()), false);
  if (shrinking() && num_nodes() < 2)
    throw InputError(topology_.source, "/failures/restart",
                     "\"shrink\" restarts a failed process on a surviving node: the federation has one node, nothing "
                     "to shrink onto");
}

int Run::cpu_share(NodeId node) const {
  if (!shrinking() || node >= num_nodes()) return 1;
  int k = 0;
  for (NodeId p = 0; p < num_nodes(); p++) k += host_index_[p] == host_index_[node] && (up_[p] || p == node) ? 1 : 0;
  return std::max(k, 1);
}

void Run::share_host(int host) {
  for (NodeId p = 0; p < num_nodes(); p++)
    if (host_index_[p] == host && up_[p] && runtimes_[p]) runtimes_[p]->set_cpu_share(cpu_share(p));
}

void Run::shrink_failure_arrival(int host) {
  const double now = sg4::Engine::get_clock();
  if (host_dead_[host]) { // off for good since an earlier failure: per-host rate thinning
    stats_.add("failures.ignored_down");
    trace_.emit(1, now, "failure_ignored", {{"node", host}, {"reason", "host off (shrink)"}});
    return;
  }
  if (defer(host)) return;
  std::vector<NodeId> victims;
  for (NodeId p = 0; p < num_nodes(); p++)
    if (host_index_[p] == host && up_[p]) victims.push_back(p);
  if (victims.size() > 1 && !overlapping_allowed()) {
    // Two processes die at one date: overlapping failures, which this protocol does not tolerate
    // (hc3i and independent wait forever for a recovery that cannot start). The engine defers an
    // overlapping failure otherwise, but a process cannot go on running on a dead host.
    end_unrecoverable(fmt::format("host {} ran {} processes: their simultaneous failures overlap, which protocol {} "
                                  "does not tolerate (restart: shrink)",
                                  platform_.hosts[host]->get_name(), victims.size(), config_.options.protocol),
                      {{"node", victims.front()}, {"reason", "simultaneous failures"}});
    return;
  }
  // Their work is read before the host goes off with the first strike (which kills both actors).
  for (NodeId p : victims) death_work_[p] = runtimes_[p] ? runtimes_[p]->current_work() : 0.0;
  host_dead_[host] = true;
  if (victims.size() > 1)
    trace_.emit(0, now, "host_failure", {{"host", platform_.hosts[host]->get_name()}, {"processes", victims}});
  for (NodeId p : victims) strike(p, true);
}

bool Run::place_restart(NodeId victim) {
  if (!shrinking()) {
    platform_.hosts[victim]->turn_on();
    return true;
  }
  int best = -1;
  int best_load = 0;
  for (int h = 0; h < num_nodes(); h++) {
    if (host_dead_[h]) continue;
    int load = 0;
    for (NodeId p = 0; p < num_nodes(); p++) load += host_index_[p] == h && up_[p] ? 1 : 0;
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
  const int from = host_index_[victim];
  host_index_[victim] = best;
  stats_.add("placement.moved");
  trace_.emit(0, now, "process_moved",
              {{"node", victim},
               {"from", platform_.hosts[from]->get_name()},
               {"to", platform_.hosts[best]->get_name()},
               {"processes", best_load + 1}});
  up_[victim] = true; // counted on its new host from now on (the caller sets it too)
  share_host(best);   // the processes already there slow down before the newcomer starts
  return true;
}

} // namespace ckptsim
