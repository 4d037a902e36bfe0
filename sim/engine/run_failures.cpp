/* The Run's failure lifecycle: a failure's arrival (or its deferral), the strike (the host off,
 * the wire purged, detection and restart scheduled), detection notices, the restart of a new
 * incarnation, and the recovery's end (node back, reports, quiescence, the consistency check),
 * after which deferred failures are released. Placement under shrink: placement.cpp. */
#include "sim/engine/run.hpp"

#include "sim/failures/detection.hpp"
#include "sim/node/node_runtime.hpp"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim {

void Run::failure_arrival(std::vector<NodeId> victims, double repair, bool released, bool fenced) {
  const double now = sg4::Engine::get_clock();
  observe_.stats.add("failures.arrivals");
  // Calm: it strikes a run with no recovery under way. A deferred one, released now, was counted
  // when it arrived, during a recovery.
  if (!released)
    ending_.termination.note_failure(now, failures_.recoveries.open() == 0 && failures_.nodes_down == 0 &&
                                              failures_.deferred.empty());
  if (shrinking()) { // the victims are hosts, which may run two processes each
    shrink_failure_arrival(victims, repair);
    return;
  }
  // A node that is down cannot fail again: per-node rate thinning.
  std::erase_if(victims, [&](NodeId v) {
    if (endpoints_.up[v]) return false;
    observe_.stats.add("failures.ignored_down");
    observe_.trace.emit(1, now, "failure_ignored", {{"node", v}, {"reason", "down"}});
    return true;
  });
  // A suspicion held until now lapses for the nodes that reach the monitor again.
  if (fenced) std::erase_if(victims, [&](NodeId v) { return routed_to_monitor(v); });
  if (victims.empty() || defer(victims, repair, fenced)) return;
  strike(victims, repair, false, fenced);
}

bool Run::defer(const std::vector<NodeId>& victims, double repair, bool fenced) {
  if (overlapping_allowed() || failures_.recoveries.open() == 0) return false;
  observe_.stats.add("failures.deferred");
  if (victims.size() == 1)
    observe_.trace.emit(0, sg4::Engine::get_clock(), "failure_deferred", {{"node", victims.front()}});
  else
    observe_.trace.emit(0, sg4::Engine::get_clock(), "failure_deferred", {{"nodes", victims}});
  failures_.deferred.push_back({victims, repair, fenced});
  update_held();
  return true;
}

void Run::strike(const std::vector<NodeId>& victims, double repair, bool work_recorded, bool fenced) {
  const double now = sg4::Engine::get_clock();
  const FailureId id = failures_.recoveries.next_id();
  for (NodeId victim : victims) {
    const ClusterId c = platform_.layout.cluster_of(victim);
    if (!work_recorded)
      endpoints_.death_work[victim] = endpoints_.runtimes[victim] ? endpoints_.runtimes[victim]->current_work() : 0.0;
    // The victim's step under way counted as done (progress is otherwise noted at step ends).
    if (victim < num_nodes()) ending_.termination.note_progress(victim, endpoints_.death_work[victim], 0, now);
    observe_.trace.emit(0, now, "failure",
                        {{"failure", id},
                         {"node", victim},
                         {"host", shrinking() ? host_of(victim)->get_name() : platform_.layout.host_name(victim)},
                         {"cluster", c},
                         {"repair", repair}});
    observe_.stats.add("failures");
    observe_.stats.add_cluster("failures", c);
    observe_.stats.record("failures", {{"id", id},
                                       {"date", now},
                                       {"node", victim},
                                       {"host", platform_.layout.host_name(victim)},
                                       {"cluster", c},
                                       {"work_lost_at_victim", endpoints_.death_work[victim]}});
  }
  for (NodeId victim : victims) {
    if (failures_.suspicions) failures_.suspicions->forget(victim); // the monitor waits for it no more
    endpoints_.up[victim] = false;
    set_state(victim, "down");
    failures_.nodes_down++;
    set_app_finished(victim, false);
    set_computing(victim, false);
    set_quiet(victim, false);
    set_recovering(victim, false); // its agent is gone; the restarted one speaks for it
  }
  std::vector<NodeId> reporters;
  for (NodeId n = 0; n < num_nodes(); n++)
    if (endpoints_.up[n]) reporters.push_back(n);
  failures_.recoveries.strike(victims, now, reporters);
  update_engine_waiting();
  update_held();
  // When this strike leaves no endpoint running (every node at once, no service), nothing but
  // daemons would be alive once the hosts are off, and SimGrid would end the simulation at the
  // next simcall of this (daemon) failure injector, before the detection and the restart below
  // exist: a non-daemon guard holds it until they do.
  sg4::ActorPtr guard;
  if (std::none_of(endpoints_.up.begin(), endpoints_.up.end(), [](auto up) { return bool(up); }))
    guard = sg4::Actor::create("strike-guard", platform_.controller, [] { sg4::this_actor::suspend(); });
  for (NodeId victim : victims) {
    wire_.purge(victim);
    storage_.store().holder_failed(victim); // its memory is gone: its own copies and those it held for others
    // A message posted at this very date is handled by SimGrid after the host is off: with the
    // dead actor still the mailbox's eager receiver, SimGrid would start it towards the off host
    // and abort (CommImpl::start asserts the host is on). Without a receiver it just stays
    // queued, unread.
    wire_.mailbox(victim, endpoints_.incarnation[victim])->set_receiver(nullptr);
    if (host_of(victim)->is_on()) host_of(victim)->turn_off(); // off already: the other process of a shared host
    wire_.proxies().host_failed(victim);
  }

  const auto& f = inputs_.topology.failures;
  const double detected_after = fenced ? 0.0 : detection_delay(f, now); // a suspicion is its detection
  sg4::Actor::create("detect-" + std::to_string(id), platform_.controller, [this, id, d = detected_after] {
    sg4::this_actor::sleep_for(d);
    detect(id);
  });
  // Under shrink the host never comes back: the process is relaunched on a survivor once the failure
  // is detected (the LAM/MPI paper's mpirun, cr_wait then lb_fault_app), the repair time after that.
  const double restart_after = shrinking() ? detected_after + repair : repair;
  ending_.termination.note_stillness(std::max(detected_after, restart_after) + f.restart_overhead, now);
  sg4::Actor::create("restart-" + std::to_string(id), platform_.controller, [this, id, d = restart_after, fenced] {
    sg4::this_actor::sleep_for(d);
    if (fenced)
      restart_when_routed(id);
    else
      restart(id);
  });
  if (guard) guard->kill();
  for (auto rid = failures_.recoveries.open_after(0); rid; rid = failures_.recoveries.open_after(*rid))
    if (*rid != id) maybe_finish_recovery(*rid);
}

