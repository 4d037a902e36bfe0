#include "sim/node/node_runtime.hpp"

#include "sim/node/ports.hpp"

#include <simgrid/Exception.hpp>

#include <cmath>
#include <limits>

namespace ckptsim {

namespace {
constexpr std::size_t kWaitedSends = 8;
} // namespace

NodeRuntime::NodeRuntime(NodeEnv& env, const NodeStart& start)
    : env_(env)
    , id_(start.id)
    , service_(start.id >= env.inputs.layout.num_nodes())
    , cluster_(service_ ? -1 : env.inputs.layout.cluster_of(start.id))
    , inc_(env.wire.incarnation(start.id))
    , restarted_(start.restarted)
    , notice_(start.notice)
    , agent_(env.inputs.protocol.make_agent(start.id, service_))
    , app_(env.inputs.workload, start.id,
           service_ ? AppStateValue{} : env.inputs.workload.initial_state(start.id, env.inputs.seed),
           service_ ? 1.0 : env.inputs.layout.speed(start.id) / 1e9, start.cpu_share)
    , outbox_(env, start.id, inc_)
    , transfers_(env, *this, start.id, inc_, cluster_) {
  // A restarted process runs only once its protocol has restored it.
  if (!service_ && restarted_) app_.restarted(start.death_work);
}

NodeRuntime::~NodeRuntime() { env_.lifecycle.unregister_runtime(id_, this); }

const FederationLayout& NodeRuntime::layout() const { return env_.inputs.layout; }
double NodeRuntime::now() const { return sg4::Engine::get_clock(); }
Stats& NodeRuntime::stats() { return env_.observe.stats; }

void NodeRuntime::trace_event(int level, const char* event, nlohmann::ordered_json fields) {
  if (!env_.observe.trace.enabled(level)) return;
  nlohmann::ordered_json j{{"node", id_}};
  for (auto& [k, v] : fields.items()) j[k] = v;
  env_.observe.trace.emit(level, now(), event, j);
}

void NodeRuntime::operator()() {
  actor_ = sg4::Actor::self();
  env_.lifecycle.register_runtime(id_, this);
  mailbox_ = env_.wire.mailbox(id_, inc_);
  // Eager mailbox: transfers to this node start when they are sent, concurrently, as on a real
  // NIC; without it each transfer would wait for the previous one to be received. Safe because
  // the engine never sends to the mailbox of a dead incarnation (the abort trap of DESIGN.md).
  mailbox_->set_receiver(sg4::Actor::self());
  post_receive();
  if (!service_ && env_.inputs.workload.rendezvous()) {
    bell_mb_ = env_.wire.bell(id_, inc_);
    post_bell();
  }
  if (restarted_) {
    trace_event(0, "restart", {{"failure", notice_.id}, {"incarnation", inc_}});
    agent_->on_restart(*this, notice_);
  } else {
    agent_->on_start(*this);
  }
  report_io();
  pump();
  update_quiet();
  loop();
  cleanup();
}

void NodeRuntime::post_receive() {
  env_.wire.proxies().consumed(recv_via_); // the previous receive, if any, is over
  recv_buf_ = nullptr;
  recv_ = env_.wire.proxies().get_async(id_, mailbox_, reinterpret_cast<void**>(&recv_buf_), recv_via_);
}

void NodeRuntime::post_bell() { bell_ = bell_mb_->get_async(&bell_buf_); }

void NodeRuntime::loop() {
  while (!stop_ && !env_.lifecycle.over() && !dead()) {
    double next = app_.compute_end();
    for (const auto& [timer, date] : timers_) next = std::min(next, date);
    next = std::min(next, transfers_.next_deadline());
    // A negative timeout means "forever" to SimGrid: clamp computed ones at 0.
    const double timeout = std::isinf(next) ? -1.0 : std::max(0.0, next - now());
    wait_and_dispatch(timeout);
    report_io();
    pump();
    update_quiet();
    if (env_.lifecycle.try_terminate()) break;
  }
}

void NodeRuntime::wait_and_dispatch(double timeout) {
  // Outgoing sends are waited on too: in SimGrid 3.32 a comm completed through test() stays in
  // its actor's activity list for good, which made every later completion walk an ever longer
  // list (time quadratic in the messages sent, memory never freed).
  // waited_ keeps its capacity from one wake-up to the next: no allocation per wake-up.
  waited_.push_back(recv_);
  if (bell_) waited_.push_back(bell_);
  const auto first_transfer = static_cast<ssize_t>(waited_.size());
  transfers_.add_comms(waited_);
  const auto first_send = static_cast<ssize_t>(waited_.size());
  // Only the oldest few: waiting on a comm costs SimGrid a walk of the waited set, and a
  // broadcast leaves N sends behind; finished ones come back at once, a few per wake-up. After a
  // link failure, all of them once: SimGrid reports a cut transfer only to a wait that includes it.
  const std::uint64_t cuts = env_.wire.link_cuts();
  outbox_.add_waited(waited_, cuts != seen_cuts_ ? std::numeric_limits<std::size_t>::max() : kWaitedSends);
  seen_cuts_ = cuts;
  ssize_t idx = -1;
  try {
    idx = sg4::Comm::wait_any_for(waited_, timeout);
    waited_.clear();
  } catch (const simgrid::NetworkFailureException&) {
    waited_.clear();
    // A peer died or a link failed during a transfer: find which comm failed (test() is fine on
    // this rare path).
    if (recv_->get_state() == sg4::Activity::State::FAILED) post_receive(); // a message lost with its sender
    if (bell_ && bell_->get_state() == sg4::Activity::State::FAILED) post_bell();
    transfers_.settle_after_failure();
    std::vector<std::uint64_t> lost;
    outbox_.drop_failed(lost);
    for (std::uint64_t seq : lost) send_done(seq); // a lost message waits for nothing more
    return;
  }
  env_.wire.next_event_count();
  if (idx == 0) {
    Envelope* env = recv_buf_;
    post_receive();
    // Work due at this very date completes before a message arriving at it is handled: a
    // checkpoint request that arrives as a step ends finds the step done.
    if (app_.step_due(now())) {
      finish_step();
      pump();
    }
    handle(env_.wire.take(env));
  } else if (bell_ && idx == 1) { // a receiver posted for a held message: the loop's pump sends it
    post_bell();
    env_.rendezvous.woken(id_);
  } else if (idx >= first_transfer && idx < first_send) {
    transfers_.finished(static_cast<std::size_t>(idx - first_transfer), true);
  } else if (idx >= first_send) {
    // In the receiver's mailbox: a send the application waits for is complete.
    const std::uint64_t awaited = outbox_.delivered(static_cast<std::size_t>(idx - first_send));
    if (awaited != Outbox::kNotAwaited) send_done(awaited);
  } else {
    fire_due();
  }
}

void NodeRuntime::cleanup() {
  transfers_.cancel_all();
  mailbox_->set_receiver(nullptr);
  if (recv_) recv_->cancel();
  if (bell_) bell_->cancel();
  env_.wire.proxies().consumed(recv_via_);
  recv_via_ = nullptr;
  outbox_.cancel_all();
}

void NodeRuntime::handle_signal(const Envelope& env) {
  if (env.signal.kind == Signal::Kind::Stop) {
    stop_ = true;
    return;
  }
  if (env.signal.kind == Signal::Kind::Network) { // a link came back: what waited for a route goes
    std::vector<std::uint64_t> lost;
    outbox_.retry_held(lost);
    for (std::uint64_t seq : lost) send_done(seq);
    transfers_.retry_held();
    return;
  }
  FailureNotice notice{env.signal.failure, env.signal.victims, env.signal.failure_date, env.signal.failure, {}};
  if (env.signal.kind == Signal::Kind::NodeBack) {
    trace_event(2, "node_back", {{"failure", notice.id}, {"victims", notice.victims}});
    agent_->on_node_back(*this, notice);
    return;
  }
  // Their streams are broken: what they sent and we buffered will never complete.
  for (NodeId v : notice.victims) env_.wire.channel_forget(id_, inc_, v);
  trace_event(2, "failure_notice", {{"failure", notice.id}, {"victims", notice.victims}});
  agent_->on_failure_detected(*this, notice);
  if (dead()) return;
  // What the notice made of the agent counts before the notice does: processing the last notice
  // may end the recovery, which must see this node recovering if it now is.
  env_.lifecycle.set_recovering(id_, agent_->recovering());
  env_.lifecycle.notice_processed(notice.id, id_);
}

void NodeRuntime::fire_due() {
  const double t = now();
  if (app_.step_due(t)) finish_step();
  transfers_.fire_due(t);
  // Timers due now fire in date order, then id order (deterministic).
  while (true) {
    auto due = timers_.end();
    for (auto it = timers_.begin(); it != timers_.end(); ++it)
      if (it->second <= t + AppExecutor::kDateEpsilon && (due == timers_.end() || it->second < due->second)) due = it;
    if (due == timers_.end()) break;
    int id = due->first;
    timers_.erase(due);
    trace_event(2, "timer", {{"timer", id}});
    agent_->on_timer(*this, id);
  }
}

bool NodeRuntime::dead() const { return !env_.wire.alive(id_, inc_); }

void NodeRuntime::update_quiet() {
  if (dead()) return; // struck at this date: the run already counts it down
  if (!service_) env_.lifecycle.set_computing(id_, app_.computing() && !app_.paused());
  env_.lifecycle.set_quiet(id_, app_finished() && agent_->idle());
  env_.lifecycle.set_recovering(id_, agent_->recovering());
  if (!service_) env_.lifecycle.set_state(id_, process_state());
  env_.lifecycle.recheck_recoveries();
}

const char* NodeRuntime::process_state() const {
  if (agent_->recovering()) return "recovering";
  if (app_.finished()) return "finished";
  if (app_.paused()) return "blocked"; // by its protocol: a checkpoint, a restore, a restart
  return app_.computing() ? "computing" : "waiting";
}

void NodeRuntime::report_io() {
  while (!env_.lifecycle.over()) {
    const auto done = transfers_.next_completed();
    if (!done) break;
    if (done->save) {
      agent_->on_saved(*this, done->number);
      continue;
    }
    const auto* entry = env_.storage.store().find(id_, done->number);
    if (!entry) { // discarded meanwhile
      env_.storage.unrecoverable(id_, done->number);
      return;
    }
    Snapshot copy = entry->snapshot;
    agent_->on_loaded(*this, done->number, copy);
  }
}

double NodeRuntime::timer_period(const std::string& name) const {
  if (service_) return env_.inputs.timers.cluster_period(name, "");
  return env_.inputs.timers.period(name, env_.inputs.layout.cluster(cluster_).name, env_.inputs.layout.host_name(id_));
}

std::optional<std::uint64_t> NodeRuntime::recovery_line(const std::vector<std::uint64_t>& numbers) {
  return env_.storage.recovery_line(id_, numbers);
}

double NodeRuntime::restart_overhead() const { return env_.inputs.topology.failures.restart_overhead; }

void NodeRuntime::unrecoverable(const std::string& what) { env_.lifecycle.unrecoverable(id_, what); }

void NodeRuntime::restart_complete() {
  trace_event(1, "restart_complete", {{"failure", notice_.id}});
  if (dead()) return;
  env_.lifecycle.set_recovering(id_, agent_->recovering());
  env_.lifecycle.restart_complete(notice_.id, id_);
}

void NodeRuntime::recovered(FailureId id) {
  if (dead()) return;
  env_.lifecycle.set_recovering(id_, agent_->recovering());
  env_.lifecycle.node_recovered(id, id_);
}

} // namespace ckptsim
