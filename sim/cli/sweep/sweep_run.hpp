/* Executing a sweep: the runs planned from a sweep file (checked before anything runs), their
 * fingerprint, the pool that runs them, and the result files written as they finish. */
#pragma once

#include "sim/cli/sweep/records.hpp"
#include "sim/cli/sweep/sweep_spec.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace ckptsim::sweep {

struct ResultFiles {
  std::string jsonl, csv, points;
};

/** @brief expand(), after checking that every run's input overrides apply to its documents (a
 *  wrong JSON path is the sweep file's error, found before any run starts). */
std::vector<RunSpec> plan_runs(const SweepSpec& spec);

/** @brief A digest of the sweep document and the contents of its input files: results carry it,
 *  so that a resumed or merged sweep never mixes runs of different inputs. */
std::string sweep_fingerprint(const SweepSpec& spec);

/** @brief The "runs done / total, failures, ETA" line on stderr. */
class SweepProgress {
 public:
  /** @brief @p enabled: on a @p terminal a line redrawn at each change, elsewhere (a batch job's log)
   *  a line per finished run. */
  SweepProgress(std::size_t total, bool enabled, bool terminal);
  void update(std::size_t done, std::size_t failed, std::size_t running);
  void finish();

 private:
  std::size_t total_;
  bool enabled_;
  bool terminal_;
  bool drawn_ = false;
  std::size_t said_done_ = 0; // runs done at the last line (not a terminal: a line per finished run)
  std::chrono::steady_clock::time_point start_;
};

struct ExecuteOutcome {
  std::size_t finished = 0, failed = 0, bad_input = 0;
  bool any_failed_recorded = false; // among every record, older ones included
  bool stopped = false;             // SIGTERM: runs under way stopped and recorded, not_started left
  std::size_t not_started = 0;
};

/** @brief Runs @p pending (each `ckptsim run` in a child), appends each record to the JSON lines
 *  and CSV files as it ends, then rewrites the CSV sorted by run index and (@p write_points) the
 *  points table. @p records holds the runs recorded before and receives the new ones. */
ExecuteOutcome execute_runs(const SweepSpec& spec, const std::vector<const RunSpec*>& pending,
                            std::vector<Record>& records, const ResultFiles& files, const std::string& fingerprint,
                            int jobs, double time_limit, const std::string& program, SweepProgress& progress,
                            bool write_points);

/** @brief Writes the three result files from @p records (atomically; the JSON lines sorted). */
void write_all(const ResultFiles& files, const std::vector<Record>& records, const std::vector<std::string>& comments,
               bool write_points);

/** @brief The '#' lines heading the tables: how they were made. */
std::vector<std::string> table_comments(const std::string& made_by, const std::string& fingerprint,
                                        const std::string& description = "");

} // namespace ckptsim::sweep
