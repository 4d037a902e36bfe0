#include "sim/node/node_runtime.hpp"

#include "sim/engine/run.hpp"

#include <simgrid/Exception.hpp>

#include <cmath>
#include <limits>

namespace ckptsim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
// Deadlines within this of the clock are due: SimGrid finishes actions within 1e-9 s.
constexpr double kDateEpsilon = 1e-9;

nlohmann::ordered_json message_json(const AppMessage& m) {
  nlohmann::ordered_json j{
      {"msg", std::to_string(m.src) + "#" + std::to_string(m.seq)}, {"src", m.src}, {"dst", m.dst}, {"size", m.size}};
  if (!m.label.empty()) j["label"] = m.label;
  return j;
}
} // namespace

NodeRuntime::NodeRuntime(Run& run, NodeId id, bool restarted, FailureNotice notice)
    : run_(run)
    , id_(id)
    , service_(id >= run.num_nodes())
    , cluster_(service_ ? -1 : run.layout().cluster_of(id))
    , inc_(run.incarnation(id))
    , restarted_(restarted)
    , notice_(notice)
    , speed_factor_(service_ ? 1.0 : run.layout().cluster(cluster_).speed / 1e9)
    , agent_(run.protocol().make_agent(id, service_))
    , fresh_after_failure_(restarted) {
  if (!service_) {
    app_ = run.workload().initial_state(id, run.config().options.seed);
    if (restarted) {
      paused_ = true; // a restarted process runs only once its protocol has restored it
      work_at_death_ = run.death_work_[id];
    }
  }
}

NodeRuntime::~NodeRuntime() { run_.unregister_runtime(id_, this); }

const FederationLayout& NodeRuntime::layout() const { return run_.layout(); }
double NodeRuntime::now() const { return sg4::Engine::get_clock(); }
Stats& NodeRuntime::stats() { return run_.stats(); }
Trace& NodeRuntime::trace() { return run_.trace(); }

void NodeRuntime::trace_event(int level, const char* event, nlohmann::ordered_json fields) {
  if (!run_.trace().enabled(level)) return;
  nlohmann::ordered_json j{{"node", id_}};
  for (auto& [k, v] : fields.items()) j[k] = v;
  run_.trace().emit(level, now(), event, j);
}

void NodeRuntime::operator()() {
  run_.register_runtime(id_, this);
  mailbox_ = run_.mailbox(id_, inc_);
  // Eager mailbox: transfers to this node start when they are sent, concurrently, as on a real
  // NIC; without it each transfer would wait for the previous one to be received. Safe because
  // the engine never sends to the mailbox of a dead incarnation (the abort trap of DESIGN.md).
  mailbox_->set_receiver(sg4::Actor::self());
  post_receive();
  if (restarted_) {
    trace_event(0, "restart", {{"failure", notice_.id}, {"incarnation", inc_}});
    agent_->on_restart(*this, notice_);
  } else {
    agent_->on_start(*this);
  }
  pump();
  update_quiet();
  loop();
  cleanup();
}

void NodeRuntime::post_receive() {
  recv_buf_ = nullptr;
  recv_ = mailbox_->get_async<Envelope>(&recv_buf_);
}

void NodeRuntime::loop() {
  while (!stop_ && !run_.over()) {
    double next = compute_end();
    for (const auto& [timer, date] : timers_) next = std::min(next, date);
    // A negative timeout means "forever" to SimGrid: clamp computed ones at 0.
    const double timeout = std::isinf(next) ? -1.0 : std::max(0.0, next - now());
    ssize_t idx = -1;
    try {
      idx = sg4::Comm::wait_any_for(std::vector<sg4::CommPtr>{recv_}, timeout);
    } catch (const simgrid::NetworkFailureException&) {
      post_receive(); // the sender died during the transfer: the message is lost
      continue;
    }
    run_.next_event_count();
    if (idx == 0) {
      Envelope* env = recv_buf_;
      post_receive();
      handle(run_.take(env));
    } else {
      fire_due();
    }
    pump();
    reap_sends();
    update_quiet();
    if (run_.try_terminate()) break;
  }
}

void NodeRuntime::cleanup() {
  mailbox_->set_receiver(nullptr);
  if (recv_) recv_->cancel();
  for (auto& [wire, comm] : sends_)
    if (!comm->test()) comm->cancel();
  sends_.clear();
}

void NodeRuntime::handle(std::unique_ptr<Envelope> env) {
  if (!env) return;
  if (env->kind == Envelope::Kind::Signal) {
    handle_signal(*env);
    return;
  }
  for (auto& e : chan_in_.accept(std::move(env))) {
    if (e->kind == Envelope::Kind::App) {
      if (run_.trace().enabled(2)) {
        auto j = message_json(e->app);
        if (e->piggyback) j["piggyback"] = e->piggyback->to_json();
        trace_event(2, "app_receive", j);
      }
      agent_->on_app_receive(*this, e->app, e->piggyback);
    } else {
      if (run_.trace().enabled(2)) {
        nlohmann::ordered_json j{{"type", e->control.type}, {"from", e->src}};
        if (e->control.body) j["body"] = e->control.body->to_json();
        trace_event(2, "ctrl_receive", j);
      }
      agent_->on_control(*this, e->src, e->control);
    }
  }
}

