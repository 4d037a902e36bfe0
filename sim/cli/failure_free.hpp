/* The failure-free reference of a run whose processes wait for each other's messages (mpi-trace,
 * stencil, master-worker: ApplicationKindInfo::waits_for_messages): the longest computation is no
 * failure-free duration for them (an MPI trace's ranks spend most of their time communicating),
 * so `ckptsim run` first simulates the same inputs under protocol none without any failure, and
 * the overhead is measured against that makespan (results/failure_free_from says which).
 *
 * The commands that run many children (compare, sweep, advise) share those reference runs: runs
 * whose failure-free inputs are the same (every protocol of a compare at one seed, every
 * protocol parameter of a sweep) need one simulation, kept as a file of a folder the parent
 * names before it forks them (FailureFreeCache) and removes when they are done. */
#pragma once

#include "sim/engine/run_config.hpp"

#include <string>
#include <vector>

namespace ckptsim::cli {

/** @brief Whether @p config's application kind needs the failure-free simulation. */
bool needs_failure_free_run(const RunConfig& config);

/** @brief The makespan of @p config's inputs under protocol none without failures, simulated in a
 *  child process; 0 (said on stderr) when that run did not complete. */
double failure_free_makespan(const RunConfig& config, const std::string& program,
                             const std::vector<std::string>& sg_args);

/** @brief While it lives, failure_free_makespan (in this process and the children it forks) reads
 *  and writes the reference makespans in @p dir, each under the whole text of the inputs it
 *  simulated (documents, files, seed, end date, SimGrid options): a file is used only by runs
 *  whose key is that text, whatever their protocol. The folder goes with the object. */
class FailureFreeCache {
 public:
  explicit FailureFreeCache(std::string dir);
  ~FailureFreeCache();
  FailureFreeCache(const FailureFreeCache&) = delete;
  FailureFreeCache& operator=(const FailureFreeCache&) = delete;

 private:
  std::string dir_;
  std::string previous_;
};

} // namespace ckptsim::cli
