/* A point of advise's --verify sweep: its makespans' mean and the half-width of their 95 %
 * interval, as sweep aggregates compute them (Student's t: a point has a few seeds). */
#include "sim/cli/advise/advise.hpp"

#include "sim/cli/sweep/aggregate.hpp"

#include <cmath>

namespace ckptsim::cli::advise {

double SweepPoint::mean() const { return sweep::summarize(makespans).mean; }

double SweepPoint::half_width() const {
  // No interval below two runs: infinite, so that such a point agrees with any other.
  return makespans.size() < 2 ? INFINITY : sweep::summarize(makespans).ci95;
}

} // namespace ckptsim::cli::advise
