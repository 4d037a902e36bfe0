/* Distributions of durations (sim/config/distribution.hpp): the forms the inputs accept, the
 * parameters they give, and the draws (sim/app/rng.hpp) against the law's mean and standard
 * deviation over many draws, within 4 standard errors. */
#include "sim/app/rng.hpp"
#include "sim/config/distribution.hpp"
#include "sim/config/input_error.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace ckptsim;

namespace {

Distribution read(const char* text, Distribution::Kind shorthand = Distribution::Kind::Constant, bool zero = true) {
  return parse_distribution(json::parse(text), Where("topo.json", "/failures/downtime"), shorthand, zero);
}

// The message of the InputError read(text) throws ("" when it reads).
std::string error_of(const char* text, bool zero = true) {
  try {
    read(text, Distribution::Kind::Constant, zero);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

struct Moments {
  double mean = 0;
  double stddev = 0;
};

Moments sample(const Distribution& d, int n, std::uint64_t seed) {
  Rng rng(seed);
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; i++) {
    const double x = rng.draw(d);
    sum += x;
    sum2 += x * x;
  }
  const double m = sum / n;
  return {m, std::sqrt(std::max(0.0, sum2 / n - m * m))};
}

} // namespace

TEST(Distribution, TheShorthandIsTheFieldsChoice) {
  const Distribution repair = read(R"("2min")");
  EXPECT_EQ(repair.kind, Distribution::Kind::Constant);
  EXPECT_DOUBLE_EQ(repair.mean, 120);
  const Distribution step = read("3", Distribution::Kind::Exponential, false);
  EXPECT_EQ(step.kind, Distribution::Kind::Exponential);
  EXPECT_DOUBLE_EQ(step.mean, 3);
  EXPECT_DOUBLE_EQ(read("0").mean, 0); // a node back at once
}

TEST(Distribution, LognormalFromMeanAndStddevOrFromItsLogarithm) {
  // mean 1 h, stddev 2 h: sigma^2 = ln(1 + 4) and mu = ln(3600) - sigma^2 / 2.
  const Distribution d = read(R"({"distribution": "lognormal", "mean": "1h", "stddev": "2h"})");
  EXPECT_EQ(d.kind, Distribution::Kind::Lognormal);
  EXPECT_NEAR(d.sigma, std::sqrt(std::log(5.0)), 1e-12);
  EXPECT_NEAR(d.mu, std::log(3600.0) - std::log(5.0) / 2, 1e-12);
  EXPECT_NEAR(d.mean, 3600, 1e-9);
  const Distribution l = read(R"({"distribution": "lognormal", "mu": 2, "sigma": 0.5})");
  EXPECT_NEAR(l.mean, std::exp(2 + 0.125), 1e-12);
}

TEST(Distribution, WeibullFromMeanOrScale) {
  const Distribution by_mean = read(R"({"distribution": "weibull", "shape": 0.5, "mean": 200})");
  EXPECT_NEAR(by_mean.scale, 100, 1e-9); // Gamma(1 + 1/0.5) = 2
  const Distribution by_scale = read(R"({"distribution": "weibull", "shape": 1, "scale": "1min"})");
  EXPECT_NEAR(by_scale.mean, 60, 1e-9);
}

TEST(Distribution, BadFormsNameTheFieldAndWhy) {
  EXPECT_NE(error_of(R"({"distribution": "gamma", "mean": 1})").find("/failures/downtime/distribution"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"distribution": "lognormal", "mu": 1, "sigma": 1, "mean": 3})")
                .find("give \"mu\" and \"sigma\" (of the logarithm) or \"mean\" and \"stddev\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"distribution": "lognormal", "mu": 1, "sigma": -1})").find("/failures/downtime/sigma"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"distribution": "weibull", "shape": 0.7})").find("give the Weibull law's \"mean\" or"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"distribution": "weibull", "shape": 0, "mean": 1})").find("shape must be greater than zero"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"distribution": "constant", "mean": 1, "zz": 0})").find("zz"), std::string::npos);
  EXPECT_NE(error_of(R"("0s")", false).find("/failures/downtime"), std::string::npos); // a step of 0 s: refused
  EXPECT_EQ(error_of(R"({"distribution": "constant", "mean": 0})"), "");
}

TEST(Distribution, DrawsAgreeWithTheLawsMeanAndStddev) {
  constexpr int kDraws = 40000;
  struct Law {
    const char* text;
    double mean;
    double stddev;
  };
  const Law laws[] = {
      {R"({"distribution": "lognormal", "mean": 100, "stddev": 50})", 100, 50},
      {R"({"distribution": "weibull", "shape": 2, "scale": 10})", 10 * std::tgamma(1.5),
       10 * std::sqrt(std::tgamma(2.0) - std::tgamma(1.5) * std::tgamma(1.5))},
      {R"({"distribution": "exponential", "mean": 7})", 7, 7},
      {R"({"distribution": "uniform", "min": 2, "max": 8})", 5, 6 / std::sqrt(12.0)},
      {R"({"distribution": "constant", "mean": 4})", 4, 0},
  };
  for (const Law& law : laws) {
    const Moments m = sample(read(law.text), kDraws, 17);
    EXPECT_NEAR(m.mean, law.mean, 4 * law.stddev / std::sqrt(kDraws) + 1e-12) << law.text;
    EXPECT_NEAR(m.stddev, law.stddev, 0.05 * law.stddev + 1e-12) << law.text;
  }
}
