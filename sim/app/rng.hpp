/* A small, copyable, portable random generator (xoshiro256**, seeded by splitmix64). Its state is
 * 32 bytes of plain data, so it is part of a process' checkpoint: a re-execution from a checkpoint
 * draws the same numbers. Distributions are computed here, not by <random>, so results do not
 * depend on the standard library. */
#pragma once

#include "sim/config/distribution.hpp"

#include <cmath>
#include <cstdint>
#include <numbers>

namespace ckptsim {

inline std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/** @brief Mixes several values into one seed. */
inline std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b, std::uint64_t c = 0) {
  std::uint64_t x = a;
  std::uint64_t h = splitmix64(x);
  x ^= b * 0x9e3779b97f4a7c15ULL;
  h ^= splitmix64(x);
  x ^= c * 0xc2b2ae3d27d4eb4fULL;
  return h ^ splitmix64(x);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1) { reseed(seed); }
  void reseed(std::uint64_t seed) {
    for (auto& w : s_) w = splitmix64(seed);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /** @brief Uniform in [0, 1). */
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /** @brief Exponential with the given mean. */
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }
  /** @brief Weibull with shape k and scale lambda. */
  double weibull(double shape, double scale) { return scale * std::pow(-std::log1p(-uniform()), 1.0 / shape); }
  /** @brief Lognormal: exp of a normal of mean @p mu and standard deviation @p sigma (Box-Muller,
   *  two uniforms per draw). */
  double lognormal(double mu, double sigma) {
    const double radius = std::sqrt(-2.0 * std::log1p(-uniform()));
    return std::exp(mu + sigma * radius * std::cos(2 * std::numbers::pi * uniform()));
  }
  /** @brief One duration drawn from @p d. */
  double draw(const Distribution& d) {
    switch (d.kind) {
    case Distribution::Kind::Constant:
      return d.mean;
    case Distribution::Kind::Uniform:
      return uniform(d.min, d.max);
    case Distribution::Kind::Lognormal:
      return lognormal(d.mu, d.sigma);
    case Distribution::Kind::Weibull:
      return weibull(d.shape, d.scale);
    case Distribution::Kind::Exponential:
      break;
    }
    return exponential(d.mean);
  }
  bool bernoulli(double p) { return p > 0 && uniform() < p; }
  /** @brief Uniform integer in [0, n). */
  std::uint64_t below(std::uint64_t n) { return static_cast<std::uint64_t>(uniform() * static_cast<double>(n)); }
  bool operator==(const Rng&) const = default;

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

} // namespace ckptsim
