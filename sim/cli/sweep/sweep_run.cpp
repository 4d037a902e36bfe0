#include "sim/cli/sweep/sweep_run.hpp"

#include "sim/cli/commands.hpp"
#include "sim/cli/default_scenario.hpp"
#include "sim/cli/failure_free.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/scenario.hpp"
#include "sim/cli/sweep/aggregate.hpp"
#include "sim/cli/sweep/process_pool.hpp"
#include "sim/cli/sweep/stop_request.hpp"
#include "sim/config/input_error.hpp"
#include "sim/version.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace ckptsim::sweep {

namespace fs = std::filesystem;

namespace {

std::uint64_t fnv1a(std::uint64_t h, const std::string& s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> sets_of(const RunSpec& run) {
  std::vector<std::string> sets;
  for (std::size_t i = 0; i + 1 < run.args.size(); i++)
    if (run.args[i] == "--set") sets.push_back(run.args[i + 1]);
  return sets;
}

/** The kept result columns of a run's results document, numbers as numbers. */
nlohmann::ordered_json kept_stats(const nlohmann::ordered_json& doc, const std::vector<std::string>& keep) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  // In the order of the keep list, so that every run lists its columns alike.
  const auto flat = flatten_results(doc);
  for (const auto& pattern : keep) {
    if (!pattern.empty() && pattern[0] == '/') { // a JSON pointer: any value, a series of records included
      const nlohmann::ordered_json::json_pointer ptr(pattern);
      if (doc.contains(ptr)) out[pattern] = doc.at(ptr);
      continue;
    }
    for (const auto& [col, text] : flat) {
      if (!kept({pattern}, col) || out.contains(col)) continue;
      auto v = nlohmann::ordered_json::parse(text, nullptr, false);
      out[col] =
          !v.is_discarded() && (v.is_number() || v.is_boolean() || v.is_null()) ? v : nlohmann::ordered_json(text);
    }
  }
  return out;
}

} // namespace

std::vector<RunSpec> plan_runs(const SweepSpec& spec) {
  json topology;
  if (!spec.topology.empty())
    topology = load_json_file(spec.topology);
  else if (spec.platform.empty())
    topology = parse_json_text(default_scenario::topology(), "<embedded:topology>");
  const bool storage_object = topology.is_object() && topology.contains("storage") && topology["storage"].is_object();
  auto runs = expand(spec, storage_object);
  ScenarioFiles files{spec.topology, spec.platform, spec.application, spec.timers};
  std::set<std::vector<std::string>> checked;
  for (const auto& run : runs) {
    auto sets = sets_of(run);
    if (!checked.insert(sets).second) continue;
    try {
      load_scenario(files, sets);
    } catch (const InputError& e) {
      throw InputError(spec.file, "/axes", fmt::format("run {} ({}): {}", run.index, run.key, e.what()));
    }
  }
  return runs;
}

std::string sweep_fingerprint(const SweepSpec& spec) {
  std::uint64_t h = fnv1a(14695981039346656037ULL, spec.document.dump());
  for (const auto* f : {&spec.topology, &spec.platform, &spec.application, &spec.timers})
    h = fnv1a(fnv1a(h, "\n--file--\n"), f->empty() ? std::string() : file_text(*f));
  return fmt::format("{:016x}", h);
}

SweepProgress::SweepProgress(std::size_t total, bool enabled, bool terminal)
    : total_(total)
    , enabled_(enabled)
    , terminal_(terminal)
    , start_(std::chrono::steady_clock::now()) {}

void SweepProgress::update(std::size_t done, std::size_t failed, std::size_t running) {
  if (!enabled_ || (!terminal_ && done == said_done_)) return;
  said_done_ = done;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string eta = "-";
  if (done > 0 && done < total_) {
    const double left = elapsed / static_cast<double>(done) * static_cast<double>(total_ - done);
    eta = left >= 60 ? fmt::format("{}m{:02}s", static_cast<int>(left / 60), static_cast<int>(left) % 60)
                     : fmt::format("{:.0f}s", left);
  }
  std::fprintf(stderr, "%ssweep: %zu/%zu runs done, %zu failed, %zu running, %.0f s elapsed, ETA %s%s",
               terminal_ ? "\r" : "", done, total_, failed, running, elapsed, eta.c_str(), terminal_ ? "   " : "\n");
  std::fflush(stderr);
  drawn_ = terminal_;
}

void SweepProgress::finish() {
  if (drawn_) std::fputs("\n", stderr);
  drawn_ = false;
}

std::vector<std::string> table_comments(const std::string& made_by, const std::string& fingerprint,
                                        const std::string& description) {
  std::vector<std::string> c{"made by: " + made_by,
                             fmt::format("sweep fingerprint: {} (the sweep file and its inputs)", fingerprint)};
  if (!description.empty()) c.push_back("description: " + description);
  c.push_back("one row per run (points: one row per point, over its seeds); columns: docs/SWEEP.md");
  return c;
}

void write_all(const ResultFiles& files, const std::vector<Record>& records, const std::vector<std::string>& comments,
               bool write_points) {
  std::vector<Record> sorted = records;
  std::sort(sorted.begin(), sorted.end(), [](const Record& a, const Record& b) { return a.index < b.index; });
  std::string lines;
  for (const auto& r : sorted) lines += to_json(r).dump() + "\n";
  write_file_atomically(files.jsonl, lines);
  write_file_atomically(files.csv, csv_table(sorted, comments));
  if (write_points) write_file_atomically(files.points, points_table(sorted, comments));
}

