#include "sim/engine/run.hpp"

#include "sim/engine/watchdog.hpp"
#include "sim/node/node_runtime.hpp"
#include "sim/scenario/readers.hpp"

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

  const ProtocolInfo& info = ProtocolRegistry::instance().get(inputs_.config.options.protocol, "--protocol");
  for (const auto& [key, value] : inputs_.config.options.params) {
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

  check_storage();

  const int endpoints = num_endpoints();
  observe_.reset(endpoints, num_nodes(), platform_.layout.num_clusters());
  endpoints_.reset(endpoints, num_nodes());
  network_.rendezvous.resize(endpoints);
  ending_.termination.reset(num_nodes(), endpoints);
  ending_.stall_limit = inputs_.config.options.stall_limit >= 0
                            ? inputs_.config.options.stall_limit
                            : default_stall_limit(inputs_.topology.failures.downtime,
                                                  std::max(inputs_.topology.failures.detection_delay,
                                                           inputs_.topology.failures.heartbeat.timeout),
                                                  inputs_.topology.failures.restart_overhead);
  init_placement();
  try {
    network_.proxy_mode = CommProxies::mode_from_environment();
  } catch (const std::invalid_argument& e) {
    throw InputError("environment", "CKPTSIM_COMM_PROXIES", e.what());
  }
  plan_contexts_for_run();
}

sg4::Host* Run::host_of(NodeId endpoint) const {
  return endpoint < num_nodes() ? platform_.hosts[endpoints_.host_index[endpoint]] : platform_.controller;
}

std::string Run::endpoint_name(NodeId endpoint) const {
  return endpoint < num_nodes() ? platform_.layout.host_name(endpoint)
                                : protocol_.services[endpoint - num_nodes()].name;
}

sg4::Mailbox* Run::mailbox(NodeId endpoint, Incarnation inc) const {
  return sg4::Mailbox::by_name(fmt::format("n{}@{}", endpoint, inc));
}

std::pair<std::uint64_t, sg4::CommPtr> Run::post(std::unique_ptr<Envelope> env, CommProxies::ProxyPtr& via) {
  if (!alive(env->src, env->src_inc)) { // sent by a dead incarnation: it crashed before it could send
    observe_.stats.add("net.lost_from_down");
    return {0, nullptr};
  }
  if (!endpoints_.up[env->dst]) { // sent to a crashed node: lost, as in a real crash
    observe_.stats.add("net.lost_to_down");
    return {0, nullptr};
  }
  const double bytes = env->bytes;
  const NodeId dst = env->dst;
  Envelope* raw = env.get();
  // On the wire before any SimGrid call: Mailbox::by_name and put_async yield to other actors,
  // which must not find an empty wire and end the run while this message is being sent.
  const std::uint64_t id = network_.wire.add(std::move(env));
  note_wire();
  observe_.paje.link_start(sg4::Engine::get_clock(),
                           raw->kind == Envelope::Kind::App ? PajeWriter::LinkKind::App : PajeWriter::LinkKind::Control,
                           raw->src, dst, id);
  sg4::Mailbox* mb = mailbox(dst, endpoints_.incarnation[dst]);
  auto comm = network_.proxies.put_async(raw->src, mb, raw, static_cast<uint64_t>(std::llround(bytes)), via);
  // A failure may have struck the sender or the receiver while put_async yielded, and its purge
  // moved the entry off the wire (the envelope stays alive there).
  network_.wire.set_transfer(id, comm);
  return {id, comm};
}

std::unique_ptr<Envelope> Run::take(Envelope* env) {
  if (env->kind == Envelope::Kind::Signal) return std::unique_ptr<Envelope>(env);
  auto owned = network_.wire.take(env->wire_id);
  if (owned) observe_.paje.link_end(sg4::Engine::get_clock(), owned->wire_id);
  note_wire();
  return owned;
}

void Run::drop(std::uint64_t wire_id) {
  if (network_.wire.drop(wire_id)) {
    note_wire();
    observe_.stats.add("net.lost_in_transfer");
    observe_.paje.link_end(sg4::Engine::get_clock(), wire_id);
  }
}

void Run::purge_wire(NodeId dead) {
  // The sender may not have waited for a finished send yet (it waits for its oldest ones only), so
  // its s4u state is not enough: the kernel dates the end of every transfer that completes.
  const double now = sg4::Engine::get_clock();
  network_.wire.purge(
      dead,
      [](const sg4::CommPtr& comm) {
        return comm && (comm->get_state() == sg4::Activity::State::FINISHED || comm->get_finish_time() >= 0);
      },
      [this, now](std::uint64_t id) { observe_.paje.link_end(now, id); });
  note_wire();
}

