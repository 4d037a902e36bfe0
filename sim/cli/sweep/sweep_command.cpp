/* `ckptsim sweep FILE`: every run of a sweep file (docs/SWEEP.md) in its own child process,
 * --jobs at a time; results appended as runs finish; an interrupted sweep resumes; --dry-run
 * lists the runs; --emit writes them for another scheduler (GNU parallel, Slurm). */
#include "sim/cli/commands.hpp"
#include "sim/cli/default_scenario.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/scenario.hpp"
#include "sim/cli/sweep/aggregate.hpp"
#include "sim/cli/sweep/emit.hpp"
#include "sim/cli/sweep/process_pool.hpp"
#include "sim/cli/sweep/records.hpp"
#include "sim/cli/sweep/sweep_run.hpp"
#include "sim/cli/sweep/sweep_spec.hpp"
#include "sim/config/input_error.hpp"
#include "sim/units/units.hpp"
#include "sim/version.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace ckptsim::cli {

namespace fs = std::filesystem;
using namespace ckptsim::sweep;

namespace {

struct SweepArgs {
  std::string file;
  int jobs = 0;
  double time_limit = -1; // < 0: the sweep file's
  std::string out;
  bool dry_run = false;
  std::string emit; // "", "jobs", "slurm"
  EmitOptions emit_options;
  std::vector<std::string> emit_only_flags; // given, to refuse them without --emit
  std::string only;
  bool only_given = false;
  bool retry_failed = false;
  bool restart = false;
  int progress = -1; // -1: on (a line redrawn on a terminal, else one per finished run); 0: off
};

const char* kHelp = R"(usage: ckptsim sweep FILE [OPTIONS]

Runs every point of a sweep file (docs/SWEEP.md), each run in its own process.
  --jobs N            runs at a time (default: the number of cores)
  --time-limit DUR    wall-clock limit of one run, e.g. 10min (default: the file's "time_limit", else none);
                      a run past it is killed and recorded as "timeout"
  --out PREFIX        results PREFIX.jsonl, PREFIX.csv, PREFIX.points.csv (default: the file's "output",
                      else the sweep file's name without .json)
  --dry-run           check every run's inputs (exit 2 if any is refused), then list the runs (done or
                      pending) and their `ckptsim run` command lines
  --emit jobs|slurm   print one command line per batch of pending runs (for GNU parallel or any scheduler),
                      or a Slurm job-array script over them; merge their parts with `ckptsim merge`
  --runs-per-task N   with --emit: runs per job line or array task (default: 1 line per run; Slurm: the
                      fewest that keep the array within --max-tasks)
  --max-tasks N       with --emit slurm: array tasks at most (default 1000; Slurm refuses task ids from
                      its MaxArraySize on, 1001 by default)
  --cpus-per-task N   with --emit: runs of a batch at a time (default 1; Slurm: #SBATCH --cpus-per-task)
  --only LIST         run only these run indices (e.g. 7 or 0-9,12)
  --retry-failed      run again the runs recorded as failed (default: a recorded run is done)
  --restart           discard the results of an earlier sweep (and its parts) and start over
  --progress BOOL     progress on stderr (default true): a line redrawn on a terminal, else one per finished run
On SIGTERM (a scheduler's time limit or cancellation) the runs under way are stopped and recorded as
crashed, the tables written, and the sweep exits with 3; the runs not started stay pending.
Exit status: 0 every run succeeded, 3 some run failed (recorded, the others went on) or the sweep was
stopped, 2 bad input.
)";

SweepArgs parse_args(const std::vector<std::string>& args) {
  SweepArgs a;
  auto value = [&](std::size_t& i) -> const std::string& {
    if (i + 1 >= args.size()) throw InputError("command line", args[i], "expects a value");
    return args[++i];
  };
  auto count = [&](std::size_t& i, const std::string& option, long most) {
    const std::string& v = value(i);
    char* end = nullptr;
    const long n = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != 0 || n < 1 || n > most)
      throw InputError("command line", option, fmt::format("expected a number from 1 to {}", most));
    return static_cast<std::size_t>(n);
  };
  for (std::size_t i = 0; i < args.size(); i++) {
    const std::string& x = args[i];
    if (x == "--jobs" || x == "-j") {
      a.jobs = static_cast<int>(count(i, "--jobs", 4096));
    } else if (x == "--time-limit") {
      std::string why;
      auto d = units::parse(value(i), units::Kind::Duration, &why);
      if (!d || *d < 0) throw InputError("command line", "--time-limit", d ? "expected a duration >= 0" : why);
      a.time_limit = *d;
    } else if (x == "--out") {
      a.out = value(i);
    } else if (x == "--dry-run") {
      a.dry_run = true;
    } else if (x == "--emit") {
      a.emit = value(i);
      if (a.emit != "jobs" && a.emit != "slurm") throw InputError("command line", "--emit", "expected jobs or slurm");
    } else if (x == "--runs-per-task" || x == "--max-tasks" || x == "--cpus-per-task") {
      // --cpus-per-task becomes each task's --jobs: the same bounds.
      const std::size_t n = count(i, x, x == "--cpus-per-task" ? 4096 : 1000000);
      auto& o = a.emit_options;
      (x == "--runs-per-task" ? o.runs_per_task : x == "--max-tasks" ? o.max_tasks : o.cpus_per_task) = n;
      a.emit_only_flags.push_back(x);
    } else if (x == "--only") {
      a.only = value(i);
      a.only_given = true;
    } else if (x == "--retry-failed") {
      a.retry_failed = true;
    } else if (x == "--restart") {
      a.restart = true;
    } else if (x == "--progress") {
      const std::string& v = value(i);
      if (v != "true" && v != "false") throw InputError("command line", "--progress", "expected true or false");
      a.progress = v == "true" ? 1 : 0;
    } else if (!x.empty() && x[0] == '-') {
      throw InputError("command line", x, "unknown option of ckptsim sweep (see ckptsim sweep --help)");
    } else if (a.file.empty()) {
      a.file = x;
    } else {
      throw InputError("command line", x, "one sweep file only");
    }
  }
  if (a.file.empty()) throw InputError("command line", "FILE", "ckptsim sweep needs a sweep file");
  if (a.emit.empty() && !a.emit_only_flags.empty())
    throw InputError("command line", a.emit_only_flags.front(), "only applies to --emit jobs|slurm");
  a.emit_options.kind = a.emit;
  a.emit_options.retry_failed = a.retry_failed;
  if (a.jobs == 0) a.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return a;
}

std::set<std::size_t> parse_only(const std::string& text, std::size_t total) {
  // An empty list would mean every run: a script's empty variable must not run a whole sweep.
  if (text.empty()) throw InputError("command line", "--only", "an empty list: expected INDEX or FIRST-LAST, ...");
  std::set<std::size_t> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    const auto dash = item.find('-');
    try {
      std::size_t used = 0;
      const std::size_t lo = std::stoul(item.substr(0, dash), &used);
      if (used != (dash == std::string::npos ? item.size() : dash)) throw std::invalid_argument(item);
      std::size_t hi = lo;
      if (dash != std::string::npos) {
        hi = std::stoul(item.substr(dash + 1), &used);
        if (used != item.size() - dash - 1) throw std::invalid_argument(item);
      }
      if (lo > hi || hi >= total)
        throw InputError("command line", "--only", fmt::format("\"{}\": run indices go from 0 to {}", item, total - 1));
      for (std::size_t k = lo; k <= hi; k++) out.insert(k);
    } catch (const std::logic_error&) {
      throw InputError("command line", "--only", fmt::format("\"{}\": expected INDEX or FIRST-LAST", item));
    }
  }
  return out;
}

/** The records of a sweep: PREFIX.jsonl, then the parts under PREFIX.parts/ (written by emitted
 * job lines or array tasks), so that a sweep run or emitted again skips what the parts hold. */
std::vector<std::pair<std::string, std::vector<Record>>> recorded_runs(const std::string& prefix) {
  std::vector<std::pair<std::string, std::vector<Record>>> out;
  out.emplace_back(prefix + ".jsonl", read_records(prefix + ".jsonl"));
  std::error_code ec;
  std::vector<std::string> parts;
  for (const auto& e : fs::directory_iterator(prefix + ".parts", ec))
    if (e.path().extension() == ".jsonl" && e.is_regular_file()) parts.push_back(e.path().string());
  std::sort(parts.begin(), parts.end());
  for (const auto& p : parts) out.emplace_back(p, read_records(p));
  return out;
}

/** Checks the inputs of every run as the run would (`ckptsim run --check-inputs`), once per
 * distinct command line but its seed (a seed changes no input); says on stderr which runs are
 * refused, after each check's own message. Returns how many command lines were refused. */
std::size_t check_inputs_of(const std::vector<RunSpec>& runs, const std::string& program) {
  std::set<std::vector<std::string>> checked;
  std::size_t refused = 0;
  for (const auto& run : runs) {
    std::vector<std::string> but_seed;
    for (std::size_t i = 0; i < run.args.size(); i++)
      if (run.args[i] == "--seed")
        i++;
      else
        but_seed.push_back(run.args[i]);
    if (!checked.insert(but_seed).second) continue;
    if (check_run_inputs(run.args, program) != 0) {
      std::fprintf(stderr, "sweep: run %zu (%s) and the runs differing from it only by their seed: refused (above)\n",
                   run.index, run.key.c_str());
      refused++;
    }
  }
  return refused;
}

/** Says on stderr why the first failed runs among @p indices failed (the reason is in the
 * .jsonl; a terminal that only says "2 failed" leaves the user to look for it). */
void say_first_failures(const std::string& jsonl, const std::set<std::size_t>& indices, std::size_t max = 3) {
  std::size_t said = 0, failed = 0;
  std::map<std::size_t, Record> last; // a run retried here: its latest record
  for (auto& r : read_records(jsonl))
    if (indices.count(r.index)) last[r.index] = std::move(r);
  for (const auto& [index, r] : last) {
    if (r.status == "ok") continue;
    failed++;
    if (said == max) continue;
    said++;
    std::string why = r.error;
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    const auto nl = why.rfind('\n');
    std::fprintf(stderr, "sweep: run %zu (%s): %s%s%s\n", index, r.key.c_str(), r.status.c_str(),
                 why.empty() ? "" : ": ", why.substr(nl == std::string::npos ? 0 : nl + 1).c_str());
  }
  if (failed > said)
    std::fprintf(stderr, "sweep: ... and %zu more failed run(s): see %s\n", failed - said, jsonl.c_str());
}

std::string self_path(const std::string& program) {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::absolute(program).string() : p.string();
}

} // namespace

