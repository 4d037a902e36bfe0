/* Everything a run is made of: the three input documents (as given, after --set overrides, so
 * that results can say exactly how they were made), their parsed form, and the run options. */
#pragma once

#include "sim/config/application.hpp"
#include "sim/config/timers.hpp"
#include "sim/config/topology.hpp"

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief What a run says of its progress on stderr while it runs. */
enum class ProgressStyle {
  Off,
  Terminal, // one line redrawn every second, for a person watching
  Lines,    // a line every RunOptions::progress_every seconds of wall time, for a log (a batch job, a pipe)
};

struct RunOptions {
  std::string protocol = "none";
  std::map<std::string, std::string> params; // protocol parameters, --param key=value
  std::uint64_t seed = 1; // the library default (tests, sweeps); the CLI's is 2: its default scenario shows recoveries
  double end_date = std::numeric_limits<double>::infinity(); // stop the simulation at this date
  double stall_limit = -1; // the watchdog's limit (seconds, inf: off); negative: default_stall_limit
  std::string trace_file;
  int trace_level = 1;
  std::string paje_file;     // a Paje trace of the run (docs/TRACE.md, "Paje")
  std::string output;        // statistics file (.json, or .csv for a table)
  std::string network_model; // CM02, LV08, SMPI; empty: the application kind's (ApplicationKindInfo)
  // > 0: the makespan of a failure-free simulation of the same inputs under protocol none, the
  // reference of the overhead for application kinds whose processes wait for each other.
  double failure_free_makespan = 0;
  ProgressStyle progress = ProgressStyle::Off;
  double progress_every = 60;            // wall-clock seconds between two ProgressStyle::Lines lines
  bool quiet = false;                    // no summary on stdout
  std::vector<std::string> simgrid_args; // --cfg=... / --log=... passed to SimGrid
  std::vector<std::string> overrides;    // --set PATH=VALUE, as given
  // > 0: an earlier attempt of this run made SimGrid's max-min solver abort at this precision
  // (sim/cli/run_attempts.hpp); this one runs with ten times it.
  double maxmin_aborted_at = 0;
  // > 0: the consistency oracle folds every this many events (testing aid: --self-test
  // fold-often), instead of as its histories grow.
  std::size_t oracle_fold_every = 0;
};

struct RunConfig {
  json topology_doc;
  json application_doc;
  json timers_doc;
  std::string topology_file = "<embedded:topology>";
  std::string application_file = "<embedded:application>";
  std::string timers_file = "<embedded:timers>";
  std::string base_dir; // relative file names in the topology resolve against the topology's folder
  RunOptions options;
};

/** @brief A run's inputs: as given (with the options) and as read. */
struct RunInputs {
  RunConfig config;
  Topology topology;
  Application application;
  Timers timers;
};

} // namespace ckptsim
