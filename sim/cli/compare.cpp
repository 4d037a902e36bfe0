/* `ckptsim compare`: the same inputs under several protocols, one table; with --seeds, over many
 * seeds, each cell a mean with its 95 % interval. Each run is a child process (SimGrid's engine
 * is process-global, and a run that aborts must not take the others down), --jobs at a time. With
 * the same seed the failure process draws the same failure dates and victims for every protocol
 * (a protocol that handles one failure at a time may defer some: the table says how many). The
 * options and each protocol's parameters are checked once, before any run. */
#include "sim/cli/child_runs.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/compare_plot.hpp"
#include "sim/cli/compare_table.hpp"
#include "sim/cli/listing.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/protocol_list.hpp"
#include "sim/cli/seeds.hpp"
#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <unistd.h>

namespace ckptsim::cli {

namespace {

const char* kHelp = R"(usage: ckptsim compare [--protocols LIST] [--seeds LIST] [--jobs N] [--csv FILE] [--plot FILE]
                       [ckptsim run options...]

Runs each protocol on the same inputs, each run in its own process, and prints one table. Every
option and each protocol's parameters are checked once, before any run (exit 2).
  --protocols LIST  comma-separated NAME[:KEY=VALUE...] (default %s)
  --seeds LIST      several seeds ("1-20", "1,4,9", "1-5,10"): each cell is the mean over the seeds
                    with the half-width of its 95 %% confidence interval (Student's t); the same seed
                    draws the same failures for every protocol. Without it, one run per protocol
                    with --seed (default 2)
  --jobs N          runs at a time (default: the number of cores)
  --csv FILE        also write the table as CSV (with --seeds: a column "C ci95" beside each "C")
  --plot FILE       also draw it as bar charts, intervals as error bars (.png, .svg or .pdf;
                    plots/compare.py)
Every other option goes to `ckptsim run` (see `ckptsim run --help`); --protocol, --param,
--output and --quiet are set per protocol.
)";

struct CompareArgs {
  std::string list;
  std::string csv, plot;
  std::vector<std::uint64_t> seeds; // empty: one run per protocol, --seed as given
  std::string seeds_text;           // as given
  int jobs = 0;
  std::vector<std::string> run_args;
};

CompareArgs parse_args(const std::vector<std::string>& raw_args) {
  CompareArgs c;
  c.list = default_compare_list();
  bool seed_given = false;
  for (std::size_t i = 0; i < raw_args.size(); i++) {
    const std::string& a = raw_args[i];
    const bool own = a == "--protocols" || a == "--csv" || a == "--plot" || a == "--seeds" || a == "--jobs";
    if (own && i + 1 >= raw_args.size()) throw InputError("command line", a, "expects a value");
    if (a == "--protocols") {
      c.list = raw_args[++i];
    } else if (a == "--csv") {
      c.csv = raw_args[++i];
    } else if (a == "--plot") {
      c.plot = raw_args[++i];
    } else if (a == "--seeds") {
      c.seeds_text = raw_args[++i];
      c.seeds = parse_seed_list(c.seeds_text, "--seeds");
    } else if (a == "--jobs") {
      const std::string& v = raw_args[++i];
      if (v.empty() || v.size() > 4 || !std::all_of(v.begin(), v.end(), ::isdigit) || std::stoi(v) < 1)
        throw InputError("command line", "--jobs", fmt::format("expected an integer from 1 to 9999, found \"{}\"", v));
      c.jobs = std::stoi(v);
    } else if (a == "--protocol" || a == "--param" || a == "--output" || a == "-o") {
      throw InputError("command line", a, "set per protocol by compare: use --protocols NAME:KEY=VALUE");
    } else {
      seed_given = seed_given || a == "--seed";
      c.run_args.push_back(a);
    }
  }
  if (seed_given && !c.seeds.empty())
    throw InputError("command line", "--seeds", "give --seed (one run per protocol) or --seeds, not both");
  if (c.jobs == 0) c.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return c;
}

} // namespace

int compare_command(const std::vector<std::string>& raw_args, const std::string& program) {
  for (const auto& a : raw_args)
    if (a == "--help" || a == "-h") {
      std::printf(kHelp, default_compare_list().c_str());
      return 0;
    }
  const CompareArgs c = parse_args(raw_args);
  const auto protocols = parse_protocol_list(c.list, "--protocols");
  if (!c.plot.empty()) check_plot_output(c.plot);
  // Once, before any run: the options shared by every run (said once when they are wrong), then
  // what each protocol adds (its parameters, what it requires of the inputs).
  for (const auto& p : protocols) {
    std::vector<std::string> args = c.run_args;
    for (const auto& a : protocol_args(p)) args.push_back(a);
    if (const int status = check_run_inputs(args, program); status != 0) {
      std::fprintf(stderr, "ckptsim compare: %s refused (above): nothing ran\n", p.label.c_str());
      return 2;
    }
  }

  const std::vector<std::uint64_t> seeds = c.seeds;
  const std::size_t per_protocol = seeds.empty() ? 1 : seeds.size();
  std::vector<ChildRun> runs;
  for (const auto& p : protocols)
    for (std::size_t s = 0; s < per_protocol; s++) {
      ChildRun r;
      r.args = c.run_args;
      if (!seeds.empty()) r.args.insert(r.args.end(), {"--seed", std::to_string(seeds[s])});
      for (const auto& a : protocol_args(p)) r.args.push_back(a);
      runs.push_back(std::move(r));
    }
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("ckptsim-compare-{}", getpid());
  std::filesystem::create_directories(dir);
  run_all(runs, c.jobs, program, dir.string(), runs.size() > protocols.size() ? "compare" : "");
  std::filesystem::remove_all(dir);

  std::vector<ProtocolRuns> table_runs;
  int worst = 0;
  for (std::size_t i = 0; i < protocols.size(); i++) {
    ProtocolRuns pr{protocols[i].label, {}, {}};
    for (std::size_t s = 0; s < per_protocol; s++) {
      const ChildRun& r = runs[i * per_protocol + s];
      pr.status.push_back(r.status);
      pr.docs.push_back(r.doc.is_null() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.doc));
      if (r.status != 0) {
        worst = 3;
        std::fprintf(stderr, "ckptsim compare: %s%s: exit %d%s%s\n", protocols[i].label.c_str(),
                     seeds.empty() ? "" : fmt::format(", seed {}", seeds[s]).c_str(), r.status,
                     r.error.empty() ? "" : ": ", r.error.c_str());
      }
    }
    table_runs.push_back(std::move(pr));
  }

