/* `ckptsim sweep --emit jobs|slurm`: the pending runs of a sweep written for another scheduler,
 * as batches of contiguous runs, each batch a `ckptsim sweep --only LIST --out PARTS/FIRST` that
 * records its runs in a part of its own. Re-running a batch only does what its part lacks, so a
 * job line or array task may be run again after a failure (docs/SWEEP.md, "Beyond one machine"). */
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ckptsim::sweep {

struct EmitOptions {
  std::string kind;              // "jobs" (one command line per batch) or "slurm" (a job-array script)
  std::size_t max_tasks = 1000;  // Slurm: array tasks at most (ids 0..max_tasks-1 stay below MaxArraySize)
  std::size_t runs_per_task = 0; // 0: the fewest that keep the array within max_tasks (jobs: 1)
  std::size_t cpus_per_task = 1; // runs of a batch at a time
  bool retry_failed = false;     // the batches run their failed runs again (their parts record them)
};

/** @brief The pending run indices (sorted) cut into batches of @p runs_per_task contiguous
 *  entries, the last one shorter. */
std::vector<std::vector<std::size_t>> batches_of(const std::vector<std::size_t>& pending, std::size_t runs_per_task);

/** @brief Runs per task for @p pending runs: @p options.runs_per_task when given (an InputError
 *  naming --runs-per-task when that makes more Slurm tasks than max_tasks), else the fewest that
 *  fit (Slurm) or 1 (jobs). */
std::size_t runs_per_task(std::size_t pending, const EmitOptions& options);

/** @brief "0-3,7,9-10": how `--only`, a Slurm array and a human read a set of indices. */
std::string index_ranges(const std::vector<std::size_t>& sorted);

/** @brief A word for a POSIX shell, quoted when it must be. */
std::string shell_quote(const std::string& s);

struct EmitContext {
  std::string self;       // absolute path of this ckptsim binary
  std::string sweep_file; // absolute
  std::string prefix;     // absolute results prefix; the parts go to PREFIX.parts/
  std::string version;    // ckptsim's, named in the script
  double time_limit = 0;  // seconds per run, 0 = none
  std::size_t total_runs = 0;
};

/** @brief The emitted text (job lines, or the Slurm script) for @p pending (sorted, not empty).
 *  Pure: the caller creates PREFIX.parts before printing it, since Slurm opens each task's output
 *  file there before the task runs. */
std::string emit_text(const EmitContext& ctx, const std::vector<std::size_t>& pending, const EmitOptions& options);

} // namespace ckptsim::sweep