void NodeRuntime::handle_signal(const Envelope& env) {
  if (env.signal.kind == Signal::Kind::Stop) {
    stop_ = true;
    return;
  }
  FailureNotice notice{env.signal.failure, env.signal.victim, env.signal.failure_date, env.signal.failure, {}};
  if (env.signal.kind == Signal::Kind::NodeBack) {
    trace_event(2, "node_back", {{"failure", notice.id}, {"victim", notice.victim}});
    agent_->on_node_back(*this, notice);
    return;
  }
  chan_in_.forget(notice.victim); // its stream is broken: what it sent and we buffered will never complete
  trace_event(2, "failure_notice", {{"failure", notice.id}, {"victim", notice.victim}});
  agent_->on_failure_detected(*this, notice);
  run_.notice_processed(notice.id, id_);
}

double NodeRuntime::compute_end() const {
  if (!computing_ || paused_) return kInf;
  return accounted_at_ + app_->step_remaining / speed_factor_;
}

void NodeRuntime::progress() {
  if (service_ || !computing_ || paused_) return;
  const double t = now();
  const double w = std::min(app_->step_remaining, (t - accounted_at_) * speed_factor_);
  if (w > 0) {
    app_->step_remaining -= w;
    app_->work_done += w;
  }
  accounted_at_ = t;
}

void NodeRuntime::fire_due() {
  const double t = now();
  if (computing_ && !paused_ && compute_end() <= t + kDateEpsilon) finish_step();
  // Timers due now fire in date order, then id order (deterministic).
  while (true) {
    auto due = timers_.end();
    for (auto it = timers_.begin(); it != timers_.end(); ++it)
      if (it->second <= t + kDateEpsilon && (due == timers_.end() || it->second < due->second)) due = it;
    if (due == timers_.end()) break;
    int id = due->first;
    timers_.erase(due);
    trace_event(2, "timer", {{"timer", id}});
    agent_->on_timer(*this, id);
  }
}

void NodeRuntime::finish_step() {
  progress();
  app_->work_done += app_->step_remaining; // what rounding left of the step
  app_->step_remaining = 0;
  computing_ = false;
}

void NodeRuntime::pump() {
  // Several zero-work steps may follow each other; each iteration either starts a computation,
  // finishes the application, or stops because the protocol paused it.
  while (!service_ && !paused_ && !computing_ && !app_->finished) start_step();
  sync_finished();
}

void NodeRuntime::start_step() {
  std::vector<AppMessage> sends;
  auto work = run_.workload().advance(*app_, id_, sends);
  if (work) {
    app_->step_remaining = *work;
    computing_ = true;
    accounted_at_ = now();
  }
  for (const auto& m : sends) agent_->on_app_send(*this, m);
  if (!work) {
    sync_finished();
    agent_->on_app_finished(*this);
  }
}

void NodeRuntime::sync_finished() {
  if (service_) return;
  if (app_->finished != finished_reported_) {
    finished_reported_ = app_->finished;
    if (finished_reported_) trace_event(1, "app_finished", {{"work", app_->work_done}});
    run_.set_app_finished(id_, finished_reported_);
  }
}

void NodeRuntime::update_quiet() { run_.set_quiet(id_, app_finished() && agent_->idle()); }

double NodeRuntime::work_done() const {
  if (service_) return 0;
  double w = app_->work_done;
  if (computing_ && !paused_) w += std::min(app_->step_remaining, (now() - accounted_at_) * speed_factor_);
  return w;
}

void NodeRuntime::pause_app() {
  if (paused_) return;
  progress();
  paused_ = true;
}

void NodeRuntime::resume_app() {
  if (!paused_) return;
  paused_ = false;
  accounted_at_ = now();
}

void NodeRuntime::send_app(const AppMessage& msg, PayloadPtr piggyback) {
  run_.oracle().on_send(id_, msg.seq, msg.dst, msg.digest);
  Stats& st = run_.stats();
  st.add("app.sent");
  st.add_matrix("app.messages", cluster_, run_.layout().cluster_of(msg.dst));
  if (run_.trace().enabled(1)) {
    auto j = message_json(msg);
    if (piggyback) j["piggyback"] = piggyback->to_json();
    trace_event(1, "app_send", j);
  }
  auto env = std::make_unique<Envelope>();
  env->kind = Envelope::Kind::App;
  env->dst = msg.dst;
  env->bytes = msg.size + (piggyback ? piggyback->bytes() : 0);
  env->app = msg;
  env->piggyback = std::move(piggyback);
  post(std::move(env));
}

