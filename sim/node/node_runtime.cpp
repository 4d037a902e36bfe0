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
constexpr std::size_t kWaitedSends = 8;

nlohmann::ordered_json message_json(const AppMessage& m, const PayloadPtr& piggyback = nullptr) {
  nlohmann::ordered_json j{
      {"msg", std::to_string(m.src) + "#" + std::to_string(m.seq)}, {"src", m.src}, {"dst", m.dst}, {"size", m.size}};
  if (!m.label.empty()) j["label"] = m.label;
  if (piggyback) j["piggyback"] = piggyback->to_json();
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
    , full_speed_(service_ ? 1.0 : run.layout().cluster(cluster_).speed / 1e9)
    , speed_factor_(full_speed_ / run.cpu_share(id))
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

NodeRuntime::~NodeRuntime() {
  // Killed by its host's failure: the copies it was restoring will not arrive.
  for (const auto& io : io_)
    if (io.replica) run_.replica_finished();
  run_.unregister_runtime(id_, this);
}

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
  report_io();
  pump();
  update_quiet();
  loop();
  cleanup();
}

void NodeRuntime::post_receive() {
  run_.proxies().consumed(recv_via_); // the previous receive, if any, is over
  recv_buf_ = nullptr;
  recv_ = run_.proxies().get_async(id_, mailbox_, reinterpret_cast<void**>(&recv_buf_), recv_via_);
}

void NodeRuntime::loop() {
  while (!stop_ && !run_.over() && !dead()) {
    double next = compute_end();
    for (const auto& [timer, date] : timers_) next = std::min(next, date);
    // A negative timeout means "forever" to SimGrid: clamp computed ones at 0.
    const double timeout = std::isinf(next) ? -1.0 : std::max(0.0, next - now());
    wait_and_dispatch(timeout);
    report_io();
    pump();
    update_quiet();
    if (run_.try_terminate()) break;
  }
}

void NodeRuntime::wait_and_dispatch(double timeout) {
  // Outgoing sends are waited on too: in SimGrid 3.32 a comm completed through test() stays in
  // its actor's activity list for good, which made every later completion walk an ever longer
  // list (time quadratic in the messages sent, memory never freed).
  // waited_ keeps its capacity from one wake-up to the next: no allocation per wake-up.
  waited_.push_back(recv_);
  for (const auto& io : io_) waited_.push_back(io.comm);
  // Only the oldest few: waiting on a comm costs SimGrid a walk of the waited set, and a
  // broadcast leaves N sends behind; finished ones come back at once, a few per wake-up.
  const std::size_t waited_sends = std::min<std::size_t>(sends_.size(), kWaitedSends);
  for (std::size_t i = 0; i < waited_sends; i++) waited_.push_back(sends_[i].comm);
  ssize_t idx = -1;
  try {
    idx = sg4::Comm::wait_any_for(waited_, timeout);
    waited_.clear();
  } catch (const simgrid::NetworkFailureException&) {
    waited_.clear();
    // A peer died during a transfer: find which comm failed (test() is fine on this rare path).
    if (recv_->get_state() == sg4::Activity::State::FAILED) post_receive(); // a message lost with its sender
    for (std::size_t i = io_.size(); i-- > 0;) {
      if (io_[i].comm->get_state() == sg4::Activity::State::FAILED) { // test() asserts on a failed comm
        io_finished(i, false);
        continue;
      }
      try {
        if (io_[i].comm->test()) io_finished(i, true);
      } catch (const simgrid::NetworkFailureException&) {
        io_finished(i, false);
      }
    }
    std::erase_if(sends_, [this](auto& s) {
      if (s.comm->get_state() != sg4::Activity::State::FAILED) return false;
      run_.drop(s.wire); // the receiver died during the transfer: the message is lost
      run_.proxies().consumed(s.via);
      return true;
    });
    return;
  }
  run_.next_event_count();
  const auto first_send = static_cast<ssize_t>(1 + io_.size());
  if (idx == 0) {
    Envelope* env = recv_buf_;
    post_receive();
    // Work due at this very date completes before a message arriving at it is handled: a
    // checkpoint request that arrives as a step ends finds the step done.
    if (computing_ && !paused_ && compute_end() <= now() + kDateEpsilon) {
      finish_step();
      pump();
    }
    handle(run_.take(env));
  } else if (idx > 0 && idx < first_send) {
    io_finished(static_cast<std::size_t>(idx - 1), true);
  } else if (idx >= first_send) {
    auto sent = sends_.begin() + (idx - first_send); // delivered to the receiver's mailbox
    run_.proxies().consumed(sent->via);
    sends_.erase(sent);
  } else {
    fire_due();
  }
}

