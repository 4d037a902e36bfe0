#include "sim/cli/commands.hpp"

#include <ckptsim_paths.hpp> // generated: CKPTSIM_PLOTS_DIR

#include "sim/cli/default_scenario.hpp"
#include "sim/cli/failure_free.hpp"
#include "sim/cli/listing.hpp"

#include "sim/cli/output.hpp"
#include "sim/cli/run_attempts.hpp"
#include "sim/cli/scenario.hpp"
#include "sim/cli/seeds.hpp"
#include "sim/config/input_error.hpp"
#include "sim/config/nearest.hpp"
#include "sim/config/result_fields.hpp"
#include "sim/engine/run.hpp"
#include "sim/platform/platform.hpp"
#include "sim/scenario/readers.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <unistd.h>

namespace po = boost::program_options;

namespace ckptsim::cli {

namespace {

/** SimGrid's own options pass through untouched. */
std::vector<std::string> take_simgrid_args(std::vector<std::string>& args) {
  std::vector<std::string> sg;
  std::erase_if(args, [&](const std::string& a) {
    if (a.rfind("--cfg=", 0) == 0 || a.rfind("--log=", 0) == 0) {
      sg.push_back(a);
      return true;
    }
    return false;
  });
  return sg;
}

po::variables_map parse(const std::vector<std::string>& args, const po::options_description& desc,
                        const po::positional_options_description* positional = nullptr) {
  po::variables_map vm;
  try {
    auto parser = po::command_line_parser(args).options(desc);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    // Named, with the option most likely meant: "--sed" is "--seed" mistyped.
    std::vector<std::string> names;
    for (const auto& o : desc.options())
      if (!o->long_name().empty()) names.push_back(o->long_name());
    std::string typed = e.get_option_name();
    const std::string bare = typed.substr(std::min(typed.find_first_not_of('-'), typed.size()));
    throw InputError("command line", typed, "unknown option" + did_you_mean(bare, names, "--"));
  } catch (const po::error& e) {
    throw InputError("command line", "", e.what());
  }
  return vm;
}

void add_scenario_options(po::options_description& d, ScenarioFiles& f) {
  d.add_options()("topology", po::value(&f.topology), "topology file (JSON); default: the embedded scenario")(
      "platform", po::value(&f.platform),
      "SimGrid platform XML giving the hosts and network (docs/INPUTS.md, \"Platform XML\")")(
      "controller", po::value(&f.controller), "with a platform XML: this host of it is the controller, not a node")(
      "clusters-at", po::value(&f.clusters_at),
      "with a platform XML: clusters (default: every zone holding hosts) or sites (every child zone of the root)")(
      "application", po::value(&f.application), "application file (JSON)")(
      "timers", po::value(&f.timers), "timer file (JSON); default: none with a custom topology");
}

std::map<std::string, std::string> parse_params(const std::vector<std::string>& raw) {
  std::map<std::string, std::string> params;
  for (const auto& p : raw) {
    auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("command line", "--param " + p, "expected KEY=VALUE");
    params[p.substr(0, eq)] = p.substr(eq + 1);
  }
  return params;
}

/** @brief The value of an option given by its name or by its alias (the name scripts written
 *  before the rename use); both at once is refused: which one should win would be a guess. */
template <class T>
std::optional<T> name_or_alias(const po::variables_map& vm, const std::string& name, const std::string& alias) {
  const bool named = vm.count(name) && !vm[name].defaulted();
  if (!vm.count(alias)) return vm.count(name) ? std::optional<T>(vm[name].as<T>()) : std::nullopt;
  if (named)
    throw InputError("command line", "--" + alias, fmt::format("alias of --{}, also given: give one of them", name));
  return vm[alias].as<T>();
}

/** @brief The summary's last lines: the two commands that write this very run's event trace and
 *  draw it. */
void print_how_to_see(const std::string& program, const std::vector<std::string>& raw_args) {
  std::string again = shell_word(program) + " run";
  for (const auto& a : raw_args) again += " " + shell_word(a);
  std::printf("\n  See this run: write its event trace, then draw its space-time diagram (docs/TRACE.md):\n"
              "    %s --event-trace run.jsonl\n"
              "    /usr/bin/python3 %s run.jsonl -o run.png\n",
              again.c_str(), shell_word(std::string(CKPTSIM_PLOTS_DIR) + "/spacetime.py").c_str());
}
// One attempt of `ckptsim run`, in its child: simulates, writes the results and the summary;
// the exit status (errors said on stderr as main says them).
int simulate_and_report(const RunConfig& config, const std::string& program, const std::vector<std::string>& sg_args,
                        const std::vector<std::string>& raw_args) {
  const RunOptions& opt = config.options;
  return exit_status_of([&] {
    Run run(config);
    run.prepare(simgrid_argv(program, sg_args));
    RunResult result = run.simulate();
    if (!opt.output.empty()) write_results(opt.output, result.document);
    if (!opt.quiet) std::fputs(result.summary.c_str(), stdout);
    if (!opt.quiet && opt.trace_file.empty()) print_how_to_see(program, raw_args);
    if (result.violations > 0) {
      std::fprintf(stderr, "ckptsim: %zu consistency violation(s): a protocol or engine bug (see above)\n",
                   result.violations);
      return 3;
    }
    if (!result.stuck.empty()) return 3; // said on stderr when it happened; the results say it too
    return 0;
  });
}
} // namespace

std::vector<std::string> simgrid_argv(const std::string& program, const std::vector<std::string>& sg_args) {
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), sg_args.begin(), sg_args.end());
  return argv;
}

