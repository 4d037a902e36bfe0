/* The failure-free reference of a run whose processes wait for each other's messages (mpi-trace,
 * stencil, master-worker: ApplicationKindInfo::waits_for_messages): the longest computation is no
 * failure-free duration for them (an MPI trace's ranks spend most of their time communicating),
 * so `ckptsim run` first simulates the same inputs under protocol none without any failure, and
 * the overhead is measured against that makespan (results/failure_free_from says which). */
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

} // namespace ckptsim::cli