void Run::detect(FailureId id) {
  if (ending_.end.over()) return;
  const Recovery& rec = failures_.recoveries.at(id);
  if (rec.victims.size() == 1)
    observe_.trace.emit(1, sg4::Engine::get_clock(), "failure_detected", {{"failure", id}, {"node", rec.victims[0]}});
  else
    observe_.trace.emit(1, sg4::Engine::get_clock(), "failure_detected", {{"failure", id}, {"nodes", rec.victims}});
  failures_.recoveries.detect(id);
  update_engine_waiting();
  // One by one: sending a signal yields to other actors, which may strike the next endpoint.
  for (NodeId e = 0; e < num_endpoints(); e++) {
    if (rec.struck(e) || !endpoints_.up[e]) continue; // a victim hears of its failure by restarting
    failures_.recoveries.notice_sent(id, e);
    send_signal(e, Signal{Signal::Kind::FailureNotice, id, rec.victims, rec.date});
  }
  maybe_finish_recovery(id);
}

void Run::send_signal(NodeId endpoint, Signal signal) {
  // Under shrink a host that runs two processes goes off with the first one's strike; the second
  // one's strike follows at the same date (no actor can start on a host that is off).
  if (!host_of(endpoint)->is_on()) return;
  auto* env = new Envelope(); // owned by the receiver once delivered (Run::take)
  env->kind = Envelope::Kind::Signal;
  env->signal = signal;
  sg4::Mailbox* mb = wire_.mailbox(endpoint, endpoints_.incarnation[endpoint]);
  // A helper on the node's own host: the signal crosses only the zero-latency loopback.
  sg4::Actor::create("signal", host_of(endpoint), [mb, env] {
    std::unique_ptr<Envelope> owned(env); // freed here unless the node takes it
    try {
      mb->put(env, 0);
      owned.release();
    } catch (const simgrid::NetworkFailureException&) {
      // The node was struck while the signal crossed its loopback: it would not have acted on it.
    }
  });
}

void Run::update_engine_waiting() {
  // Fenced nodes waiting for a route to the monitor wait for a link's repair: pending only if the
  // schedule holds one (links_.waits_for_repair(): they are among its holders).
  std::size_t fenced = 0;
  for (const auto& [id, victims] : failures_.fenced_waiting) fenced += victims.size();
  ending_.termination.set_engine_waiting(failures_.nodes_down > static_cast<int>(fenced) ||
                                             failures_.recoveries.awaiting_detection() || links_.waits_for_repair(),
                                         sg4::Engine::get_clock());
}

