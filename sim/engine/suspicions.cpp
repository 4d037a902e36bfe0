#include "sim/engine/suspicions.hpp"

#include <algorithm>
#include <cmath>

namespace ckptsim {

namespace {
constexpr double kDateEpsilon = 1e-9; // a check scheduled at a suspicion's date finds it due
} // namespace

Suspicions::Suspicions(double period, double timeout, int nodes)
    : period_(period)
    , timeout_(timeout)
    , since_(static_cast<std::size_t>(std::max(nodes, 0)), -1.0)
    , alive_since_(since_.size(), 0.0)
    , suspected_(since_.size(), 0) {}

std::optional<double> Suspicions::route(NodeId n, bool up, double now) {
  if (!active()) return std::nullopt;
  const auto i = static_cast<std::size_t>(n);
  double& since = since_[i];
  if (up) {
    since = -1;
    suspected_[i] = 0; // heard again: a fencing held back lapses
    return std::nullopt;
  }
  if (since >= 0 || suspected_[i]) return std::nullopt; // cut already: suspicion scheduled or made
  // The beat at or before the cut got through, as the beat at or before a crash does
  // (detection_delay): the same model of the monitor for both.
  since = std::max(std::floor(now / period_) * period_, alive_since_[static_cast<std::size_t>(n)]);
  return since + timeout_;
}

std::vector<NodeId> Suspicions::due(double now) {
  std::vector<NodeId> out;
  for (std::size_t n = 0; n < since_.size(); n++)
    if (since_[n] >= 0 && since_[n] + timeout_ <= now + kDateEpsilon) {
      out.push_back(static_cast<NodeId>(n));
      since_[n] = -1;
      suspected_[n] = 1;
    }
  return out;
}

void Suspicions::forget(NodeId n) {
  since_[static_cast<std::size_t>(n)] = -1;
  suspected_[static_cast<std::size_t>(n)] = 0;
}

} // namespace ckptsim
