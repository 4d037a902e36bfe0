/* A distribution of durations, as the inputs give it: an application's computation steps, a
 * failed node's repair time. One reader for every field that takes one, so that each accepts
 * the same forms (docs/INPUTS.md, "Distributions"): a number or duration (the shorthand, whose
 * meaning the field chooses: a mean drawn exponentially for a step, a constant for a repair), or
 * {"distribution": "exponential" | "constant" | "uniform" | "lognormal" | "weibull", ...}. The
 * draws themselves are in sim/app/rng.hpp, next to the generator they use. */
#pragma once

#include "sim/config/json_reader.hpp"

namespace ckptsim {

struct Distribution {
  enum class Kind { Exponential, Constant, Uniform, Lognormal, Weibull } kind = Kind::Exponential;
  double mean = 1;  // seconds; every kind has one (the others' parameters give it)
  double min = 0;   // uniform
  double max = 0;   // uniform
  double mu = 0;    // lognormal: mean of the logarithm (of seconds)
  double sigma = 0; // lognormal: standard deviation of the logarithm
  double shape = 1; // weibull: k
  double scale = 0; // weibull: lambda, seconds

  /** @brief A constant @p seconds. */
  static Distribution constant(double seconds);
};

/** @brief Reads a distribution of durations at @p at. A number or a duration string is a mean
 *  drawn as @p shorthand (Exponential or Constant). @p zero_allowed: whether every draw may be 0
 *  (a constant 0, a uniform from 0); otherwise the mean must be above 0. */
Distribution parse_distribution(const json& j, const Where& at, Distribution::Kind shorthand, bool zero_allowed);

} // namespace ckptsim