void NodeRuntime::resend_app(const AppMessage& msg, PayloadPtr piggyback) {
  Stats& st = run_.stats();
  st.add("app.resent");
  st.add_matrix("app.replays", cluster_, run_.layout().cluster_of(msg.dst));
  if (run_.trace().enabled(0)) {
    auto j = message_json(msg);
    if (piggyback) j["piggyback"] = piggyback->to_json();
    trace_event(0, "replay", j);
  }
  auto env = std::make_unique<Envelope>();
  env->kind = Envelope::Kind::App;
  env->dst = msg.dst;
  env->bytes = msg.size + (piggyback ? piggyback->bytes() : 0);
  env->app = msg;
  env->piggyback = std::move(piggyback);
  post(std::move(env));
}

void NodeRuntime::deliver(const AppMessage& msg, const PayloadPtr& piggyback) {
  run_.oracle().on_deliver(id_, msg.src, msg.seq, msg.digest);
  run_.workload().deliver(*app_, msg);
  run_.stats().add("app.delivered");
  if (run_.trace().enabled(1)) {
    auto j = message_json(msg);
    if (piggyback) j["piggyback"] = piggyback->to_json();
    trace_event(1, "app_deliver", j);
  }
}

void NodeRuntime::send_control(NodeId to, ControlMessage msg) {
  Stats& st = run_.stats();
  st.add("ctrl.total");
  st.add("ctrl." + msg.type);
  const bool wan = !service_ && to < run_.num_nodes() && run_.layout().cluster_of(to) != cluster_;
  if (wan) st.add("ctrl.wan");
  if (run_.trace().enabled(2)) {
    nlohmann::ordered_json j{{"type", msg.type}, {"to", to}};
    if (msg.body) j["body"] = msg.body->to_json();
    trace_event(2, "ctrl_send", j);
  }
  auto env = std::make_unique<Envelope>();
  env->kind = Envelope::Kind::Control;
  env->dst = to;
  env->bytes = msg.bytes + (msg.body ? msg.body->bytes() : 0);
  env->control = std::move(msg);
  post(std::move(env));
}

void NodeRuntime::post(std::unique_ptr<Envelope> env) {
  env->src = id_;
  env->src_inc = inc_;
  env->dst_inc = run_.incarnation(env->dst);
  env->chan_seq = chan_out_.next(env->dst, env->dst_inc);
  auto sent = run_.post(std::move(env));
  if (sent.second) sends_.push_back(std::move(sent));
}

void NodeRuntime::reap_sends() {
  std::erase_if(sends_, [this](auto& s) {
    try {
      return s.second->test();
    } catch (const simgrid::NetworkFailureException&) {
      run_.drop(s.first); // the receiver died during the transfer: the message is lost
      return true;
    }
  });
}

double NodeRuntime::timer_period(const std::string& name) const {
  if (service_) return run_.timers().cluster_period(name, "");
  return run_.timers().period(name, run_.layout().cluster(cluster_).name, run_.layout().host_name(id_));
}

Snapshot NodeRuntime::snapshot(std::any protocol_state) {
  progress();
  Snapshot s;
  if (!service_) s.app = app_;
  s.protocol = std::move(protocol_state);
  s.date = now();
  s.oracle_position = service_ ? 0 : run_.oracle().position(id_);
  return s;
}

Snapshot NodeRuntime::initial_snapshot() {
  Snapshot s;
  if (!service_) s.app = run_.workload().initial_state(id_, run_.config().options.seed);
  return s;
}

void NodeRuntime::restore(const Snapshot& s, const std::string& reason) {
  if (service_) return;
  progress();
  const double before = fresh_after_failure_ ? work_at_death_ : app_->work_done;
  const double lost = std::max(0.0, before - s.app->work_done);
  Stats& st = run_.stats();
  st.add("rollbacks");
  st.add("lost_work", lost);
  st.add_cluster("lost_work", cluster_, lost);
  run_.oracle().truncate(id_, s.oracle_position);
  app_ = s.app;
  if (!run_.application().deterministic) // re-execution draws fresh numbers: no piecewise determinism
    app_->rng.reseed(mix_seed(run_.config().options.seed, static_cast<std::uint64_t>(id_) << 20 | inc_, ++restores_));
  computing_ = app_->step_remaining > 0;
  accounted_at_ = now();
  fresh_after_failure_ = false;
  trace_event(0, "rollback", {{"to_date", s.date}, {"work", app_->work_done}, {"lost", lost}, {"reason", reason}});
  sync_finished();
}

double NodeRuntime::restart_overhead() const { return run_.topology().failures.restart_overhead; }

void NodeRuntime::restart_complete() {
  trace_event(1, "restart_complete", {{"failure", notice_.id}});
  run_.restart_complete(notice_.id, id_);
}

void NodeRuntime::recovery_done(FailureId id) { run_.recovery_done(id); }

} // namespace ckptsim
