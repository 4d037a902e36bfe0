/* Aggregation over replicates: runs that differ only by their seed form one point; for every
 * numeric result column, the point has the number of runs, the mean, the sample standard
 * deviation and the half-width of the 95 % confidence interval of the mean (Student's t with
 * n - 1 degrees of freedom). Failed runs are counted per point, never averaged in. */
#pragma once

#include "sim/cli/sweep/records.hpp"

#include <string>
#include <vector>

namespace ckptsim::sweep {

/** @brief t such that P(|T| <= t) = 0.95 for Student's T with @p df degrees of freedom (df >= 1). */
double student_t95(std::size_t df);

struct Summary {
  std::size_t n = 0;
  double mean = 0, sd = 0, ci95 = 0; // sd and ci95 are NaN for n < 2
};
Summary summarize(const std::vector<double>& xs);

/** @brief The points table as CSV: the run-naming columns without the seed, runs, failed, then
 *  COLUMN.mean, COLUMN.sd, COLUMN.ci95 per numeric result column; points in index order of their
 *  first run. */
std::string points_table(const std::vector<Record>& records, const std::vector<std::string>& comments);

} // namespace ckptsim::sweep
