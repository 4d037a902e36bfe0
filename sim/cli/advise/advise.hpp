/* `ckptsim advise` (docs/ADVISE.md): which checkpoint plan for these inputs. Its parts: the failure
 * kinds and their rates (rates.cpp), the runs it makes in child processes (../child_runs.hpp), the plan
 * (advise_command.cpp) and the sweep that checks it (verify.cpp). */
#pragma once

#include "sim/cli/child_runs.hpp"
#include "sim/cli/protocol_list.hpp"
#include "sim/cli/scenario.hpp"
#include "sim/config/topology.hpp"
#include "sim/storage/model.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ckptsim::cli::advise {

/** @brief A kind of failure event and the cheapest level that survives it. */
struct FailureKind {
  std::string scope;  // "node", a domain scope, "cluster", "site", "nodes" (a log's multi-node event)
  double rate = 0;    // events per second over the federation
  int level = -1;     // index in the advised levels, -1: none survives it
  std::string source; // where the rate comes from, for the report
};

/** @brief The failure kinds of @p topology (its node source, its correlated sources), each with
 *  the first of @p levels that survives it. A failure log's rate is its events over their span
 *  (the log's window). */
std::vector<FailureKind> failure_kinds(const Topology& topology, const std::vector<AdvisedLevel>& levels);

/** @brief advise's command line. */
struct AdviseOptions {
  std::vector<ProtocolChoice> protocols;
  int verify = 0; // seeds per point of the sweep, 0: none
  int jobs = 0;
  std::string plot, output;
  std::uint64_t seed = 1;            // the sweep's first seed
  std::vector<std::string> run_args; // passed to every run
  ScenarioFiles files;
  std::vector<std::string> overrides;
};

/** @brief A point of the verification sweep, and what its runs gave. */
struct SweepPoint {
  std::string protocol; // as given: NAME[:KEY=VALUE...]
  double period = 0;
  int every = 0; // the deepest advised level's every (0: not varied)
  bool suggested = false;
  std::vector<double> makespans{}; // completed runs
  int incomplete = 0;              // runs that did not complete (unrecoverable, stuck)
  double mean() const;
  double half_width() const; // of the 95 % interval of the mean
};

} // namespace ckptsim::cli::advise
