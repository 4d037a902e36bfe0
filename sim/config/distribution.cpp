#include "sim/config/distribution.hpp"

#include <cmath>
#include <fmt/format.h>

namespace ckptsim {

Distribution Distribution::constant(double seconds) {
  Distribution d;
  d.kind = Kind::Constant;
  d.mean = seconds;
  return d;
}

namespace {

double duration(ObjectReader& r, const char* field, bool zero_allowed) {
  return zero_allowed ? as_nonnegative_quantity(r.required(field), r.where(field), units::Kind::Duration)
                      : as_positive_quantity(r.required(field), r.where(field), units::Kind::Duration);
}

// "mu"/"sigma" (of the logarithm) or "mean"/"stddev" (of the durations), one pair or the other.
void read_lognormal(ObjectReader& r, Distribution& d) {
  const bool log_form = r.has("mu") || r.has("sigma");
  if (log_form && (r.has("mean") || r.has("stddev")))
    r.where(r.has("mean") ? "mean" : "stddev")
        .fail("give \"mu\" and \"sigma\" (of the logarithm) or \"mean\" and \"stddev\" (of the durations), not both");
  if (log_form) {
    d.mu = as_number(r.required("mu"), r.where("mu"));
    d.sigma = as_number(r.required("sigma"), r.where("sigma"));
    if (!(d.sigma >= 0)) r.where("sigma").fail("the standard deviation of the logarithm must be 0 or more");
  } else {
    const double m = duration(r, "mean", false);
    const double s = as_nonnegative_quantity(r.required("stddev"), r.where("stddev"), units::Kind::Duration);
    // The lognormal law of that mean and standard deviation: sigma^2 = ln(1 + s^2/m^2), mu = ln m - sigma^2/2.
    d.sigma = std::sqrt(std::log1p(s * s / (m * m)));
    d.mu = std::log(m) - d.sigma * d.sigma / 2;
  }
  d.mean = std::exp(d.mu + d.sigma * d.sigma / 2);
}

// "shape" with "mean" or "scale".
void read_weibull(ObjectReader& r, Distribution& d) {
  d.shape = as_number(r.required("shape"), r.where("shape"));
  if (!(d.shape > 0)) r.where("shape").fail("the Weibull shape must be greater than zero");
  const double gamma = std::tgamma(1.0 + 1.0 / d.shape);
  if (r.has("mean") == r.has("scale"))
    r.where(r.has("mean") ? "scale" : "mean").fail("give the Weibull law's \"mean\" or its \"scale\" (one of them)");
  if (r.has("mean")) {
    d.mean = duration(r, "mean", false);
    d.scale = d.mean / gamma;
  } else {
    d.scale = duration(r, "scale", false);
    d.mean = d.scale * gamma;
  }
}

} // namespace

Distribution parse_distribution(const json& j, const Where& at, Distribution::Kind shorthand, bool zero_allowed) {
  Distribution d;
  if (j.is_number() || j.is_string()) {
    d.kind = shorthand;
    d.mean = zero_allowed ? as_nonnegative_quantity(j, at, units::Kind::Duration)
                          : as_positive_quantity(j, at, units::Kind::Duration);
    return d;
  }
  ObjectReader r(j, at);
  const auto kind = as_choice(r.required("distribution"), r.where("distribution"),
                              {"exponential", "constant", "uniform", "lognormal", "weibull"});
  if (kind == "uniform") {
    d.kind = Distribution::Kind::Uniform;
    d.min = as_nonnegative_quantity(r.required("min"), r.where("min"), units::Kind::Duration);
    d.max = as_positive_quantity(r.required("max"), r.where("max"), units::Kind::Duration);
    if (d.max <= d.min) r.where("max").fail("\"max\" must be greater than \"min\"");
    d.mean = (d.min + d.max) / 2;
  } else if (kind == "lognormal") {
    d.kind = Distribution::Kind::Lognormal;
    read_lognormal(r, d);
  } else if (kind == "weibull") {
    d.kind = Distribution::Kind::Weibull;
    read_weibull(r, d);
  } else {
    d.kind = kind == "constant" ? Distribution::Kind::Constant : Distribution::Kind::Exponential;
    d.mean = d.kind == Distribution::Kind::Constant ? duration(r, "mean", zero_allowed) : duration(r, "mean", false);
  }
  r.finish();
  return d;
}

} // namespace ckptsim