int sweep_command(const std::vector<std::string>& raw_args, const std::string& program) {
  for (const auto& a : raw_args)
    if (a == "--help" || a == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    }
  const SweepArgs args = parse_args(raw_args);
  const SweepSpec spec = load_sweep(args.file);
  const double time_limit = args.time_limit >= 0 ? args.time_limit : spec.time_limit;
  const std::string prefix = args.out.empty() ? spec.output : args.out;
  const std::vector<RunSpec> runs = plan_runs(spec);
  const std::string fingerprint = sweep_fingerprint(spec);
  const ResultFiles files{prefix + ".jsonl", prefix + ".csv", prefix + ".points.csv"};

  std::set<std::size_t> only;
  if (args.only_given) only = parse_only(args.only, runs.size());
  // --restart: the earlier results go once the options are known to be good (an emission refused
  // for its options discards nothing).
  auto discard_earlier = [&] {
    if (!args.restart) return;
    fs::remove(files.jsonl);
    fs::remove(files.csv);
    fs::remove(files.points);
    fs::remove_all(prefix + ".parts");
  };
  // A run's successful record wins over a failed one, wherever each is (a failure retried here
  // after a part recorded it, or the reverse); among records alike, the later one (supersedes).
  std::map<std::string, Record> latest;
  if (!args.restart)
    for (auto& [path, records] : recorded_runs(prefix))
      for (auto& r : records) {
        if (r.sweep != fingerprint)
          throw InputError(path, fmt::format("run {}", r.index),
                           "these results were made by a different sweep (the sweep file or one of its inputs "
                           "changed since): use --restart to discard them and their parts, or --out to write "
                           "elsewhere");
        auto it = latest.find(r.key);
        if (it == latest.end() || supersedes(r, it->second)) latest[r.key] = std::move(r);
      }
  std::vector<const RunSpec*> pending;
  for (const auto& run : runs) {
    if (!only.empty() && !only.count(run.index)) continue;
    auto it = latest.find(run.key);
    const bool done = it != latest.end() && (it->second.status == "ok" || !args.retry_failed);
    if (!done) pending.push_back(&run);
  }

  if (args.dry_run) {
    // Every run's inputs, --set paths included, before any run: a typo would otherwise fail each run.
    if (const std::size_t refused = check_inputs_of(runs, program); refused > 0) {
      std::fprintf(stderr, "sweep: %s: the inputs of %zu distinct run(s) are refused: nothing would run\n",
                   args.file.c_str(), refused);
      return 2;
    }
    std::printf("%s: %zu runs, %zu pending; results in %s\n", args.file.c_str(), runs.size(), pending.size(),
                files.csv.c_str());
    std::set<std::size_t> todo;
    for (const auto* p : pending) todo.insert(p->index);
    for (const auto& run : runs) {
      auto it = latest.find(run.key);
      const std::string state = todo.count(run.index) ? "pending" : it != latest.end() ? it->second.status : "skipped";
      std::string cmd = "ckptsim run";
      for (const auto& a : run.args) cmd += " " + shell_quote(a);
      std::printf("%5zu  %-8s %s\n       %s\n", run.index, state.c_str(), run.key.c_str(), cmd.c_str());
    }
    return 0;
  }
  if (!args.emit.empty()) {
    if (pending.empty()) {
      std::size_t failed = 0;
      for (const auto& run : runs) {
        auto it = latest.find(run.key);
        failed += (only.empty() || only.count(run.index)) && it != latest.end() && it->second.status != "ok";
      }
      std::fprintf(stderr,
                   "sweep: nothing to emit: every run%s of %s is recorded in %s.jsonl or %s.parts/ (%zu failed%s); "
                   "no %s written\n",
                   only.empty() ? "" : " of --only", args.file.c_str(), prefix.c_str(), prefix.c_str(), failed,
                   failed > 0 && !args.retry_failed ? ": --retry-failed emits them" : "",
                   args.emit == "slurm" ? "script" : "job line");
      return 0;
    }
    EmitContext ctx;
    ctx.self = self_path(program);
    ctx.sweep_file = fs::absolute(args.file).string();
    ctx.prefix = fs::absolute(prefix).lexically_normal().string();
    ctx.version = version();
    ctx.time_limit = time_limit > 0 ? time_limit : 0;
    ctx.total_runs = runs.size();
    if (args.emit == "slurm" && ctx.prefix.find_first_of("%\\") != std::string::npos)
      throw InputError("command line", "--out",
                       fmt::format("\"{}\": Slurm reads '%' in an output file name as a pattern and '\\' as an "
                                   "escape; choose a results prefix without them",
                                   prefix));
    std::vector<std::size_t> indices;
    for (const auto* p : pending) indices.push_back(p->index);
    const std::string text = emit_text(ctx, indices, args.emit_options); // checks the options before any folder
    discard_earlier();
    // Slurm opens each task's output file in the parts folder before the task starts: it must exist.
    fs::create_directories(ctx.prefix + ".parts");
    std::fputs(text.c_str(), stdout);
    return 0;
  }

  discard_earlier();
  std::vector<Record> kept_records;
  for (auto& [k, r] : latest) kept_records.push_back(r);
  SweepProgress progress(pending.size(), args.progress != 0, isatty(STDERR_FILENO) != 0);
  const auto outcome =
      execute_runs(spec, pending, kept_records, files, fingerprint, args.jobs, time_limit, program, progress,
                   /*write_points=*/only.empty());
  std::fprintf(stderr, "sweep: %zu run(s) done now (%zu recorded before), %zu failed; results: %s\n", outcome.finished,
               latest.size(), outcome.failed, files.csv.c_str());
  if (outcome.failed > 0) {
    std::set<std::size_t> now;
    for (const auto* p : pending) now.insert(p->index);
    say_first_failures(files.jsonl, now);
  }
  if (outcome.stopped) {
    std::fprintf(stderr,
                 "sweep: stopped by SIGTERM: the runs under way are recorded as crashed, %zu run(s) not started "
                 "(running the sweep again does them)\n",
                 outcome.not_started);
    return 3;
  }
  if (outcome.finished > 0 && outcome.bad_input == outcome.finished) return 2;
  return outcome.any_failed_recorded ? 3 : 0;
}

