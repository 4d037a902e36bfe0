#include "sim/engine/run.hpp"

#include "sim/config/nearest.hpp"
#include "sim/engine/watchdog.hpp"
#include "sim/node/node_runtime.hpp"
#include "sim/scenario/readers.hpp"
#include "sim/units/units.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

XBT_LOG_NEW_DEFAULT_CATEGORY(ckptsim, "ckptsim engine");

namespace ckptsim {

namespace {
double wall_now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
} // namespace

Run::Run(RunConfig config) {
  inputs_.config = std::move(config);
  inputs_.topology = parse_topology(inputs_.config.topology_doc, inputs_.config.topology_file, inputs_.config.base_dir);
  const auto& o = inputs_.config.options;
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
  // The results document says which model ran, chosen or the application's default.
  if (inputs_.config.options.network_model.empty())
    inputs_.config.options.network_model = default_network_model(inputs_.config.application_doc);
  configure_network_model(*engine_, inputs_.config.options.network_model);
  // The user's own --cfg options win over the model defaults set just above.
  for (const auto& a : simgrid_argv)
    if (a.rfind("--cfg=", 0) == 0) engine_->set_config(a.substr(6));
  platform_ = create_platform(*engine_, inputs_.topology);
  plan_precision_for_run();

  inputs_.application =
      parse_application(inputs_.config.application_doc, inputs_.config.application_file, inputs_.topology);
  inputs_.timers = parse_timers(inputs_.config.timers_doc, inputs_.config.timers_file, inputs_.topology);
  for (const auto& [host, set] : inputs_.timers.per_process)
    if (platform_.layout.resolve(host) < 0)
      throw InputError(inputs_.config.timers_file, "/processes/" + host,
                       fmt::format("no node \"{}\" in the federation", host));
  workload_ = make_workload(inputs_.application, platform_.layout);
  failures_.source = make_failure_source({inputs_.topology, platform_.layout, inputs_.config.options.seed},
                                         inputs_.application.scripted_failures);
  failures_.repairs.reseed(mix_seed(inputs_.config.options.seed, 0xfa11u, 0x4e9a));
  links_.prepare(inputs_.config.options.seed);
  if (const HeartbeatSpec& hb = inputs_.topology.failures.heartbeat; hb.period > 0) {
    // Under shrink a failed host never comes back and its process moves: a suspicion would fence a
    // host, which the model of a partition's end (the node rejoins) does not fit. Not modelled.
    if (!shrinking()) failures_.suspicions = std::make_unique<Suspicions>(hb.period, hb.timeout, num_nodes());
    failures_.fence_repairs.reseed(mix_seed(inputs_.config.options.seed, 0xfe4ceu, 0x5u));
  }

  const ProtocolInfo& info = ProtocolRegistry::instance().get(inputs_.config.options.protocol, "--protocol");
  for (const auto& [key, value] : inputs_.config.options.params) {
    bool known = false;
    for (const auto& [name, desc] : info.params) known = known || name == key;
    if (!known) {
      std::vector<std::string> names;
      for (const auto& [name, desc] : info.params) names.push_back(name);
      throw InputError("command line", "--param " + key,
                       fmt::format("protocol \"{}\" has no parameter \"{}\"{} (its parameters: {})", info.name, key,
                                   did_you_mean(key, names),
                                   names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
    }
  }
  ProtocolSetup setup{&platform_.layout,
                      &inputs_.topology,
                      inputs_.config.options.params,
                      inputs_.config.topology_file,
                      workload_.get(),
                      inputs_.config.application_file};
  protocol_.module = info.factory(setup);
  protocol_.services = protocol_.module->services();
  failures_.recoveries.set_rules({.nodes_report = protocol_.module->nodes_report_recovery(),
                                  .needs_quiescence = protocol_.module->recovery_needs_quiescence()});
  // A protocol that assumes one failure at a time cannot run with overlapping failures forced on.
  if (inputs_.topology.failures.overlap == OverlapPolicy::Allow && !protocol_.module->tolerates_overlapping_failures())
    throw InputError(inputs_.config.topology_file, "/failures/overlap",
                     fmt::format("{} tolerates one failure at a time: \"allow\" is not supported (use \"defer\" or "
                                 "\"protocol\", which defers)",
                                 info.name));

  storage_.check(protocol_.module->default_storage());
  storage_.check_protocol(protocol_.module->storage_use(), info.name);

  const int endpoints = num_endpoints();
  observe_.reset(endpoints, num_nodes(), platform_.layout.num_clusters());
  if (inputs_.config.options.oracle_fold_every > 0)
    observe_.oracle.fold_every(inputs_.config.options.oracle_fold_every);
  endpoints_.reset(endpoints, num_nodes());
  rendezvous_.reset(endpoints, *workload_);
  ending_.termination.reset(num_nodes(), endpoints);
  ending_.stall_limit = inputs_.config.options.stall_limit >= 0
                            ? inputs_.config.options.stall_limit
                            : default_stall_limit(inputs_.topology.failures.downtime.mean,
                                                  std::max(inputs_.topology.failures.detection_delay,
                                                           inputs_.topology.failures.heartbeat.timeout),
                                                  inputs_.topology.failures.restart_overhead);
  warn_of_failure_rate();
  init_placement();
  try {
    wire_.set_proxy_mode(CommProxies::mode_from_environment());
  } catch (const std::invalid_argument& e) {
    throw InputError("environment", "CKPTSIM_COMM_PROXIES", e.what());
  }
  plan_contexts_for_run();
}

void Run::warn_of_failure_rate() {
  if (!inputs_.application.scripted_failures.empty()) return; // the scripted failures replace the source
  const auto& f = inputs_.topology.failures;
  const FailureSourceInfo& source = FailureSourceRegistry::instance().get(f.model);
  if (!source.mean_gap) return;
  // The correlated sources add their rates (a cascade's failures follow the node source's).
  double rate = 1 / source.mean_gap(inputs_.topology);
  for (const auto& c : f.correlated) rate += 1 / c.mtbf;
  const double gap = 1 / rate;
  const double detection = std::max(f.detection_delay, f.heartbeat.timeout);
  const double recovery = f.downtime.mean + detection + f.restart_overhead;
  if (gap < recovery)
    observe_.warn(fmt::format(
        "the federation's MTBF ({}) is shorter than a recovery's least duration, (mean) "
        "downtime + detection delay + restart overhead ({} + {} + {} = {}): on average the next failure "
        "comes before a recovery can end, and the run may end with no progress",
        units::format_duration(gap), units::format_duration(f.downtime.mean), units::format_duration(detection),
        units::format_duration(f.restart_overhead), units::format_duration(recovery)));
}

std::string Run::endpoint_name(NodeId endpoint) const {
  return endpoint < num_nodes() ? platform_.layout.host_name(endpoint)
                                : protocol_.services[endpoint - num_nodes()].name;
}

void Run::set_recovering(NodeId endpoint, bool recovering) { ending_.termination.set_recovering(endpoint, recovering); }

void Run::recheck_recoveries() {
  if (failures_.recoveries.open() == 0 || !failures_.recoveries.rules().needs_quiescence || !quiescent()) return;
  for (FailureId id : failures_.recoveries.open_ids()) maybe_finish_recovery(id);
}

void Run::register_runtime(NodeId endpoint, NodeRuntime* rt) {
  endpoints_.runtimes[endpoint] = rt;
  rendezvous_.woken(endpoint); // a wake-up for the previous incarnation went to its own mailbox
}

void Run::unregister_runtime(NodeId endpoint, NodeRuntime* rt) {
  if (endpoints_.runtimes[endpoint] == rt) endpoints_.runtimes[endpoint] = nullptr;
}

void Run::set_result_digest(NodeId node, std::uint64_t digest) { endpoints_.digests[node] = digest; }

void Run::set_app_finished(NodeId node, bool finished) {
  if (ending_.termination.set_finished(node, finished, sg4::Engine::get_clock())) update_held();
}

void Run::update_held() {
  // A link whose repair is scheduled holds transfers the run waits for, as a recovery does.
  ending_.termination.update_held(failures_.recoveries.open() == 0 && failures_.deferred.empty() &&
                                      !links_.waits_for_repair() && !ending_.end.over(),
                                  sg4::Engine::get_clock());
}

void Run::set_computing(NodeId node, bool computing) {
  ending_.termination.set_computing(node, computing, sg4::Engine::get_clock());
}

void Run::set_quiet(NodeId endpoint, bool quiet) { ending_.termination.set_quiet(endpoint, quiet); }

bool Run::try_terminate() {
  if (ending_.end.over()) return true;
  // The wall clock is read every 4,096 wake-ups (a vDSO call: nothing next to a wake-up's cost).
  if ((ending_.events & 0xfff) == 0 && inputs_.config.options.progress != ProgressStyle::Off) report_progress();
  if (!ending_.termination.may_end({.wire_empty = wire_.empty(),
                                    .open_recoveries = failures_.recoveries.open(),
                                    .nodes_down = failures_.nodes_down,
                                    .failures_deferred = !failures_.deferred.empty()}))
    return false;
  observe_.trace.emit(0, sg4::Engine::get_clock(), "run_end", {{"makespan", ending_.termination.all_finished_date()}});
  end_run(RunEnd::Reason::Completed);
  return true;
}

void Run::end_run(RunEnd::Reason reason, std::string why) {
  ending_.end.finish(reason, sg4::Engine::get_clock(), std::move(why));
  // Checkpoint transfers still under way are cancelled first: a comm destroyed while it runs (by
  // the kill's unwinding) makes SimGrid print a backtrace, which is no error of the run.
  for (NodeRuntime* rt : endpoints_.runtimes)
    if (rt) rt->abandon_transfers();
  sg4::Actor::kill_all();
}

void Run::report_progress() {
  const RunOptions& opt = inputs_.config.options;
  const bool terminal = opt.progress == ProgressStyle::Terminal;
  const double w = wall_now();
  if (w - ending_.last_progress < (terminal ? 1.0 : opt.progress_every)) return;
  ending_.last_progress = w;
  const double t = sg4::Engine::get_clock();
  // The share of the failure-free work the processes have reached at least once (work redone
  // after a rollback does not count twice).
  const std::string share =
      ending_.failure_free_work > 0
          ? fmt::format(", {:.1f} % of the work done",
                        std::min(100.0, 100 * ending_.termination.furthest_work_total() / ending_.failure_free_work))
          : "";
  const std::string line = fmt::format(
      "simulated {}{}, {:.0f} events/s, {}/{} processes done, failures so far: {}", units::format_duration(t), share,
      static_cast<double>(ending_.events) / std::max(1e-9, w - ending_.wall_start),
      ending_.termination.finished_count(), num_nodes(), failures_.recoveries.struck());
  if (terminal)
    std::fprintf(stderr, "\r[ckptsim] %s   ", line.c_str());
  else
    std::fprintf(stderr, "ckptsim: progress after %.1f s of wall time: %s\n", w - ending_.wall_start, line.c_str());
  std::fflush(stderr);
}

bool Run::overlapping_allowed() const {
  switch (inputs_.topology.failures.overlap) {
  case OverlapPolicy::Allow:
    return true;
  case OverlapPolicy::Defer:
    return false;
  case OverlapPolicy::Protocol:
    break;
  }
  return protocol_.module->tolerates_overlapping_failures();
}

void Run::end_unrecoverable(const std::string& why, nlohmann::ordered_json fields) {
  if (ending_.end.over()) return;
  const double now = sg4::Engine::get_clock();
  std::fprintf(stderr, "ckptsim: unrecoverable failure at %g s: %s\n", now, why.c_str());
  nlohmann::ordered_json rec{{"date", now}};
  for (auto& [k, v] : fields.items()) rec[k] = v;
  observe_.stats.record("unrecoverable", rec);
  observe_.trace.emit(0, now, "unrecoverable", fields);
  end_run(RunEnd::Reason::Unrecoverable, why);
}

void Run::create_actors() {
  node_env_ = std::make_unique<NodeEnv>(
      NodeEnv{NodeInputs{platform_.layout, inputs_.topology, inputs_.timers, *workload_, *protocol_.module,
                         inputs_.config.options.seed, inputs_.application.deterministic},
              wire_, storage_, *this, rendezvous_, observe_.observers()});
  for (NodeId e = 0; e < num_endpoints(); e++) start_node(e, false, {});
  wire_.start(num_endpoints()); // after the nodes: a host's actors die in creation order
  start_link_faults();
  sg4::Actor::create("failure-injector", platform_.controller, [this] {
    while (auto a = failures_.source->next()) {
      if (a->date > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(a->date);
      if (ending_.end.over()) return;
      failures_.delivered++;
      // One repair time per event, the source's own or drawn from the topology's "downtime": the
      // victims of one event (a rack, a cluster) come back together.
      const double repair = a->repair ? *a->repair : failures_.repairs.draw(inputs_.topology.failures.downtime);
      auto& count = failures_.scopes[a->scope.empty() ? "node" : a->scope];
      count.events++;
      count.victims += a->victims.size();
      if (!a->scope.empty())
        observe_.trace.emit(0, sg4::Engine::get_clock(), "failure_event",
                            {{"scope", a->scope}, {"victims", a->victims}, {"repair", repair}});
      failure_arrival(a->victims, repair); // one event, one recovery, however many victims
    }
  })->daemonize();
  if (std::isfinite(inputs_.config.options.end_date))
    sg4::Actor::create("end-date", platform_.controller, [this] {
      sg4::this_actor::sleep_until(inputs_.config.options.end_date);
      if (ending_.end.over()) return;
      observe_.trace.emit(0, sg4::Engine::get_clock(), "run_end", {{"reason", "end date"}});
      end_run(RunEnd::Reason::EndDate);
    })->daemonize();
  start_watchdog();
}

void Run::start_link_faults() {
  const auto wake = [this](const std::set<NodeId>& nodes) {
    for (NodeId e : nodes)
      if (endpoints_.up[e]) send_signal(e, Signal{Signal::Kind::Network});
  };
  links_.start(
      [this, wake] {
        wire_.note_cut();
        wake(wire_.senders_in_transit());
      },
      [this, wake] { wake(links_.take_holders()); }, [this] { return ending_.end.over(); });
  links_.on_change([this] {
    check_routes();
    update_engine_waiting();
    update_held();
  });
}

RunResult Run::simulate() {
  observe_.trace.open(inputs_.config.options.trace_file, inputs_.config.options.trace_level);
  observe_.open_paje(inputs_.config.options.paje_file, platform_.layout, protocol_.services);
  ending_.wall_start = wall_now();
  ending_.last_progress = ending_.wall_start;
  if (inputs_.config.options.progress != ProgressStyle::Off)
    for (NodeId p = 0; p < num_nodes(); p++) ending_.failure_free_work += workload_->failure_free_work(p);
  if (!std::isfinite(ending_.failure_free_work)) ending_.failure_free_work = 0; // no share to say
  if (observe_.trace.enabled(0)) {
    // Who is where, so that a reader draws the federation without the input files.
    std::vector<std::string> names, hosts, services;
    std::vector<int> sizes;
    for (ClusterId c = 0; c < platform_.layout.num_clusters(); c++) {
      names.push_back(platform_.layout.cluster(c).name);
      sizes.push_back(platform_.layout.cluster(c).size);
    }
    for (NodeId n = 0; n < num_nodes(); n++) hosts.push_back(platform_.layout.host_name(n));
    for (const auto& s : protocol_.services) services.push_back(s.name);
    observe_.trace.emit(0, 0, "run_start",
                        {{"protocol", inputs_.config.options.protocol},
                         {"seed", inputs_.config.options.seed},
                         {"nodes", num_nodes()},
                         {"clusters", platform_.layout.num_clusters()},
                         {"cluster_names", names},
                         {"cluster_sizes", sizes},
                         {"hosts", hosts},
                         {"services", services}});
  }
  create_actors();
  engine_->run();
  if (inputs_.config.options.progress == ProgressStyle::Terminal) std::fputs("\n", stderr);
  if (!ending_.end.over()) {
    std::vector<std::string> stuck;
    for (NodeId e = 0; e < num_endpoints() && stuck.size() < 10; e++)
      if (!ending_.termination.quiet(e)) stuck.push_back(endpoint_name(e));
    throw std::runtime_error(fmt::format(
        "the simulation stopped at {} s before the run was over (a deadlock: every actor waits); busy endpoints: "
        "{}; messages on the wire: {}, recoveries open: {}",
        sg4::Engine::get_clock(), fmt::join(stuck, ", "), wire_.size(), failures_.recoveries.open()));
  }
  // A run cut by an unrecoverable failure stops in the middle of a recovery: no final state to check.
  if (!ending_.end.cut()) observe_.check_consistency(true, "at the end of the run");
  observe_.paje.close(sg4::Engine::get_clock());
  observe_.trace.close();
  return collect(wall_now() - ending_.wall_start);
}

} // namespace ckptsim
