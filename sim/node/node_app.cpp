/* NodeRuntime's side of the application (NodeContext's application calls and the engine's
 * snapshots): the executor (app_executor.hpp) keeps the clock and the steps; this file tells the
 * agent what they bring (a point, messages to send, a stop, the end) and the run what it counts
 * (finished processes, result digests, lost work, rollbacks). */
#include "sim/node/node_runtime.hpp"
#include "sim/node/ports.hpp"

namespace ckptsim {

void NodeRuntime::finish_step() {
  app_.finish_step(now());
  env_.lifecycle.note_progress(id_, app_.state()->work_done, app_.state()->delivered);
}

void NodeRuntime::pump() {
  if (app_.stopped_at_step_end(now())) agent_->on_app_stopped(*this); // the step under way when asked is over
  // Several zero-work steps may follow each other; each iteration either starts a computation,
  // finishes the application, waits for a message, or stops because the protocol paused it.
  while (!service_ && app_.runnable()) start_step();
  release_held();
  sync_finished();
  // This process may have posted receives that senders hold messages for (rendezvous kinds only:
  // the others hold nothing, and at 100,000 nodes the board's lookup is a cache miss per wake-up).
  if (!service_ && env_.inputs.workload.rendezvous() && !dead()) env_.rendezvous.posted_by(id_);
}

void NodeRuntime::start_step() {
  if (auto point = app_.take_point()) {
    trace_event(2, "app_point", {{"kind", point->kind}, {"number", point->number}});
    agent_->on_app_point(*this, *point);
    if (!app_.runnable()) return; // the agent stopped the process here
  }
  std::vector<AppMessage> sends;
  const bool computes = app_.start_step(now(), sends);
  for (const auto& m : sends) send_produced(m);
  if (!computes && app_.finished()) {
    sync_finished();
    agent_->on_app_finished(*this);
  }
}

void NodeRuntime::send_produced(const AppMessage& produced) {
  if (!env_.inputs.workload.rendezvous()) {
    release(produced);
    return;
  }
  AppMessage msg = produced;
  msg.chan = app_.mutable_state().produced[msg.dst]++;
  if (!env_.rendezvous.receive_posted(msg)) {
    app_.hold(msg);
    if (env_.observe.trace.enabled(2)) trace_event(2, "app_send_held", message_fields(msg));
    return;
  }
  release(msg);
}

void NodeRuntime::release(const AppMessage& msg) {
  if (msg.chan && app_.holding()) {
    // The messages to the same receiver it overtakes: produced before it, still held.
    AppMessage m = msg;
    for (const auto& h : app_.state()->held)
      if (h.dst == m.dst && h.chan && *h.chan < *m.chan) m.overtook.push_back(*h.chan);
    agent_->on_app_send(*this, m);
    return;
  }
  agent_->on_app_send(*this, msg);
}

void NodeRuntime::release_held() {
  // A paused application sends nothing (its protocol may be taking its checkpoint): it releases
  // what it holds when it resumes, and awaits its receivers again then.
  if (service_ || !app_.holding() || app_.paused() || dead()) return;
  // Awaited first: releasing makes SimGrid calls, during which a receiver may post one of the
  // messages still held; registered already, the holder gets its wake-up (else it would wait for
  // its next own event). A pair no longer held is dropped by the receiver's next check.
  for (const auto& m : app_.state()->held) env_.rendezvous.await_post(m.dst, id_);
  std::vector<AppMessage> ready;
  app_.take_releasable([this](const AppMessage& m) { return env_.rendezvous.receive_posted(m); }, ready);
  for (const auto& m : ready) release(m);
  if (!ready.empty() && app_.finished()) { // its last held messages were its last actions
    sync_finished();
    agent_->on_app_finished(*this);
  }
}

bool NodeRuntime::holds_posted_for(NodeId receiver) const {
  if (service_ || !app_.state()) return false;
  for (const auto& m : app_.state()->held)
    if (m.dst == receiver && env_.rendezvous.receive_posted(m)) return true;
  return false;
}

void NodeRuntime::send_done(std::uint64_t awaited) { app_.send_done(awaited); }

void NodeRuntime::sync_finished() {
  if (service_ || dead()) return;
  const auto finished = app_.finished_change();
  if (!finished) return;
  if (*finished) {
    const std::uint64_t digest = env_.inputs.workload.result_digest(*app_.state());
    env_.lifecycle.set_result_digest(id_, digest);
    nlohmann::ordered_json j{{"work", app_.state()->work_done}};
    if (digest != 0) j["checksum"] = digest;
    trace_event(1, "app_finished", j);
  }
  env_.lifecycle.set_app_finished(id_, *finished);
}

void NodeRuntime::set_cpu_share(int processes) {
  app_.set_share(processes, now());
  if (processes > 1) trace_event(1, "cpu_share", {{"processes", processes}});
}

void NodeRuntime::pause_app() { app_.pause(now()); }
void NodeRuntime::resume_app() { app_.resume(now()); }
bool NodeRuntime::stop_app_between_steps() { return app_.stop_between_steps(now()); }

Snapshot NodeRuntime::snapshot(std::any protocol_state) {
  app_.progress(now());
  Snapshot s;
  if (!service_) s.app = app_.state();
  s.protocol = std::move(protocol_state);
  s.date = now();
  if (!service_) s.history = env_.observe.oracle.mark(id_);
  return s;
}

Snapshot NodeRuntime::initial_snapshot() {
  Snapshot s;
  if (!service_) s.app = env_.inputs.workload.initial_state(id_, env_.inputs.seed);
  return s;
}

void NodeRuntime::restore(const Snapshot& s, const std::string& reason) {
  if (service_) return;
  outbox_.forget_awaited(); // the restored process waits for none of the transfers under way
  // The work of a step under way counts as done before it is lost (progress is otherwise noted at
  // step ends): the watchdog allows the redo from there.
  if (!dead()) env_.lifecycle.note_progress(id_, current_work(), app_.state()->delivered);
  const double lost = app_.restore(s.app, now());
  Stats& st = env_.observe.stats;
  st.add("rollbacks");
  if (!dead()) env_.lifecycle.node_rolled_back(id_, s.date);
  st.add("lost_work", lost);
  st.add_cluster("lost_work", cluster_, lost);
  env_.observe.oracle.truncate(id_, s.history ? s.history->position : 0);
  if (!env_.inputs.deterministic) // re-execution draws fresh numbers: no piecewise determinism
    app_.mutable_state().rng.reseed(
        mix_seed(env_.inputs.seed, static_cast<std::uint64_t>(id_) << 20 | inc_, ++restores_));
  trace_event(0, "rollback",
              {{"to_date", s.date}, {"work", app_.state()->work_done}, {"lost", lost}, {"reason", reason}});
  sync_finished();
}

double NodeRuntime::checkpoint_bytes() const {
  if (service_) return 0.0;
  const double from_data = env_.inputs.workload.state_bytes(*app_.state());
  return from_data >= 0 ? from_data : env_.inputs.topology.clusters[cluster_].checkpoint_size;
}

} // namespace ckptsim
