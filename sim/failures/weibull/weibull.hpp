/* The "weibull" failure source: inter-arrival times of a Weibull law of shape k (the "failures"
 * object's "shape"; k < 1 for the infant mortality real machines show) and mean the topology's
 * "mtbf", the victim uniform among the nodes. */
#pragma once

namespace ckptsim {

/** @brief The source's fields of the "failures" object. */
struct WeibullSettings {
  double shape = 1.0; // k
};

/** @brief The Weibull scale giving a mean of @p mean for shape @p k. */
double weibull_scale(double mean, double k);

} // namespace ckptsim
