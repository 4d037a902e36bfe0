#include "sim/engine/run.hpp"

#include "sim/engine/summary.hpp"
#include "sim/engine/watchdog.hpp"
#include "sim/node/node_runtime.hpp"
#include "sim/version.hpp"

#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <xbt/log.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <sstream>
#include <unistd.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(ckptsim, "ckptsim engine");

namespace ckptsim {

namespace {
double wall_now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
} // namespace

Run::Run(RunConfig config)
    : config_(std::move(config)) {
  topology_ = parse_topology(config_.topology_doc, config_.topology_file, config_.base_dir);
  const auto& o = config_.options;
  if (o.trace_level < 0 || o.trace_level > 2)
    throw InputError("command line", "--trace-level", "the trace level must be 0, 1 or 2");
  if (!(o.end_date > 0)) throw InputError("command line", "--end", "the end date must be greater than zero");
}

Run::~Run() = default;

void Run::prepare(std::vector<std::string> simgrid_argv) {
  // SimGrid's configuration chatter is noise for our users; their own --log options come after
  // this one and win.
  simgrid_argv.insert(simgrid_argv.begin() + 1, "--log=xbt_cfg.thres:warning");
  // SimGrid options from the environment, for every run of a test suite at once: the sanitizer
  // build (tests/sanitize.sh) needs thread contexts, since ASan cannot follow raw context switches.
  // They change how actors are scheduled on the machine, never a simulated result.
  if (const char* extra = std::getenv("CKPTSIM_SIMGRID_ARGS")) {
    std::istringstream words(extra);
    for (std::string w; words >> w;) simgrid_argv.insert(simgrid_argv.begin() + 1, w);
  }
  std::vector<char*> argv;
  for (auto& a : simgrid_argv) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(simgrid_argv.size());
  engine_ = std::make_unique<sg4::Engine>(&argc, argv.data());
  configure_network_model(*engine_, config_.options.network_model);
  // The user's own --cfg options win over the model defaults set just above.
  for (const auto& a : simgrid_argv)
    if (a.rfind("--cfg=", 0) == 0) engine_->set_config(a.substr(6));
  platform_ = create_platform(*engine_, topology_);

  application_ = parse_application(config_.application_doc, config_.application_file, topology_);
  timers_ = parse_timers(config_.timers_doc, config_.timers_file, topology_);
  for (const auto& [host, set] : timers_.per_process)
    if (platform_.layout.resolve(host) < 0)
      throw InputError(config_.timers_file, "/processes/" + host,
                       fmt::format("no node \"{}\" in the federation", host));
  workload_ = make_workload(application_, platform_.layout);
  failures_ = std::make_unique<FailureProcess>(topology_, platform_.layout, config_.options.seed,
                                               application_.scripted_failures);

  const ProtocolInfo& info = ProtocolRegistry::instance().get(config_.options.protocol);
  for (const auto& [key, value] : config_.options.params) {
    bool known = false;
    for (const auto& [name, desc] : info.params) known = known || name == key;
    if (!known) {
      std::vector<std::string> names;
      for (const auto& [name, desc] : info.params) names.push_back(name);
      throw InputError("command line", "--param " + key,
                       fmt::format("protocol \"{}\" has no parameter \"{}\" (its parameters: {})", info.name, key,
                                   names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
    }
  }
  ProtocolSetup setup{&platform_.layout,     &topology_,      config_.options.params,
                      config_.topology_file, workload_.get(), config_.application_file};
  protocol_ = info.factory(setup);
  services_ = protocol_->services();
  // A protocol that assumes one failure at a time cannot run with overlapping failures forced on.
  if (topology_.failures.overlap == OverlapPolicy::Allow && !protocol_->tolerates_overlapping_failures())
    throw InputError(config_.topology_file, "/failures/overlap",
                     fmt::format("{} tolerates one failure at a time: \"allow\" is not supported (use \"defer\" or "
                                 "\"protocol\", which defers)",
                                 info.name));

  check_storage();

  const int endpoints = num_endpoints();
  stats_.set_clusters(platform_.layout.num_clusters());
  oracle_.reset(num_nodes());
  incarnation_.assign(endpoints, 0);
  up_.assign(endpoints, true);
  runtimes_.assign(endpoints, nullptr);
  quiet_.assign(endpoints, false);
  recovering_.assign(endpoints, false);
  finished_.assign(num_nodes(), false);
  computing_.assign(num_nodes(), false);
  stall_limit_ =
      config_.options.stall_limit >= 0
          ? config_.options.stall_limit
          : default_stall_limit(topology_.failures.downtime,
                                std::max(topology_.failures.detection_delay, topology_.failures.heartbeat.timeout),
                                topology_.failures.restart_overhead);
  digests_.assign(num_nodes(), 0);
  death_work_.assign(num_nodes(), 0.0);
  init_placement();
  try {
    proxy_mode_ = CommProxies::mode_from_environment();
  } catch (const std::invalid_argument& e) {
    throw InputError("environment", "CKPTSIM_COMM_PROXIES", e.what());
  }
}

sg4::Host* Run::host_of(NodeId endpoint) const {
  return endpoint < num_nodes() ? platform_.hosts[host_index_[endpoint]] : platform_.controller;
}

std::string Run::endpoint_name(NodeId endpoint) const {
  return endpoint < num_nodes() ? platform_.layout.host_name(endpoint) : services_[endpoint - num_nodes()].name;
}

sg4::Mailbox* Run::mailbox(NodeId endpoint, Incarnation inc) const {
  return sg4::Mailbox::by_name(fmt::format("n{}@{}", endpoint, inc));
}

std::pair<std::uint64_t, sg4::CommPtr> Run::post(std::unique_ptr<Envelope> env, CommProxies::ProxyPtr& via) {
  if (!alive(env->src, env->src_inc)) { // sent by a dead incarnation: it crashed before it could send
    stats_.add("net.lost_from_down");
    return {0, nullptr};
  }
  if (!up_[env->dst]) { // sent to a crashed node: lost, as in a real crash
    stats_.add("net.lost_to_down");
    return {0, nullptr};
  }
  const std::uint64_t id = next_wire_id_++;
  env->wire_id = id;
  const double bytes = env->bytes;
  const NodeId dst = env->dst;
  Envelope* raw = env.get();
  // On the wire before any SimGrid call: Mailbox::by_name and put_async yield to other actors,
  // which must not find an empty wire and end the run while this message is being sent.
  if (env->kind == Envelope::Kind::Control) control_on_wire_++;
  wire_[id].env = std::move(env);
  sg4::Mailbox* mb = mailbox(dst, incarnation_[dst]);
  auto comm = proxies_.put_async(raw->src, mb, raw, static_cast<uint64_t>(std::llround(bytes)), via);
  // Looked up again: a failure may have struck the sender or the receiver while put_async
  // yielded, and its purge moved the entry off the wire (the envelope stays alive there).
  if (auto it = wire_.find(id); it != wire_.end())
    it->second.comm = comm;
  else if (auto p = purged_.find(id); p != purged_.end())
    p->second.comm = comm;
  return {id, comm};
}

std::unique_ptr<Envelope> Run::take(Envelope* env) {
  if (env->kind == Envelope::Kind::Signal) return std::unique_ptr<Envelope>(env);
  auto it = wire_.find(env->wire_id);
  if (it == wire_.end()) {
    // Purged when its sender died, yet its transfer ended at that very date: the receiver got it
    // as the sender's host went off. It counts as lost with its sender (the purge's decision).
    if (purged_.erase(env->wire_id) > 0) return nullptr;
    throw std::logic_error(fmt::format("engine bug: envelope {} received but not on the wire", env->wire_id));
  }
  auto owned = std::move(it->second.env);
  wire_.erase(it);
  if (owned->kind == Envelope::Kind::App) note_activity();
  if (owned->kind == Envelope::Kind::Control) control_on_wire_--;
  return owned;
}

void Run::drop(std::uint64_t wire_id) {
  auto it = wire_.find(wire_id);
  if (it == wire_.end()) return;
  if (it->second.env->kind == Envelope::Kind::Control) control_on_wire_--;
  wire_.erase(it);
  stats_.add("net.lost_in_transfer");
}

void Run::purge_wire(NodeId dead) {
  for (auto it = wire_.begin(); it != wire_.end();) {
    const Envelope& e = *it->second.env;
    bool gone = e.dst == dead; // the receiver dies: whatever it had not processed is gone with it
    if (e.src == dead) {
      // The sender dies: what is still in transfer is lost (SimGrid cancels it with the sender),
      // what reached the receiver's mailbox stays there and will be received. The sender may not
      // have waited for a finished send yet (it waits for its oldest ones only), so its s4u state
      // is not enough: the kernel dates the end of every transfer that completes.
      const auto& comm = it->second.comm;
      gone = gone || !(comm && (comm->get_state() == sg4::Activity::State::FINISHED || comm->get_finish_time() >= 0));
    }
    if (!gone) {
      ++it;
      continue;
    }
    if (e.kind == Envelope::Kind::Control) control_on_wire_--;
    // Kept alive off the wire: a receiver may already hold its address (see take()).
    purged_.emplace(it->first, std::move(it->second));
    it = wire_.erase(it);
  }
}

void Run::set_recovering(NodeId endpoint, bool recovering) {
  if (recovering_[endpoint] == recovering) return;
  recovering_[endpoint] = recovering;
  recovering_count_ += recovering ? 1 : -1;
}

void Run::recheck_recoveries() {
  if (open_recoveries_ == 0 || !protocol_->recovery_needs_quiescence() || !quiescent()) return;
  std::vector<FailureId> open;
  for (const auto& [id, rec] : recoveries_)
    if (!rec.done) open.push_back(id);
  for (FailureId id : open) maybe_finish_recovery(id);
}

void Run::register_runtime(NodeId endpoint, NodeRuntime* rt) { runtimes_[endpoint] = rt; }

void Run::unregister_runtime(NodeId endpoint, NodeRuntime* rt) {
  if (runtimes_[endpoint] == rt) runtimes_[endpoint] = nullptr;
}

void Run::set_result_digest(NodeId node, std::uint64_t digest) { digests_[node] = digest; }

void Run::set_app_finished(NodeId node, bool finished) {
  if (finished_[node] == finished) return;
  finished_[node] = finished;
  finished_count_ += finished ? 1 : -1;
  if (finished_count_ == num_nodes()) {
    all_finished_date_ = sg4::Engine::get_clock();
    if (first_all_finished_ < 0) first_all_finished_ = all_finished_date_;
  }
  update_held();
}

void Run::update_held() {
  // Held open: every process finished, yet the run goes on with no recovery to finish and no
  // failure waiting to strike (those are the failures' business, not a protocol holding it).
  const bool held = finished_count_ == num_nodes() && open_recoveries_ == 0 && deferred_.empty() && !over_;
  const double now = sg4::Engine::get_clock();
  if (held && all_finished_since_ < 0) {
    all_finished_since_ = now;
  } else if (!held && all_finished_since_ >= 0) {
    held_open_ += now - all_finished_since_;
    all_finished_since_ = -1;
  }
}

void Run::set_computing(NodeId node, bool computing) {
  if (computing_[node] == computing) return;
  computing_[node] = computing;
  computing_count_ += computing ? 1 : -1;
  note_activity();
}

void Run::set_quiet(NodeId endpoint, bool quiet) {
  if (quiet_[endpoint] == quiet) return;
  quiet_[endpoint] = quiet;
  quiet_count_ += quiet ? 1 : -1;
}

bool Run::try_terminate() {
  if (over_) return true;
  if ((events_ & 0xffff) == 0 && config_.options.progress) report_progress();
  if (quiet_count_ != num_endpoints() || !wire_.empty() || replicas_in_flight_ > 0 || open_recoveries_ > 0 ||
      nodes_down_ > 0 || !deferred_.empty())
    return false;
  over_ = true;
  end_ = sg4::Engine::get_clock();
  trace_.emit(0, end_, "run_end", {{"makespan", all_finished_date_}});
  sg4::Actor::kill_all();
  return true;
}

void Run::report_progress() {
  const double w = wall_now();
  if (w - last_progress_ < 1.0) return;
  last_progress_ = w;
  const double t = sg4::Engine::get_clock();
  std::fprintf(stderr, "\r[ckptsim] simulated %s, %.0f events/s, %d/%d processes done, %llu failures   ",
               units::format_duration(t).c_str(), static_cast<double>(events_) / std::max(1e-9, w - wall_start_),
               finished_count_, num_nodes(), static_cast<unsigned long long>(next_failure_ - 1));
  std::fflush(stderr);
}

bool Run::overlapping_allowed() const {
  switch (topology_.failures.overlap) {
  case OverlapPolicy::Allow:
    return true;
  case OverlapPolicy::Defer:
    return false;
  case OverlapPolicy::Protocol:
    break;
  }
  return protocol_->tolerates_overlapping_failures();
}

const StorageModelInfo& Run::storage_model(NodeId node) const {
  return storage_model_of(topology_, platform_.layout.cluster_of(node), protocol_->default_storage());
}

std::vector<Holder> Run::remote_holders(NodeId node, std::uint64_t number) const {
  return storage_model(node).holders(node, number, storage_context());
}

sg4::Host* Run::holder_host(Holder h) const { return is_server(h) ? platform_.servers[server_index(h)] : host_of(h); }

std::string Run::holder_name(Holder h) const { return holder_host(h)->get_name(); }

void Run::unrecoverable(NodeId node, std::uint64_t number) {
  end_unrecoverable(fmt::format("no copy of checkpoint {} of {} survives", number, platform_.layout.host_name(node)),
                    {{"node", node}, {"checkpoint", number}});
}

void Run::end_unrecoverable(const std::string& why, nlohmann::ordered_json fields) {
  if (over_) return;
  const double now = sg4::Engine::get_clock();
  unrecoverable_ = why;
  std::fprintf(stderr, "ckptsim: unrecoverable failure at %g s: %s\n", now, unrecoverable_.c_str());
  nlohmann::ordered_json rec{{"date", now}};
  for (auto& [k, v] : fields.items()) rec[k] = v;
  stats_.record("unrecoverable", rec);
  trace_.emit(0, now, "unrecoverable", fields);
  over_ = true;
  end_ = now;
  sg4::Actor::kill_all();
}

void Run::check_consistency(bool final, const std::string& context) {
  checks_++;
  auto found = oracle_.check(final);
  for (const auto& v : found) {
    std::fprintf(stderr, "ckptsim: CONSISTENCY VIOLATION %s: %s\n", context.c_str(), v.what.c_str());
    trace_.emit(0, sg4::Engine::get_clock(), "violation", {{"context", context}, {"what", v.what}});
  }
  violations_ += found.size();
}

void Run::create_actors() {
  for (NodeId e = 0; e < num_endpoints(); e++) start_node(e, false, {});
  proxies_.start(num_endpoints(), proxy_mode_); // after the nodes: a host's actors die in creation order
  sg4::Actor::create("failure-injector", platform_.controller, [this] {
    while (auto a = failures_->next()) {
      if (a->date > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(a->date);
      if (over_) return;
      failure_arrival(a->victim);
    }
  })->daemonize();
  if (std::isfinite(config_.options.end_date))
    sg4::Actor::create("end-date", platform_.controller, [this] {
      sg4::this_actor::sleep_until(config_.options.end_date);
      if (over_) return;
      over_ = true;
      stopped_by_end_date_ = true;
      end_ = sg4::Engine::get_clock();
      trace_.emit(0, end_, "run_end", {{"reason", "end date"}});
      sg4::Actor::kill_all();
    })->daemonize();
  start_watchdog();
}

RunResult Run::simulate() {
  trace_.open(config_.options.trace_file, config_.options.trace_level);
  wall_start_ = wall_now();
  trace_.emit(0, 0, "run_start",
              {{"protocol", config_.options.protocol},
               {"seed", config_.options.seed},
               {"nodes", num_nodes()},
               {"clusters", platform_.layout.num_clusters()}});
  create_actors();
  engine_->run();
  if (config_.options.progress) std::fputs("\n", stderr);
  if (!over_) {
    std::vector<std::string> stuck;
    for (NodeId e = 0; e < num_endpoints() && stuck.size() < 10; e++)
      if (!quiet_[e]) stuck.push_back(endpoint_name(e));
    throw std::runtime_error(fmt::format(
        "the simulation stopped at {} s before the run was over (a deadlock: every actor waits); busy endpoints: "
        "{}; messages on the wire: {}, recoveries open: {}",
        sg4::Engine::get_clock(), fmt::join(stuck, ", "), wire_.size(), open_recoveries_));
  }
  // A run cut by an unrecoverable failure stops in the middle of a recovery: no final state to check.
  if (!stopped_by_end_date_ && unrecoverable_.empty() && stuck_.empty())
    check_consistency(true, "at the end of the run");
  trace_.close();
  return collect(wall_now() - wall_start_);
}

RunResult Run::collect(double wall_seconds) {
  RunResult r;
  double failure_free = 0;
  for (NodeId n = 0; n < num_nodes(); n++)
    failure_free = std::max(failure_free, workload_->failure_free_work(n) /
                                              (platform_.layout.cluster(platform_.layout.cluster_of(n)).speed / 1e9));
  const bool cut = stopped_by_end_date_ || !unrecoverable_.empty() || !stuck_.empty();
  const double makespan = cut ? end_ : all_finished_date_;
  nlohmann::ordered_json res;
  res["status"] = !unrecoverable_.empty() ? "unrecoverable failure: " + unrecoverable_
                  : !stuck_.empty()       ? "stuck: " + stuck_
                  : stopped_by_end_date_  ? "stopped at the end date"
                                          : "completed";
  res["makespan"] = cut ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(makespan);
  res["end_date"] = end_;
  res["failure_free_time"] = failure_free;
  res["overhead_pct"] = cut || failure_free <= 0
                            ? nlohmann::ordered_json(nullptr)
                            : nlohmann::ordered_json(100.0 * (makespan - failure_free) / failure_free);
  res["failures"] = stats_.get("failures");
  res["failures_ignored_node_down"] = stats_.get("failures.ignored_down");
  res["failures_deferred"] = stats_.get("failures.deferred");
  res["lost_work"] = stats_.get("lost_work");
  res["rollbacks"] = stats_.get("rollbacks");
  res["storage_held_max_bytes"] = stats_.get("storage.held_bytes_max");
  res["storage_held_end_bytes"] = store_.held_bytes();
  res["storage_held_max_copy_bytes"] = store_.held_copy_bytes_max(); // every copy counted
  add_storage_results(res);
  res["recovery_time"] = stats_.get("recovery_time");
  // Mean over the recoveries that ended (null when none did).
  res["rolled_back_per_failure"] =
      stats_.get("recoveries_done") > 0
          ? nlohmann::ordered_json(stats_.get("rolled_back_processes") / stats_.get("recoveries_done"))
          : nlohmann::ordered_json(nullptr);
  res["app_messages_sent"] = stats_.get("app.sent");
  std::uint64_t digest = 0; // 48-bit digests: their xor stays exact as a JSON number
  for (std::uint64_t d : digests_) digest ^= d;
  if (digest != 0) res["result_checksum"] = digest;
  res["app_messages_delivered"] = stats_.get("app.delivered");
  res["control_messages"] = stats_.get("ctrl.total");
  res["consistency"] = {{"checks", checks_}, {"violations", violations_}};
  res["wall_time_s"] = wall_seconds;
  res["events"] = events_;

  nlohmann::ordered_json doc;
  doc["ckptsim"] = {{"version", version()}, {"simgrid", SIMGRID_VERSION_STRING}};
  const auto& o = config_.options;
  doc["run"] = {{"protocol", o.protocol},
                {"params", o.params},
                {"seed", o.seed},
                {"network_model", o.network_model},
                {"end_date", std::isfinite(o.end_date) ? nlohmann::ordered_json(o.end_date) : nullptr},
                {"stall_limit", std::isfinite(stall_limit_) ? nlohmann::ordered_json(stall_limit_) : nullptr},
                {"overrides", o.overrides},
                {"simgrid_args", o.simgrid_args},
                {"files",
                 {{"topology", config_.topology_file},
                  {"application", config_.application_file},
                  {"timers", config_.timers_file},
                  {"platform", topology_.platform_xml}}},
                {"nodes", num_nodes()},
                {"clusters", platform_.layout.num_clusters()},
                {"failure_model", to_string(topology_.failures.model)},
                {"overlapping_failures", overlapping_allowed() ? "allowed" : "deferred"},
                {"restart_placement", to_string(topology_.failures.restart)},
                {"storage", topology_.storage.model.empty() ? protocol_->default_storage() : topology_.storage.model},
                {"checkpoint_servers", platform_.servers.size()}};
  doc["inputs"] = {
      {"topology", config_.topology_doc}, {"application", config_.application_doc}, {"timers", config_.timers_doc}};
  doc["results"] = res;
  doc["stats"] = stats_.to_json();
  r.document = doc;
  r.violations = violations_;
  r.stuck = stuck_;
  r.summary = format_summary(r.document, platform_.layout);
  std::string extra;
  protocol_->summarize(stats_, extra);
  r.summary += extra;
  return r;
}

} // namespace ckptsim
