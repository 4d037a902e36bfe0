#include "sim/advise/two_level.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace ckptsim::advise {

// E_j, the expected time from the start of segment j (checkpoint j - 1 just taken or restored) to
// the end, satisfies (docs/MODEL.md):
//   E_j = F_d / lambda + P_d E_{j+1} + F_d (q1 H1_j + q2 H2_b)
//   H1_j = F_r / lambda + u E_j + F_r (q1 H1_j + q2 H2_b)       (a kind-1 failure in segment j)
//   H2_b = (e^{lambda R2b} - 1) / lambda + E_{b+1}               (a kind-2 failure: back to b)
// with d the segment's length (T + its checkpoint), P_d = e^{-lambda d}, F_d = 1 - P_d, r its
// recovery (R0 in segment 1, else R1), u = e^{-lambda r}, F_r = 1 - u, q_i = lambda_i / lambda and
// b the last level-2 checkpoint before segment j (0: the start). Within the segments after one
// level-2 checkpoint b, E_j = alpha_j + beta_j E_{b+1}: solved backwards, block by block.
double two_level_makespan(const TwoLevelModel& m) {
  const double inf = std::numeric_limits<double>::infinity();
  if (m.period <= 0 || m.work <= 0 || m.every < 1) return inf;
  const double lambda = m.rate1 + m.rate2;
  const int n = std::max(1, static_cast<int>(std::ceil(m.work / m.period - 1e-9)));
  auto length = [&](int j) { // segment j's computation and checkpoint
    if (j == n) return m.work - (n - 1) * m.period;
    return m.period + (j % m.every == 0 ? m.cost2 : m.cost1);
  };
  if (lambda <= 0) {
    double total = 0;
    for (int j = 1; j <= n; j++) total += length(j);
    return total;
  }
  const double q1 = m.rate1 / lambda, q2 = m.rate2 / lambda;
  double next = 0; // E of the first segment of the block after this one
  const int last_base = ((n - 1) / m.every) * m.every;
  for (int b = last_base; b >= 0; b -= m.every) {
    const double r2 = b == 0 ? m.restart0 : m.restart2;
    const double h2 = std::expm1(lambda * r2) / lambda;
    double alpha = next, beta = 0;
    for (int j = std::min(n, b + m.every); j > b; j--) {
      const double d = length(j), p = std::exp(-lambda * d), fd = -std::expm1(-lambda * d);
      const double r = j == 1 ? m.restart0 : m.restart1, u = std::exp(-lambda * r), fr = -std::expm1(-lambda * r);
      const double c = fd * q1 / (1 - fr * q1);
      const double k = q2 * (c * fr + fd);
      const double denom = 1 - c * u;
      alpha = (fd / lambda + c * fr / lambda + p * alpha + k * h2) / denom;
      beta = (p * beta + k) / denom;
    }
    if (beta >= 1) return inf;
    next = alpha / (1 - beta);
    if (!std::isfinite(next)) return inf;
  }
  return next;
}

} // namespace ckptsim::advise