  const bool network = any_network(table_runs);
  const CompareTable t = seeds.empty() ? single_run_table(table_runs, network) : seeds_table(table_runs, network);
  std::fputs(aligned(t.header, t.rows).c_str(), stdout);
  if (seeds.empty()) {
    std::printf("\nfailures (date, victim) of each run:\n");
    for (const auto& r : table_runs)
      std::printf("  %-24s %s\n", r.label.c_str(), failures_line(r.docs.front()).c_str());
  } else {
    std::printf("\nmeans over %zu seeds (%s) of the runs that completed, ± the half-width of their 95 %% confidence\n"
                "interval (Student's t); [k]: only k runs had the figure; violations: summed. Seed s draws the\n"
                "same failures for every protocol.\n",
                seeds.size(), c.seeds_text.c_str());
  }
  std::printf(
      "\ncolumns: checkpoint saves = node states saved; held max = checkpoint bytes kept at once (one copy each);\n"
      "ctrl = protocol messages; WAN = those between nodes of different clusters (messages to a service on the\n"
      "controller host, such as a coordinator or an event logger, cross its own link: not counted as WAN);\n"
      "log max = logged messages held at once (entries, MB); failures/def = failures struck / deferred (one at\n"
      "a time); rolled back/f = processes rolled back per failure (mean); energy = what the nodes drew "
      "(docs/MODEL.md,\n"
      "\"Energy\": each process' time computing, checkpointing, idle and down at its cluster's power).\n");
  if (network)
    std::printf("network faults: cut off = seconds a pair of clusters could not reach each other (summed over the\n"
                "pairs); msgs delayed = messages that waited for a route, delay = their waits summed; resent =\n"
                "transfers a link failure cut and that were sent again (docs/MODEL.md, \"Network faults\").\n");

  std::string text;
  auto csv_line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); i++) text += (i ? "," : "") + cells[i];
    text += "\n";
  };
  csv_line(t.csv_header);
  for (const auto& r : t.csv_rows) csv_line(r);
  if (!c.csv.empty()) write_file_atomically(c.csv, text);
  if (!c.plot.empty()) {
    std::string given;
    for (const auto& a : raw_args) given += " " + a;
    const int drawn =
        draw_csv("compare.py", text, c.plot,
                 "ckptsim compare: " + c.list + (seeds.empty() ? "" : fmt::format(", {} seeds", seeds.size())),
                 "ckptsim compare" + given);
    if (drawn != 0) return std::max(worst, drawn == 2 ? 2 : 1);
  }
  return worst;
}

} // namespace ckptsim::cli
