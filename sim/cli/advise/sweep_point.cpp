/* A point of advise's --verify sweep: its makespans' mean and the half-width of their 95 %
 * interval. */
#include "sim/cli/advise/advise.hpp"

#include "sim/cli/sweep/aggregate.hpp"

#include <cmath>

namespace ckptsim::cli::advise {

double SweepPoint::mean() const {
  double s = 0;
  for (double m : makespans) s += m;
  return makespans.empty() ? NAN : s / static_cast<double>(makespans.size());
}

double SweepPoint::half_width() const {
  const auto n = static_cast<double>(makespans.size());
  if (n < 2) return INFINITY;
  const double m = mean();
  double s2 = 0;
  for (double x : makespans) s2 += (x - m) * (x - m);
  // Student's t, as compare and sweep aggregates: a point has a few seeds (--verify 3 is common),
  // where the normal 1.96 would give intervals less than half as wide as they are (t = 4.303 at 3).
  return sweep::student_t95(makespans.size() - 1) * std::sqrt(s2 / (n - 1) / n);
}

} // namespace ckptsim::cli::advise