void NodeRuntime::cleanup() {
  for (auto& io : io_) {
    io.comm->cancel();
    if (io.replica) run_.replica_finished();
  }
  io_.clear();
  mailbox_->set_receiver(nullptr);
  if (recv_) recv_->cancel();
  run_.proxies().consumed(recv_via_);
  recv_via_ = nullptr;
  for (auto& s : sends_) {
    if (!s.comm->test()) s.comm->cancel();
    run_.proxies().consumed(s.via);
  }
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
      if (run_.trace().enabled(2)) trace_event(2, "app_receive", message_json(e->app, e->piggyback));
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
  if (dead()) return;
  // What the notice made of the agent counts before the notice does: processing the last notice
  // may end the recovery, which must see this node recovering if it now is.
  run_.set_recovering(id_, agent_->recovering());
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
  run_.workload().complete_step(*app_, id_);
}

void NodeRuntime::pump() {
  if (stop_asked_ && !computing_) { // the step under way when the protocol asked is over
    stop_asked_ = false;
    pause_app();
    agent_->on_app_stopped(*this);
  }
  // Several zero-work steps may follow each other; each iteration either starts a computation,
  // finishes the application, waits for a message, or stops because the protocol paused it.
  while (!service_ && !paused_ && !computing_ && !waiting_ && !app_->finished) start_step();
  sync_finished();
}

void NodeRuntime::start_step() {
  if (auto point = run_.workload().next_point(*app_, id_); point && point->number > app_->points_announced) {
    // Marked before the agent acts, so that a checkpoint taken at the point holds it as announced.
    app_->points_announced = point->number;
    trace_event(2, "app_point", {{"kind", point->kind}, {"number", point->number}});
    agent_->on_app_point(*this, *point);
    if (paused_ || computing_ || waiting_ || app_->finished) return; // the agent stopped the process here
  }
  std::vector<AppMessage> sends;
  auto work = run_.workload().advance(*app_, id_, sends);
  if (work) {
    app_->step_remaining = *work;
    computing_ = true;
    accounted_at_ = now();
  }
  if (!work && !app_->finished) waiting_ = true; // until the next delivery
  for (const auto& m : sends) agent_->on_app_send(*this, m);
  if (!work && app_->finished) {
    sync_finished();
    agent_->on_app_finished(*this);
  }
}

void NodeRuntime::sync_finished() {
  if (service_ || dead()) return;
  if (app_->finished != finished_reported_) {
    finished_reported_ = app_->finished;
    if (finished_reported_) {
      const std::uint64_t digest = run_.workload().result_digest(*app_);
      run_.set_result_digest(id_, digest);
      nlohmann::ordered_json j{{"work", app_->work_done}};
      if (digest != 0) j["checksum"] = digest;
      trace_event(1, "app_finished", j);
    }
    run_.set_app_finished(id_, finished_reported_);
  }
}

bool NodeRuntime::dead() const { return !run_.alive(id_, inc_); }