ExecuteOutcome execute_runs(const SweepSpec& spec, const std::vector<const RunSpec*>& pending,
                            std::vector<Record>& records, const ResultFiles& files, const std::string& fingerprint,
                            int jobs, double time_limit, const std::string& program, SweepProgress& progress,
                            bool write_points) {
  const fs::path folder = fs::path(files.jsonl).parent_path();
  if (!folder.empty()) fs::create_directories(folder);
  const fs::path scratch = fs::path(files.jsonl + ".tmp");
  fs::create_directories(scratch);
  const auto head =
      table_comments(fmt::format("ckptsim sweep {} (ckptsim {})", spec.file, version()), fingerprint, spec.description);

  // The CSV on disk: rewritten whole when a run brings a column it lacks, else appended to.
  std::vector<std::string> csv_stats;
  auto rewrite_csv = [&] {
    csv_stats = stat_columns(records);
    write_file_atomically(files.csv, csv_table(records, head));
  };
  rewrite_csv();
  // The JSON lines of earlier runs stay as they are; a retried run appends its new record.

  ExecuteOutcome out;
  const StopRequest stop; // SIGTERM caught until the tables are written
  // Runs that differ only in what the failure-free reference ignores (the protocol, its
  // parameters, the failures) share that simulation.
  const cli::FailureFreeCache cache((scratch / "failure-free").string());
  ProcessPool pool(jobs, time_limit);
  std::map<std::size_t, const RunSpec*> by_index;
  std::size_t next = 0;
  progress.update(0, 0, 0);
  while ((next < pending.size() && !stop.requested()) || pool.running() > 0) {
    while (next < pending.size() && !pool.full() && !stop.requested()) {
      const RunSpec* run = pending[next++];
      by_index[run->index] = run;
      const std::string result = (scratch / fmt::format("{}.json", run->index)).string();
      const std::string err = (scratch / fmt::format("{}.err", run->index)).string();
      fs::remove(result);
      std::vector<std::string> args = run->args;
      args.insert(args.end(), {"--quiet", "--progress", "false", "--output", result});
      pool.start(
          run->index, [args, program] { return cli::exit_status_of([&] { return cli::run_command(args, program); }); },
          err);
    }
    if (pool.running() == 0) break; // stopped before another run started
    const auto [index, o] = pool.wait_one([&stop] { return stop.requested(); });
    const RunSpec& run = *by_index.at(index);
    const std::string result = (scratch / fmt::format("{}.json", index)).string();
    const std::string err = (scratch / fmt::format("{}.err", index)).string();
    Record r;
    r.index = index;
    r.key = run.key;
    r.values = run.values;
    r.wall = o.wall;
    r.sweep = fingerprint;
    r.exit = o.code;
    switch (o.kind) {
    case Outcome::Kind::TimedOut:
      r.status = "timeout";
      break;
    case Outcome::Kind::Signaled:
      r.status = "crashed";
      break;
    case Outcome::Kind::Exited:
      r.status = o.code == 0 ? "ok" : o.code == 2 ? "bad input" : "failed";
      break;
    }
    if (o.kind == Outcome::Kind::Exited && fs::exists(result)) {
      std::ifstream in(result);
      auto doc = nlohmann::ordered_json::parse(in, nullptr, false);
      if (!doc.is_discarded()) r.stats = kept_stats(doc, spec.keep);
    }
    if (r.status == "timeout")
      r.error = fmt::format("killed after the time limit of {} s", time_limit);
    else if (r.status != "ok")
      r.error = tail_of_file(err);
    if (r.status == "crashed" && (o.code == SIGTERM || o.code == SIGKILL) && stop.requested())
      r.error = "stopped by SIGTERM with its sweep (a scheduler's time limit or a cancellation); --retry-failed "
                "runs it again";
    else if (r.status == "crashed" && r.error.empty())
      r.error = fmt::format("killed by signal {}", o.code);
    fs::remove(result);
    fs::remove(err);

    append_record(files.jsonl, r);
    records.erase(std::remove_if(records.begin(), records.end(), [&](const Record& x) { return x.key == r.key; }),
                  records.end());
    records.push_back(r);
    bool fits = fs::exists(files.csv) && !csv_stats.empty();
    for (const auto& [k, v] : r.stats.items())
      fits = fits && std::find(csv_stats.begin(), csv_stats.end(), k) != csv_stats.end();
    if (fits) {
      std::FILE* f = std::fopen(files.csv.c_str(), "a");
      if (!f) throw InputError(files.csv, "", "cannot append to the results table");
      const std::string row = csv_row(r, csv_stats);
      std::fwrite(row.data(), 1, row.size(), f);
      std::fclose(f);
    } else {
      rewrite_csv();
    }
    out.finished++;
    if (r.status != "ok") out.failed++;
    if (r.status == "bad input") out.bad_input++;
    progress.update(out.finished, out.failed, pool.running());
  }
  progress.finish();
  out.stopped = stop.requested();
  out.not_started = pending.size() - next;
  std::error_code ec;
  fs::remove_all(scratch, ec);
  // Sorted by run index, whatever order the runs finished in: --jobs 1 and --jobs 8 give the same bytes.
  write_all(files, records, head, write_points);
  for (const auto& rec : records) out.any_failed_recorded = out.any_failed_recorded || rec.status != "ok";
  return out;
}

} // namespace ckptsim::sweep