int exit_status_of(const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    std::fprintf(stderr, "ckptsim: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ckptsim: error: %s\n", e.what());
    return 3;
  }
}

int run_command(const std::vector<std::string>& raw_args, const std::string& program) {
  std::vector<std::string> args = raw_args;
  auto sg_args = take_simgrid_args(args);
  ScenarioFiles files;
  RunOptions opt;
  std::vector<std::string> params;
  std::string end;
  std::string stall;
  std::string self_test;
  std::string seed;
  bool check_inputs = false;
  bool failure_free_run = true;
  std::string progress_every;
  po::options_description d("ckptsim run options");
  add_scenario_options(d, files);
  d.add_options()("help,h", "this help")("protocol", po::value(&opt.protocol)->default_value(default_protocol()),
                                         "protocol (see `ckptsim protocols`)")(
      "param", po::value(&params)->composing(), "protocol parameter KEY=VALUE (repeatable)")(
      "seed", po::value(&seed)->default_value("2"),
      "random seed (failures, application draws); the default, 2, gives the default scenario three failures")(
      "end", po::value(&end), "stop the simulation at this date (e.g. 24h)")(
      "stall-limit", po::value(&stall),
      "end a run that cannot progress (every process finished, or no application progress) after this long, "
      "exit 3 (default: 1h, or 10 restart overheads; inf: never)")(
      "output,o", po::value(&opt.output), "write the statistics here (.json, or .csv for a one-row table)")(
      "event-trace", po::value<std::string>(), "write the run's event trace here: JSON lines (docs/TRACE.md)")(
      "trace", po::value<std::string>(), "alias of --event-trace")(
      "event-trace-level", po::value<int>()->default_value(1),
      "what the event trace holds; 0: run events, 1: + application messages, 2: + every node action")(
      "trace-level", po::value<int>(), "alias of --event-trace-level")(
      "paje", po::value(&opt.paje_file), "write a Paje trace here, for ViTE or pj_dump (docs/TRACE.md, \"Paje\")")(
      "set", po::value(&opt.overrides)->composing(),
      "override an input field: PATH=VALUE, PATH starting with topology/, application/ or timers/ (repeatable)")(
      "network-model", po::value(&opt.network_model),
      "CM02 (latency + size/bandwidth, as in the papers), LV08 or SMPI (SimGrid's model of MPI, with its "
      "size-dependent factors); default CM02, SMPI for an mpi-trace application")(
      "progress", po::value<bool>(),
      "progress on stderr: a line redrawn every second on a terminal, else a line every --progress-every "
      "(default: true, but false with --quiet when stderr is not a terminal)")(
      "progress-every", po::value(&progress_every)->default_value("1min"),
      "wall time between two progress lines when stderr is not a terminal")("quiet,q", po::bool_switch(&opt.quiet),
                                                                            "no summary on stdout")(
      "failure-free-run", po::value(&failure_free_run)->default_value(true),
      "for application kinds whose processes wait for each other (mpi-trace, stencil, master-worker): first simulate "
      "the inputs under protocol none without failures and measure the overhead against that makespan; false: "
      "against the longest computation")(
      "check-inputs", po::bool_switch(&check_inputs),
      "check every input as this run would (files, --set, --protocol, --param), then exit 0 or 2 without "
      "simulating")(
      "self-test", po::value(&self_test),
      "testing aid: crash (abort at once) or hang (never end), for sweep runners; maxmin-abort (the first "
      "attempt of the simulation aborts as SimGrid does on its max-min precision); fold-often (the consistency "
      "oracle folds every 16 events, so that small runs exercise it); none does nothing");
  auto vm = parse(args, d);
  if (vm.count("help")) {
    std::cout << "usage: ckptsim run [OPTIONS] [--cfg=SIMGRID_OPTION ...] [--log=SIMGRID_LOG ...]\n\n" << d << "\n";
    return 0;
  }
  if (!self_test.empty() && self_test != "none" && self_test != "crash" && self_test != "hang" &&
      self_test != "maxmin-abort" && self_test != "fold-often")
    throw InputError("command line", "--self-test", "expected none, crash, hang, maxmin-abort or fold-often");
  opt.trace_file = name_or_alias<std::string>(vm, "event-trace", "trace").value_or("");
  opt.trace_level = *name_or_alias<int>(vm, "event-trace-level", "trace-level");
  if (opt.trace_level < 0 || opt.trace_level > 2)
    throw InputError("command line", vm.count("trace-level") ? "--trace-level" : "--event-trace-level",
                     "expected 0, 1 or 2");
  opt.seed = parse_seed(seed, "--seed");
  RunConfig config = load_scenario(files, opt.overrides);
  opt.params = parse_params(params);
  if (!end.empty()) {
    std::string why;
    auto v = units::parse(end, units::Kind::Duration, &why);
    if (!v) throw InputError("command line", "--end", why);
    opt.end_date = *v;
  }
  if (!stall.empty()) {
    std::string why;
    auto v = stall == "inf" ? std::optional<double>(std::numeric_limits<double>::infinity())
                            : units::parse(stall, units::Kind::Duration, &why);
    if (!v || !(*v > 0)) throw InputError("command line", "--stall-limit", v ? "must be greater than zero" : why);
    opt.stall_limit = *v;
  }
  // A terminal gets a line redrawn in place; a log (a batch job, a pipe) a line now and then, so
  // that a long run is never silent until it ends.
  const bool terminal = isatty(STDERR_FILENO) != 0;
  const bool progress = vm.count("progress") ? vm["progress"].as<bool>() : terminal || !opt.quiet;
  opt.progress = !progress ? ProgressStyle::Off : terminal ? ProgressStyle::Terminal : ProgressStyle::Lines;
  {
    std::string why;
    auto v = units::parse(progress_every, units::Kind::Duration, &why);
    if (!v || !(*v > 0)) throw InputError("command line", "--progress-every", v ? "must be greater than zero" : why);
    opt.progress_every = *v;
  }
  opt.simgrid_args = sg_args;
  if (self_test == "fold-often") opt.oracle_fold_every = 16;
  config.options = opt;

  if (check_inputs) { // what a run checks before its first simulated second, in a child (one engine each)
    const Attempt a = attempt_in_child([&] {
      return exit_status_of([&] {
        Run run(config);
        run.prepare(simgrid_argv(program, sg_args));
        return 0;
      });
    });
    return a.signal > 0 ? 3 : a.exit_status;
  }
  // A run that crashes or never ends, on purpose: how the sweep runner's handling of both is tested.
  if (self_test == "crash") std::abort();
  if (self_test == "hang")
    while (true) pause();
  if (failure_free_run && needs_failure_free_run(config))
    config.options.failure_free_makespan = failure_free_makespan(config, program, sg_args);

  // The simulation runs in a child: SimGrid's max-min precision abort starts it again with ten
  // times the precision (sim/cli/run_attempts.hpp).
  const bool precision_given = std::any_of(
      sg_args.begin(), sg_args.end(), [](const std::string& a) { return a.rfind("--cfg=maxmin/precision:", 0) == 0; });
  for (;;) {
    const Attempt a = attempt_in_child([&] {
      if (self_test == "maxmin-abort" && !(config.options.maxmin_aborted_at > 0)) {
        std::fputs("[0.000000] (testing aid) Cannot saturate more a constraint that has no active element!\n\tFor the "
                   "record, the usage of this constraint is 2e-05 while the maxmin precision to which it is compared "
                   "is 1e-05.\n",
                   stderr);
        std::abort();
      }
      return simulate_and_report(config, program, sg_args, raw_args);
    });
    if (!a.maxmin_abort) {
      if (a.signal > 0) { // a crash stays a crash for whoever started us
        std::signal(a.signal, SIG_DFL);
        std::raise(a.signal);
      }
      return a.exit_status;
    }
    // A precision fixed elsewhere (CKPTSIM_SIMGRID_ARGS) is the user's too: an attempt that aborts at
    // no larger a precision than the last would abort forever.
    if (precision_given || *a.maxmin_abort <= config.options.maxmin_aborted_at)
      throw InputError("command line", "--cfg=maxmin/precision",
                       fmt::format("SimGrid's max-min solver aborted on its rounding errors at the precision given, "
                                   "{:.2g}: give a larger one (docs/MODEL.md, \"Max-min precision\")",
                                   *a.maxmin_abort));
    std::fprintf(stderr,
                 "ckptsim: SimGrid's max-min solver aborted on its rounding errors at precision %g: running the "
                 "simulation again from its start with %g (docs/MODEL.md, \"Max-min precision\")\n",
                 *a.maxmin_abort, 10 * *a.maxmin_abort);
    config.options.maxmin_aborted_at = *a.maxmin_abort;
  }
}