int merge_command(const std::vector<std::string>& args) {
  std::string out;
  std::vector<std::string> inputs;
  for (std::size_t i = 0; i < args.size(); i++) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::printf("usage: ckptsim merge --out PREFIX PART.jsonl...\n\n"
                  "Combines the JSON-lines results of parts of one sweep (`ckptsim sweep --emit`, or sweeps run\n"
                  "with --only on several machines) into PREFIX.jsonl, PREFIX.csv and PREFIX.points.csv. Parts of\n"
                  "different sweeps are refused; a run present in several parts keeps its successful record.\n"
                  "The runs already in PREFIX.jsonl are kept: it is read first, as one more part.\n");
      return 0;
    }
    if (args[i] == "--out") {
      if (i + 1 >= args.size()) throw InputError("command line", "--out", "expects a value");
      out = args[++i];
    } else if (!args[i].empty() && args[i][0] == '-') {
      throw InputError("command line", args[i], "unknown option of ckptsim merge");
    } else {
      inputs.push_back(args[i]);
    }
  }
  if (out.empty()) throw InputError("command line", "--out", "ckptsim merge needs --out PREFIX");
  if (inputs.empty()) throw InputError("command line", "PART", "ckptsim merge needs result files to merge");
  // Rewriting PREFIX.jsonl from the parts alone would lose the runs recorded only there (done by a
  // local sweep before the parts were emitted, or a failure retried here): it is an input too.
  const std::string existing = out + ".jsonl";
  bool listed = false;
  for (const auto& path : inputs) {
    std::error_code ec;
    listed = listed || fs::equivalent(path, existing, ec);
  }
  if (!listed && fs::exists(existing)) inputs.insert(inputs.begin(), existing);
  std::map<std::string, Record> merged;
  std::string fingerprint;
  std::string first;
  for (const auto& path : inputs) {
    if (!fs::exists(path)) throw InputError(path, "", "no such file");
    for (auto& r : read_records(path)) {
      if (fingerprint.empty()) {
        fingerprint = r.sweep;
        first = path;
      } else if (r.sweep != fingerprint) {
        throw InputError(
            path, fmt::format("run {}", r.index),
            fmt::format("a part of a different sweep than {} (another sweep file or changed inputs)", first));
      }
      auto it = merged.find(r.key);
      if (it == merged.end() || supersedes(r, it->second)) merged[r.key] = std::move(r);
    }
  }
  std::vector<Record> records;
  for (auto& [k, r] : merged) records.push_back(std::move(r));
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.index < b.index; });
  const ResultFiles files{out + ".jsonl", out + ".csv", out + ".points.csv"};
  write_all(files, records, table_comments(fmt::format("ckptsim merge of {} part file(s)", inputs.size()), fingerprint),
            true);
  std::fprintf(stderr, "merge: %zu run(s) from %zu file(s) into %s\n", records.size(), inputs.size(),
               files.csv.c_str());
  return 0;
}

} // namespace ckptsim::cli