void NodeRuntime::update_quiet() {
  if (dead()) return; // struck at this date: the run already counts it down
  if (!service_) run_.set_computing(id_, computing_ && !paused_);
  run_.set_quiet(id_, app_finished() && agent_->idle());
  run_.set_recovering(id_, agent_->recovering());
  run_.recheck_recoveries();
}

void NodeRuntime::set_cpu_share(int processes) {
  progress();
  speed_factor_ = full_speed_ / processes;
  if (processes > 1) trace_event(1, "cpu_share", {{"processes", processes}});
}

double NodeRuntime::work_done() const {
  if (service_) return 0;
  double w = app_->work_done;
  if (computing_ && !paused_) w += std::min(app_->step_remaining, (now() - accounted_at_) * speed_factor_);
  return w;
}

void NodeRuntime::pause_app() {
  stop_asked_ = false;
  if (paused_) return;
  progress();
  paused_ = true;
}

void NodeRuntime::resume_app() {
  stop_asked_ = false;
  if (!paused_) return;
  paused_ = false;
  accounted_at_ = now();
}

bool NodeRuntime::stop_app_between_steps() {
  if (paused_) return true;
  if (!computing_) {
    pause_app();
    return true;
  }
  stop_asked_ = true;
  return false;
}

void NodeRuntime::send_app(const AppMessage& msg, PayloadPtr piggyback) {
  run_.oracle().on_send(id_, msg.seq, msg.dst, msg.digest);
  post_app(msg, std::move(piggyback), "app.sent", "app.messages", 1, "app_send");
}

void NodeRuntime::resend_app(const AppMessage& msg, PayloadPtr piggyback) {
  // A replay re-sends a message whose send is already in the kept history: no oracle record.
  post_app(msg, std::move(piggyback), "app.resent", "app.replays", 0, "replay");
}

void NodeRuntime::post_app(const AppMessage& msg, PayloadPtr piggyback, const char* counter, const char* matrix,
                           int trace_level, const char* event) {
  Stats& st = run_.stats();
  st.add(counter);
  st.add_matrix(matrix, cluster_, run_.layout().cluster_of(msg.dst));
  if (run_.trace().enabled(trace_level)) trace_event(trace_level, event, message_json(msg, piggyback));
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
  waiting_ = false; // a data-flow process may have a task ready now
  run_.stats().add("app.delivered");
  if (run_.trace().enabled(1)) trace_event(1, "app_deliver", message_json(msg, piggyback));
}

void NodeRuntime::redeliver(const AppMessage& msg) {
  run_.oracle().on_redeliver(id_, msg.src, msg.seq, msg.digest);
  run_.workload().deliver(*app_, msg);
  waiting_ = false;
  run_.stats().add("app.redelivered");
  if (run_.trace().enabled(1)) trace_event(1, "app_redeliver", message_json(msg));
}

void NodeRuntime::record_send(const AppMessage& msg) {
  run_.oracle().on_send(id_, msg.seq, msg.dst, msg.digest);
  run_.stats().add("app.send_withheld");
  if (run_.trace().enabled(1)) trace_event(1, "app_send_withheld", message_json(msg));
}

void NodeRuntime::promise_send(NodeId dst, std::uint64_t seq) { run_.oracle().promise(id_, seq, dst); }

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
  CommProxies::ProxyPtr via;
  auto [wire, comm] = run_.post(std::move(env), via);
  if (!comm) return;
  sends_.push_back({wire, std::move(comm), std::move(via)});
  run_.proxies().pending_sends(id_, sends_.size());
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
  if (!dead()) run_.node_rolled_back(id_);
  st.add("lost_work", lost);
  st.add_cluster("lost_work", cluster_, lost);
  run_.oracle().truncate(id_, s.oracle_position);
  app_ = s.app;
  if (!run_.application().deterministic) // re-execution draws fresh numbers: no piecewise determinism
    app_->rng.reseed(mix_seed(run_.config().options.seed, static_cast<std::uint64_t>(id_) << 20 | inc_, ++restores_));
  computing_ = app_->step_remaining > 0;
  waiting_ = false;
  accounted_at_ = now();
  fresh_after_failure_ = false;
  trace_event(0, "rollback", {{"to_date", s.date}, {"work", app_->work_done}, {"lost", lost}, {"reason", reason}});
  sync_finished();
}

