/* `ckptsim advise` (docs/ADVISE.md): measures what a checkpoint of each storage level costs by
 * short failure-free runs of the scenario, takes the failure rates of each scope from the failure
 * model (or its log), and prints Young's and Daly's periods for one level and the first-order
 * multi-level plan of Benoit et al., with the models' expected overhead; --verify then checks the
 * plan by a sweep around it (verify.cpp), --output writes its timer file. Every run is a
 * `ckptsim run` in a child process. */
#include "sim/advise/periods.hpp"
#include "sim/advise/two_level.hpp"
#include "sim/cli/advise/advise.hpp"
#include "sim/cli/advise/plan.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/compare_plot.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/protocol_list.hpp"
#include "sim/cli/scenario.hpp"
#include "sim/config/input_error.hpp"
#include "sim/scenario/readers.hpp"
#include "sim/units/units.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <unistd.h>

namespace ckptsim::cli {

namespace {

using advise::AdvicePlan;

using advise::AdviseOptions;

std::string value_of(const std::vector<std::string>& args, std::size_t& i, const std::string& name) {
  const std::string& a = args[i];
  if (a.size() > name.size() && a.compare(0, name.size() + 1, name + "=") == 0) return a.substr(name.size() + 1);
  if (i + 1 >= args.size()) throw InputError("command line", name, "expects a value");
  return args[++i];
}

bool is_option(const std::string& a, const std::string& name) { return a == name || a.rfind(name + "=", 0) == 0; }

int positive_int(const std::string& text, const std::string& option, int max) {
  try {
    std::size_t used = 0;
    const long v = std::stol(text, &used);
    if (used == text.size() && v >= 1 && v <= max) return static_cast<int>(v);
  } catch (const std::exception&) {
  }
  throw InputError("command line", option, fmt::format("\"{}\": expected an integer from 1 to {}", text, max));
}

AdviseOptions parse_options(const std::vector<std::string>& args) {
  AdviseOptions o;
  std::string list = "coordinated";
  std::vector<std::string> params;
  for (std::size_t i = 0; i < args.size(); i++) {
    const std::string& a = args[i];
    if (is_option(a, "--protocols") || is_option(a, "--protocol")) {
      list = value_of(args, i, a.rfind("--protocols", 0) == 0 ? "--protocols" : "--protocol");
    } else if (is_option(a, "--param")) {
      params.push_back(value_of(args, i, "--param"));
    } else if (is_option(a, "--verify")) {
      o.verify = positive_int(value_of(args, i, "--verify"), "--verify", 100'000);
    } else if (is_option(a, "--jobs")) {
      o.jobs = positive_int(value_of(args, i, "--jobs"), "--jobs", 4096);
    } else if (is_option(a, "--plot")) {
      o.plot = value_of(args, i, "--plot");
    } else if (is_option(a, "--output") || a == "-o") {
      o.output = value_of(args, i, a == "-o" ? "-o" : "--output");
    } else if (is_option(a, "--seed")) {
      o.seed = static_cast<std::uint64_t>(positive_int(value_of(args, i, "--seed"), "--seed", 2'000'000'000));
    } else if (is_option(a, "--event-trace") || is_option(a, "--trace") || is_option(a, "--paje")) {
      throw InputError("command line", a.substr(0, a.find('=')),
                       "advise makes many runs: trace one with `ckptsim run`");
    } else {
      // A scenario option: the parent reads the scenario too.
      static const std::vector<std::pair<std::string, std::string ScenarioFiles::*>> files{
          {"--topology", &ScenarioFiles::topology},       {"--platform", &ScenarioFiles::platform},
          {"--application", &ScenarioFiles::application}, {"--timers", &ScenarioFiles::timers},
          {"--controller", &ScenarioFiles::controller},   {"--clusters-at", &ScenarioFiles::clusters_at}};
      bool taken = false;
      for (const auto& [name, field] : files)
        if (is_option(a, name)) {
          o.files.*field = value_of(args, i, name);
          o.run_args.insert(o.run_args.end(), {name, o.files.*field});
          taken = true;
        }
      if (is_option(a, "--set")) {
        o.overrides.push_back(value_of(args, i, "--set"));
        o.run_args.insert(o.run_args.end(), {"--set", o.overrides.back()});
        taken = true;
      }
      if (!taken) o.run_args.push_back(a);
    }
  }
  o.protocols = parse_protocol_list(list, "--protocols");
  if (!params.empty()) {
    if (o.protocols.size() > 1)
      throw InputError("command line", "--param", "with several protocols, give parameters as NAME:KEY=VALUE");
    o.protocols[0].params = params;
  }
  if (o.jobs == 0) o.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (!o.plot.empty()) {
    check_plot_output(o.plot);
    if (o.verify == 0) throw InputError("command line", "--plot", "draws the --verify sweep: give --verify N");
  }
  return o;
}

// The --set options of a failure-free run: the engine's fields of "failures" kept, the source
// "none", no link failure.
double result(const ChildRun& r, const char* field) {
  if (r.doc.is_null() || !r.doc["results"].contains(field) || !r.doc["results"][field].is_number()) return NAN;
  return r.doc["results"][field].get<double>();
}

[[noreturn]] void probe_failed(const ChildRun& r, const std::string& what) {
  throw InputError(
      "command line", "advise",
      fmt::format("the {} run failed (exit {}): {}", what, r.status, r.error.empty() ? "no message" : r.error));
}

} // namespace

int advise_command(const std::vector<std::string>& raw_args, const std::string& program) {
  for (const auto& a : raw_args)
    if (a == "--help" || a == "-h") {
      std::printf("usage: ckptsim advise [--protocols LIST] [--verify N] [--jobs J] [--plot FILE] [--output TIMERS]\n"
                  "                      [ckptsim run options...]\n\n"
                  "Which checkpoint plan for these inputs: measures each storage level's checkpoint cost by short\n"
                  "failure-free runs, takes the failure rates of each scope from the failure model (or its log), and\n"
                  "prints Young's and Daly's periods for one level and the first-order multi-level plan with the\n"
                  "expected overhead (docs/ADVISE.md).\n"
                  "  --protocols LIST  comma-separated NAME[:KEY=VALUE...] (default coordinated; --protocol P too)\n"
                  "  --verify N        sweep around the plan (periods x 0.5 0.7 1 1.4 2, the deepest level's every\n"
                  "                    +-1), N seeds a point, and print the simulated optimum with its 95 %% interval\n"
                  "  --jobs J          runs at a time (default: the cores)\n"
                  "  --plot FILE       draw the sweep (.png, .svg or .pdf; plots/advise.py; with --verify)\n"
                  "  --output TIMERS   write the timer file of the chosen plan (the simulated optimum with --verify)\n"
                  "  --seed S          the first seed of the sweep (default 1)\n"
                  "Every other option goes to `ckptsim run` (see `ckptsim run --help`).\n");
      return 0;
    }
  AdviseOptions o = parse_options(raw_args);
  RunConfig config = load_scenario(o.files, o.overrides);
  // The runs set timers/default/checkpoint_period: a timer file without "default" gets one.
  if (!config.timers_doc.is_object() || !config.timers_doc.contains("default")) {
    o.run_args.insert(o.run_args.end(), {"--set", "timers/default={}"});
    if (!config.timers_doc.is_object()) config.timers_doc = json::object();
    config.timers_doc["default"] = json::object();
  }
  const Topology topology = parse_topology(config.topology_doc, config.topology_file, config.base_dir);

  const auto dir = std::filesystem::temp_directory_path() / fmt::format("ckptsim-advise-{}", getpid());
  std::filesystem::create_directories(dir);
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() { std::filesystem::remove_all(dir); }
  } cleanup{dir};

  // 1. The scenario failure-free, as given: its work, its storage model, its period.
  const ProtocolChoice& first = o.protocols.front();
  std::vector<ChildRun> base(1);
  base[0].args = o.run_args;
  for (const auto& a : protocol_args(first)) base[0].args.push_back(a);
  for (const auto& a : failure_free_assignments(config.topology_doc))
    base[0].args.insert(base[0].args.end(), {"--set", a});
  run_all(base, 1, program, dir.string(), "");
  if (base[0].status != 0 || base[0].doc.is_null()) probe_failed(base[0], "failure-free");
  AdvicePlan plan;
  plan.work = result(base[0], "failure_free_time");
  // From the failure to the restart from the checkpoint: detection, repair, restart overhead.
  plan.restart =
      topology.failures.detection_delay + topology.failures.downtime.mean + topology.failures.restart_overhead;
  const std::string model_name = base[0].doc["run"]["storage"];
  const StorageModelInfo& model = StorageModelRegistry::instance().get(model_name);
  plan.levels =
      model.advised_levels ? model.advised_levels(topology) : std::vector<AdvisedLevel>{{model_name, {"node"}}};
  plan.kinds = advise::failure_kinds(topology, plan.levels);

  // 2. Each level's cost: every checkpoint at that level, four checkpoints over the work.
  const double probe_period = plan.work / 5;
  std::vector<ChildRun> probes(plan.levels.size());
  for (std::size_t l = 0; l < probes.size(); l++) {
    probes[l].args = base[0].args;
    probes[l].args.insert(probes[l].args.end(),
                          {"--set", fmt::format("timers/default/checkpoint_period={}", probe_period)});
    if (plan.levels.size() > 1 && model.probe_storage)
      probes[l].args.insert(
          probes[l].args.end(),
          {"--set",
           "topology/storage=" + model.probe_storage(config.topology_doc["storage"], static_cast<int>(l)).dump()});
  }
  run_all(probes, o.jobs, program, dir.string(), "");
  for (std::size_t l = 0; l < probes.size(); l++) {
    const double makespan = result(probes[l], "makespan");
    // A level a protocol cannot use alone (a local level under hc3i) has no cost of its own.
    plan.costs.push_back(probes[l].status == 0 && std::isfinite(makespan) ? std::max(0.0, (makespan - plan.work) / 4)
                                                                          : NAN);
    if (probes[l].status != 0 && !probes[l].error.empty())
      std::fprintf(stderr, "advise: the probe of level %s: %s\n", plan.levels[l].name.c_str(), probes[l].error.c_str());
  }
  advise::make_plan(plan, first.label);
  std::fputs(advise::report(plan, first.label).c_str(), stdout);

  double chosen = plan.period;
  if (o.verify > 0) {
    const int status = advise::verify(plan, o, program, dir.string(), chosen);
    if (status != 0) return status;
  }
  if (!o.output.empty()) {
    json timers = config.timers_doc.is_object() ? config.timers_doc : json::object();
    timers["comment"] = fmt::format("ckptsim advise: the checkpoint period of the {} plan for {}{}",
                                    o.verify > 0 ? "simulated optimum of the" : "suggested", first.label,
                                    plan.set_options.empty() ? "" : "; run it with " + plan.set_options);
    timers["default"]["checkpoint_period"] = fmt::format("{:.6g}s", chosen);
    write_file_atomically(o.output, timers.dump(2) + "\n");
    std::printf("\ntimer file written: %s (checkpoint_period %s)\n", o.output.c_str(),
                fmt::format("{:.6g}s", chosen).c_str());
  }
  return 0;
}

} // namespace ckptsim::cli