int check_run_inputs(const std::vector<std::string>& run_args, const std::string& program) {
  std::vector<std::string> args = run_args;
  args.push_back("--check-inputs");
  return exit_status_of([&] { return run_command(args, program); });
}

int validate_command(const std::vector<std::string>& raw_args, const std::string& program) {
  std::vector<std::string> args = raw_args;
  auto sg_args = take_simgrid_args(args);
  ScenarioFiles files;
  std::vector<std::string> positional;
  std::string protocol = default_protocol();
  po::options_description d("ckptsim validate options");
  add_scenario_options(d, files);
  d.add_options()("help,h", "this help")("protocol", po::value(&protocol)->default_value(protocol),
                                         "check the protocol name too")(
      "file", po::value(&positional)->composing(), "files to check, kind recognised from their content");
  po::positional_options_description pos;
  pos.add("file", -1);
  auto vm = parse(args, d, &pos);
  if (vm.count("help")) {
    std::cout << "usage: ckptsim validate [FILE...] [--topology F] [--application F] [--timers F]\n"
                 "Files given without an option are recognised by their content: \"kind\" makes an application,\n"
                 "\"clusters\" with \"nodes\" / \"wan\" / \"mtbf\" / \"platform\" a topology, \"default\" /\n"
                 "\"processes\" / an object \"clusters\" a timer file. Without a topology, application and timer\n"
                 "files are checked against the embedded default topology.\n\n"
              << d << "\n";
    return 0;
  }
  for (const auto& f : positional) {
    json doc = load_json_file(f);
    if (!doc.is_object()) throw InputError(f, "", "expected a JSON object");
    if (doc.contains("kind"))
      files.application = f;
    else if (doc.contains("wan") || doc.contains("mtbf") || doc.contains("platform") ||
             (doc.contains("clusters") && doc["clusters"].is_array()))
      files.topology = f;
    else if (doc.contains("default") || doc.contains("processes") ||
             (doc.contains("clusters") && doc["clusters"].is_object()))
      files.timers = f;
    else
      throw InputError(f, "",
                       "cannot tell which kind of input this is; name it with --topology, --application "
                       "or --timers");
  }
  RunConfig config;
  const bool topology_only = files.application.empty() && (!files.topology.empty() || !files.platform.empty());
  if (topology_only) { // nothing refers to the clusters: check the topology (and its XML) alone
    config.topology_doc = files.topology.empty() ? json::object() : load_json_file(files.topology);
    config.topology_file = files.topology.empty() ? "<command line>" : files.topology;
    if (!files.topology.empty()) config.base_dir = std::filesystem::path(files.topology).parent_path().string();
    if (!files.platform.empty()) config.topology_doc["platform"] = files.platform;
    set_platform_options(config.topology_doc, files);
    Topology topo = parse_topology(config.topology_doc, config.topology_file, config.base_dir);
    std::printf("ok: topology %s%s\n", config.topology_file.c_str(),
                topo.platform_xml.empty() ? "" : " (its platform XML is loaded only with an application)");
    return 0;
  }
  config = load_scenario(files, {});
  config.options.protocol = protocol;
  Run run(config);
  run.prepare(simgrid_argv(program, sg_args));
  std::printf("ok: topology %s, application %s, timers %s, protocol %s\n", config.topology_file.c_str(),
              config.application_file.c_str(), config.timers_file.c_str(), protocol.c_str());
  return 0;
}