double NodeRuntime::checkpoint_bytes() const {
  if (service_) return 0.0;
  const double from_data = run_.workload().state_bytes(*app_);
  return from_data >= 0 ? from_data : run_.topology().clusters[cluster_].checkpoint_size;
}

void NodeRuntime::save_checkpoint(std::uint64_t number, Snapshot s) {
  if (dead()) return; // a struck incarnation's memory is gone: the store forgot it
  double bytes = run_.topology().clusters[cluster_].checkpoint_size;
  if (s.app && run_.workload().state_bytes(*s.app) >= 0) bytes = run_.workload().state_bytes(*s.app);
  run_.store().add(id_, number, std::move(s), bytes);
  run_.stats().max("storage.held_checkpoints_max", static_cast<double>(run_.store().held()));
  run_.stats().max("storage.held_bytes_max", run_.store().held_bytes());
  int started = 0;
  nlohmann::ordered_json holders = nlohmann::ordered_json::array();
  for (Holder h : run_.remote_holders(id_, number)) {
    holders.push_back(run_.holder_name(h));
    if (!run_.holder_up(h)) { // a buddy that is down cannot take the copy
      run_.stats().add("storage.copies_failed");
      continue;
    }
    auto comm = sg4::Comm::sendto_async(run_.host_of(id_), run_.holder_host(h),
                                        static_cast<std::uint64_t>(std::llround(bytes)));
    io_.push_back({comm, true, number, h});
    started++;
  }
  trace_event(1, "ckpt_save", {{"number", number}, {"bytes", bytes}, {"copies", holders}});
  run_.stats().add("storage.saves");
  if (started == 0)
    io_completed_.emplace_back(true, number);
  else
    saves_left_[number] = started;
}

void NodeRuntime::load_checkpoint(std::uint64_t number) {
  if (dead()) return; // a struck incarnation's memory is gone: the store forgot it
  const auto* entry = run_.store().find(id_, number);
  if (!entry || entry->holders.empty()) {
    run_.unrecoverable(id_, number);
    return;
  }
  if (entry->holders.count(id_)) { // still in this node's memory: no transfer
    io_completed_.emplace_back(false, number);
    return;
  }
  const Holder from = *entry->holders.begin();
  auto comm = sg4::Comm::sendto_async(run_.holder_host(from), run_.host_of(id_),
                                      static_cast<std::uint64_t>(std::llround(entry->bytes)));
  io_.push_back({comm, false, number, from});
  trace_event(1, "ckpt_load", {{"number", number}, {"bytes", entry->bytes}, {"from", run_.holder_name(from)}});
}