void Run::set_recovering(NodeId endpoint, bool recovering) { ending_.termination.set_recovering(endpoint, recovering); }

void Run::recheck_recoveries() {
  if (failures_.recoveries.open() == 0 || !failures_.recoveries.rules().needs_quiescence || !quiescent()) return;
  for (FailureId id : failures_.recoveries.open_ids()) maybe_finish_recovery(id);
}

void Run::register_runtime(NodeId endpoint, NodeRuntime* rt) {
  endpoints_.runtimes[endpoint] = rt;
  network_.rendezvous.answered(endpoint); // a wake-up for the previous incarnation went to its own mailbox
}

void Run::unregister_runtime(NodeId endpoint, NodeRuntime* rt) {
  if (endpoints_.runtimes[endpoint] == rt) endpoints_.runtimes[endpoint] = nullptr;
}

void Run::set_result_digest(NodeId node, std::uint64_t digest) { endpoints_.digests[node] = digest; }

void Run::set_app_finished(NodeId node, bool finished) {
  if (ending_.termination.set_finished(node, finished, sg4::Engine::get_clock())) update_held();
}

void Run::update_held() {
  ending_.termination.update_held(failures_.recoveries.open() == 0 && failures_.deferred.empty() && !ending_.end.over(),
                                  sg4::Engine::get_clock());
}

void Run::set_computing(NodeId node, bool computing) {
  ending_.termination.set_computing(node, computing, sg4::Engine::get_clock());
}

void Run::set_quiet(NodeId endpoint, bool quiet) { ending_.termination.set_quiet(endpoint, quiet); }

bool Run::try_terminate() {
  if (ending_.end.over()) return true;
  if ((ending_.events & 0xffff) == 0 && inputs_.config.options.progress) report_progress();
  if (!ending_.termination.may_end({.wire_empty = network_.wire.empty(),
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
  sg4::Actor::kill_all();
}

void Run::report_progress() {
  const double w = wall_now();
  if (w - ending_.last_progress < 1.0) return;
  ending_.last_progress = w;
  const double t = sg4::Engine::get_clock();
  std::fprintf(stderr, "\r[ckptsim] simulated %s, %.0f events/s, %d/%d processes done, %llu failures   ",
               units::format_duration(t).c_str(),
               static_cast<double>(ending_.events) / std::max(1e-9, w - ending_.wall_start),
               ending_.termination.finished_count(), num_nodes(),
               static_cast<unsigned long long>(failures_.recoveries.struck()));
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

const StorageModelInfo& Run::storage_model(NodeId node) const {
  return storage_model_of(inputs_.topology, platform_.layout.cluster_of(node), protocol_.module->default_storage());
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
              *this, *this, *this, *this, observe_.observers()});
  for (NodeId e = 0; e < num_endpoints(); e++) start_node(e, false, {});
  network_.proxies.start(num_endpoints(),
                         network_.proxy_mode); // after the nodes: a host's actors die in creation order
  sg4::Actor::create("failure-injector", platform_.controller, [this] {
    while (auto a = failures_.source->next()) {
      if (a->date > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(a->date);
      if (ending_.end.over()) return;
      // Every victim is down for the topology's downtime: the engine has no per-event repair yet.
      if (a->repair) throw std::logic_error("a failure source gave its own repair time, which the engine cannot apply");
      for (NodeId victim : a->victims) failure_arrival(victim);
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

RunResult Run::simulate() {
  observe_.trace.open(inputs_.config.options.trace_file, inputs_.config.options.trace_level);
  observe_.open_paje(inputs_.config.options.paje_file, platform_.layout, protocol_.services);
  ending_.wall_start = wall_now();
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
  if (inputs_.config.options.progress) std::fputs("\n", stderr);
  if (!ending_.end.over()) {
    std::vector<std::string> stuck;
    for (NodeId e = 0; e < num_endpoints() && stuck.size() < 10; e++)
      if (!ending_.termination.quiet(e)) stuck.push_back(endpoint_name(e));
    throw std::runtime_error(fmt::format(
        "the simulation stopped at {} s before the run was over (a deadlock: every actor waits); busy endpoints: "
        "{}; messages on the wire: {}, recoveries open: {}",
        sg4::Engine::get_clock(), fmt::join(stuck, ", "), network_.wire.size(), failures_.recoveries.open()));
  }
  // A run cut by an unrecoverable failure stops in the middle of a recovery: no final state to check.
  if (!ending_.end.cut()) observe_.check_consistency(true, "at the end of the run");
  observe_.paje.close(sg4::Engine::get_clock());
  observe_.trace.close();
  return collect(wall_now() - ending_.wall_start);
}

} // namespace ckptsim