void Run::restart(FailureId id) {
  if (ending_.end.over()) return;
  const Recovery& rec = failures_.recoveries.at(id);
  // Every victim of the event comes back now (one repair time per event), then they start.
  for (NodeId v : rec.victims) {
    if (!place_restart(v)) return; // shrink with no surviving node: the run ended
    endpoints_.incarnation[v]++;
    endpoints_.up[v] = true;
    failures_.nodes_down--;
    failures_.recoveries.restarting(id, v);
  }
  const double now = sg4::Engine::get_clock();
  ending_.termination.busy_until(now, now + inputs_.topology.failures.restart_overhead);
  update_engine_waiting();
  const FailureNotice own{id, rec.victims, rec.date, std::max(failures_.recoveries.latest_detected(), id),
                          failures_.recoveries.not_back(id)};
  for (NodeId v : rec.victims) start_node(v, true, own);
  if (failures_.suspicions) {
    for (NodeId v : rec.victims) failures_.suspicions->started(v, now);
    check_routes(); // a node restarted behind a cut link is not heard either
  }
}

void Run::start_node(NodeId endpoint, bool restarted, FailureNotice notice) {
  sg4::Actor::create(endpoint_name(endpoint), host_of(endpoint), [this, endpoint, restarted, notice] {
    NodeRuntime rt(*node_env_, NodeStart{endpoint, restarted, notice, cpu_share(endpoint), death_work(endpoint)});
    rt();
  });
}

void Run::notice_processed(FailureId id, NodeId node) {
  if (failures_.recoveries.notice_processed(id, node)) maybe_finish_recovery(id);
}

void Run::restart_complete(FailureId id, NodeId node) {
  for (FailureId rid : failures_.recoveries.restart_complete(id, node)) maybe_finish_recovery(rid);
}

void Run::node_recovered(FailureId up_to, NodeId node) {
  for (FailureId rid : failures_.recoveries.node_recovered(up_to, node)) maybe_finish_recovery(rid);
}

void Run::maybe_finish_recovery(FailureId id) {
  const Recovery& rec = failures_.recoveries.at(id);
  // Once every victim runs again and everybody was told of the failure, everybody (the victims
  // included) is told they are back: the moment a global restart may go on.
  const bool victims_up =
      std::all_of(rec.victims.begin(), rec.victims.end(), [&](NodeId v) { return bool(endpoints_.up[v]); });
  if (failures_.recoveries.send_back_now(id, victims_up))
    for (NodeId e = 0; e < num_endpoints(); e++)
      if (endpoints_.up[e]) send_signal(e, Signal{Signal::Kind::NodeBack, id, rec.victims, rec.date});
  if (failures_.recoveries.end_now(id, quiescent())) recovery_done(id);
}

void Run::recovery_done(FailureId id) {
  const Recovery& rec = failures_.recoveries.at(id);
  update_held();
  update_engine_waiting();
  const double now = sg4::Engine::get_clock();
  observe_.stats.add("recovery_time", now - rec.date);
  const auto rolled_back = static_cast<double>(rec.rolled_back.size());
  observe_.stats.add("recoveries_done");
  observe_.stats.add("rolled_back_processes", rolled_back);
  nlohmann::ordered_json record{{"failure", id}, {"victim", rec.victims.front()}};
  if (rec.victims.size() > 1) record["victims"] = rec.victims; // "victim" is the first of them
  record["start"] = rec.date;
  record["end"] = now;
  record["duration"] = now - rec.date;
  record["rolled_back"] = rolled_back;
  observe_.stats.record("recoveries", record);
  observe_.trace.emit(0, now, "recovery_done", {{"failure", id}, {"duration", now - rec.date}});
  if (failures_.recoveries.open() == 0) {
    // Checked only when no other recovery is under way: a half-done recovery is not a state.
    observe_.check_consistency(false, fmt::format("after the recovery of failure {} (at {})", id, rec.date));
    if (!failures_.deferred.empty())
      sg4::Actor::create("release-deferred", platform_.controller, [this] { release_deferred(); });
  }
}

void Run::node_rolled_back(NodeId node, double state_date) {
  failures_.recoveries.node_rolled_back(node);
  ending_.termination.note_rollback(state_date);
}

void Run::release_deferred() {
  while (!failures_.deferred.empty() && failures_.recoveries.open() == 0 && !ending_.end.over()) {
    DeferredFailure d = std::move(failures_.deferred.front());
    failures_.deferred.pop_front();
    update_held();
    failure_arrival(std::move(d.victims), d.repair, true, d.fenced);
  }
}

void Run::unrecoverable(NodeId node, const std::string& what) {
  end_unrecoverable(what, {{"node", node}, {"reason", what}});
}

} // namespace ckptsim
