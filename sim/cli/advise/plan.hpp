/* The plan `ckptsim advise` suggests (docs/ADVISE.md): each level's failure rate (the kinds it is
 * the cheapest to survive), Young's and Daly's periods for the deepest needed level alone, the
 * first-order multi-level plan of Benoit et al. with its expected overhead (the two-level renewal
 * model's too, for two levels), and the --set options that write it; the report; the sweep that
 * checks it. */
#pragma once

#include "sim/advise/periods.hpp"
#include "sim/cli/advise/advise.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim::cli::advise {

struct AdvicePlan {
  // Inputs.
  double work = 0;    // failure-free time of the scenario
  double restart = 0; // detection + mean downtime + restart overhead: a recovery costs it plus the level's read
  std::vector<AdvisedLevel> levels;
  std::vector<double> costs; // per level, from the failure-free probes (NaN: not measured)
  std::vector<FailureKind> kinds;
  // The plan.
  std::vector<double> rates; // per level: the failures it is the cheapest to survive
  std::vector<int> needed;   // levels with failures of their own, ascending
  int single = -1;           // the one-level plan's level: the deepest needed one
  double young = NAN, daly = NAN, daly_overhead = NAN;
  bool multi = false;
  double period = NAN;                             // the suggested checkpoint_period
  double overhead = NAN;                           // its expected overhead (first order, or Daly for one level)
  double exact_overhead = NAN;                     // the two-level renewal model's, for two needed levels
  std::vector<std::pair<std::string, int>> everys; // topology field -> every, for the plan
  int varied = -1;                                 // index in everys of the deepest level's (sweep)
  std::vector<std::string> warnings;
  std::string set_options; // the --set options of everys, as one would type them
};

/** @brief Fills the plan from its inputs; InputError when a needed level could not be measured. */
void make_plan(AdvicePlan& plan, const std::string& protocol);

/** @brief The human-readable report. */
std::string report(const AdvicePlan& plan, const std::string& protocol);

/** @brief --verify: the sweep around the plan, its tables (and --plot); @p chosen becomes the
 *  simulated optimum's period for the first protocol. Returns the exit status. */
int verify(const AdvicePlan& plan, const AdviseOptions& options, const std::string& program, const std::string& dir,
           double& chosen);

} // namespace ckptsim::cli::advise
