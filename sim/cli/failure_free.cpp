#include "sim/cli/failure_free.hpp"

#include "sim/app/kind.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/run_attempts.hpp"
#include "sim/cli/scenario.hpp"
#include "sim/engine/run.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <unistd.h>
#include <utility>

namespace ckptsim::cli {

namespace {

std::string& cache_dir() {
  static std::string dir; // empty: no cache (a lone `ckptsim run`)
  return dir;
}

/** Everything the failure-free simulation's makespan depends on, as text: the documents after the
 *  failure-free assignments, where relative file names resolve, and the options that reach the
 *  simulation (the protocol is always none; trace and output files change no result). */
std::string cache_key(const RunConfig& plain, const std::vector<std::string>& sg_args) {
  const RunOptions& o = plain.options;
  std::string key = fmt::format("topology {}\napplication {}\ntimers {}\nfiles {} | {} | {} | {}\n",
                                plain.topology_doc.dump(), plain.application_doc.dump(), plain.timers_doc.dump(),
                                plain.topology_file, plain.application_file, plain.timers_file, plain.base_dir);
  key += fmt::format("seed {} end {} stall {} network {} fold {} maxmin {}\n", o.seed, o.end_date, o.stall_limit,
                     o.network_model, o.oracle_fold_every, o.maxmin_aborted_at);
  for (const auto& a : o.simgrid_args) key += "cfg " + a + "\n";
  for (const auto& a : sg_args) key += "sg " + a + "\n";
  return key;
}

std::filesystem::path cache_file(const std::string& key) {
  return std::filesystem::path(cache_dir()) / fmt::format("{:016x}.json", std::hash<std::string>{}(key));
}

/** The makespan and status a run with the same key stored, if any (a hash collision or a file
 *  being written reads as none). */
std::optional<std::pair<double, std::string>> cached(const std::string& key) {
  if (cache_dir().empty()) return std::nullopt;
  std::ifstream in(cache_file(key));
  if (!in) return std::nullopt;
  const auto doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || doc.value("key", "") != key || !doc["makespan"].is_number()) return std::nullopt;
  return std::make_pair(doc["makespan"].get<double>(), doc.value("status", ""));
}

/** Stores a result: written aside, then renamed, so that a child reading it at the same time finds
 *  the whole file or none (two children computing the same key write the same content). */
void store(const std::string& key, double makespan, const std::string& status) {
  if (cache_dir().empty()) return;
  const auto file = cache_file(key);
  const auto tmp = file.string() + fmt::format(".{}.tmp", getpid());
  {
    std::ofstream out(tmp);
    out << nlohmann::json{{"key", key}, {"makespan", makespan}, {"status", status}}.dump();
    if (!out) return;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

void say_incomplete(const std::string& status) {
  std::fprintf(stderr,
               "ckptsim: the failure-free simulation of these inputs (protocol none) did not complete (%s): the "
               "overhead refers to the longest computation\n",
               status.c_str());
}

} // namespace

FailureFreeCache::FailureFreeCache(std::string dir)
    : dir_(std::move(dir))
    , previous_(cache_dir()) {
  std::filesystem::create_directories(dir_);
  cache_dir() = dir_;
}

FailureFreeCache::~FailureFreeCache() {
  cache_dir() = previous_;
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

bool needs_failure_free_run(const RunConfig& config) {
  const auto& doc = config.application_doc;
  if (!doc.is_object() || !doc.contains("kind") || !doc["kind"].is_string()) return false;
  const ApplicationKindInfo* kind = ApplicationKindRegistry::instance().find(doc["kind"].get<std::string>());
  return kind && kind->waits_for_messages;
}

double failure_free_makespan(const RunConfig& config, const std::string& program,
                             const std::vector<std::string>& sg_args) {
  RunConfig plain = config;
  for (const auto& a : failure_free_assignments(plain.topology_doc)) apply_override(plain, a);
  RunOptions& o = plain.options;
  o.protocol = "none";
  o.params.clear();
  o.trace_file.clear();
  o.paje_file.clear();
  o.quiet = true;
  o.progress = ProgressStyle::Off;
  o.failure_free_makespan = 0;
  const std::string key = cache_key(plain, sg_args);
  if (const auto hit = cached(key)) {
    if (!(hit->first > 0)) say_incomplete(hit->second);
    return hit->first;
  }
  const auto out = std::filesystem::temp_directory_path() / fmt::format("ckptsim-failure-free-{}.json", getpid());
  o.output = out.string();
  const Attempt a = attempt_in_child([&] {
    return exit_status_of([&] {
      Run run(plain);
      run.prepare(simgrid_argv(program, sg_args));
      write_results(o.output, run.simulate().document);
      return 0;
    });
  });
  double makespan = 0;
  std::string status = a.signal > 0 ? fmt::format("killed by signal {}", a.signal) : "wrote no results";
  if (std::ifstream in(out); in && a.exit_status == 0 && a.signal == 0) {
    const auto doc = nlohmann::json::parse(in, nullptr, false);
    if (!doc.is_discarded() && doc["results"]["makespan"].is_number())
      makespan = doc["results"]["makespan"].get<double>();
    else if (!doc.is_discarded())
      status = doc["results"]["status"].get<std::string>();
  }
  std::filesystem::remove(out);
  if (!(makespan > 0)) say_incomplete(status);
  // A child killed by a signal (a time limit, a crash) is not an answer for the next run.
  if (a.signal == 0) store(key, makespan, status);
  return makespan;
}

} // namespace ckptsim::cli