void NodeRuntime::discard_checkpoint(std::uint64_t number) {
  if (dead()) return; // a struck incarnation's memory is gone: the store forgot it
  // The copies of a discarded checkpoint stop travelling: a protocol that numbers its saves along
  // the execution line saves this number again after a rollback, and the new save must neither
  // count the old transfers as its copies nor report itself complete because of them.
  for (std::size_t i = io_.size(); i-- > 0;) {
    if (!io_[i].save || io_[i].number != number) continue;
    io_[i].comm->cancel();
    if (io_[i].replica) run_.replica_finished();
    io_.erase(io_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  saves_left_.erase(number);
  std::erase(io_completed_, std::make_pair(true, number));
  run_.store().drop(id_, number);
}

std::optional<std::uint64_t> NodeRuntime::recovery_line(const std::vector<std::uint64_t>& numbers) {
  return run_.recovery_line(id_, numbers);
}

void NodeRuntime::replicate_checkpoint(std::uint64_t number) {
  if (dead()) return; // a struck incarnation's memory is gone: the store forgot it
  const auto* entry = run_.store().find(id_, number);
  if (!entry || entry->holders.empty()) return;
  if (!entry->holders.count(id_)) { // a restarted node: its own copy comes back from a holder
    for (const auto& io : io_)
      if (!io.save && io.number == number) return;
    start_replica(number, *entry->holders.begin(), false, entry->bytes);
    return; // its remote copies are complete: they are where it fetches from
  }
  for (Holder h : run_.remote_holders(id_, number)) {
    if (entry->holders.count(h) || !run_.holder_up(h)) continue;
    bool pending = false;
    for (const auto& io : io_) pending |= io.save && io.number == number && io.holder == h;
    if (!pending) start_replica(number, h, true, entry->bytes);
  }
}

void NodeRuntime::start_replica(std::uint64_t number, int peer, bool outgoing, double bytes) {
  sg4::Host* from = outgoing ? run_.host_of(id_) : run_.holder_host(peer);
  sg4::Host* to = outgoing ? run_.holder_host(peer) : run_.host_of(id_);
  auto comm = sg4::Comm::sendto_async(from, to, static_cast<std::uint64_t>(std::llround(bytes)));
  io_.push_back({comm, outgoing, number, peer, true});
  run_.stats().add("storage.replicas");
  run_.replica_started();
  trace_event(1, "ckpt_replicate",
              {{"number", number}, {"bytes", bytes}, {outgoing ? "to" : "from", run_.holder_name(peer)}});
}

void NodeRuntime::io_finished(std::size_t index, bool ok) {
  PendingIo io = io_[index];
  io_.erase(io_.begin() + static_cast<std::ptrdiff_t>(index));
  if (io.replica) run_.replica_finished();
  const auto* entry = run_.store().find(id_, io.number);
  if (io.save) {
    if (ok && entry) {
      run_.store().add_copy(id_, io.number, io.holder);
      run_.stats().add("storage.bytes_written", entry->bytes);
      if (is_server(io.holder)) run_.stats().add("storage.bytes_written." + run_.holder_name(io.holder), entry->bytes);
    } else {
      run_.stats().add("storage.copies_failed");
    }
    if (io.replica) return;
    if (--saves_left_[io.number] == 0) {
      saves_left_.erase(io.number);
      io_completed_.emplace_back(true, io.number);
    }
  } else if (ok) {
    run_.stats().add("storage.bytes_read", entry ? entry->bytes : 0.0);
    if (entry) run_.store().add_copy(id_, io.number, id_); // in this node's memory again
    if (!io.replica) io_completed_.emplace_back(false, io.number);
  } else if (!io.replica) {
    load_checkpoint(io.number); // the source died during the transfer: try another copy
  }
}

void NodeRuntime::report_io() {
  while (!io_completed_.empty() && !run_.over()) {
    auto [save, number] = io_completed_.front();
    io_completed_.erase(io_completed_.begin());
    if (save) {
      agent_->on_saved(*this, number);
      continue;
    }
    const auto* entry = run_.store().find(id_, number);
    if (!entry) { // discarded meanwhile
      run_.unrecoverable(id_, number);
      return;
    }
    Snapshot copy = entry->snapshot;
    agent_->on_loaded(*this, number, copy);
  }
}

double NodeRuntime::restart_overhead() const { return run_.topology().failures.restart_overhead; }

void NodeRuntime::restart_complete() {
  trace_event(1, "restart_complete", {{"failure", notice_.id}});
  if (dead()) return;
  run_.set_recovering(id_, agent_->recovering());
  run_.restart_complete(notice_.id, id_);
}

void NodeRuntime::recovered(FailureId id) {
  if (dead()) return;
  run_.set_recovering(id_, agent_->recovering());
  run_.node_recovered(id, id_);
}

} // namespace ckptsim