int protocols_command(const std::vector<std::string>&) {
  std::fputs((protocols_listing() + "\n" + timers_listing()).c_str(), stdout);
  return 0;
}

int list_command(const std::vector<std::string>& args) {
  if (args.size() == 1 && args[0] == "--results") { // the tables of docs/RESULTS.md
    std::fputs(result_fields_markdown().c_str(), stdout);
    return 0;
  }
  if (!args.empty())
    throw InputError("command line", args[0],
                     "ckptsim list takes no option but --results (every field of the results document)");
  std::fputs(full_listing().c_str(), stdout);
  return 0;
}

int platform_command(const std::vector<std::string>& args) {
  std::string topology;
  std::string output;
  po::options_description d("ckptsim platform options");
  d.add_options()("help,h", "this help")("topology", po::value(&topology), "topology file (default: embedded)")(
      "output,o", po::value(&output), "write the XML here (default: stdout)");
  auto vm = parse(args, d);
  if (vm.count("help")) {
    std::cout << "usage: ckptsim platform [--topology F] [--output F.xml]\n\n" << d << "\n";
    return 0;
  }
  Topology topo =
      topology.empty()
          ? parse_topology(parse_json_text(default_scenario::topology(), "<embedded:topology>"), "<embedded:topology>",
                           "")
          : parse_topology(load_json_file(topology), topology, std::filesystem::path(topology).parent_path().string());
  std::string xml = platform_xml(topo);
  if (output.empty())
    std::fputs(xml.c_str(), stdout);
  else
    write_file_atomically(output, xml);
  return 0;
}

} // namespace ckptsim::cli
