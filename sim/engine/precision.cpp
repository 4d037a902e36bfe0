#include "sim/engine/precision.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ckptsim {

PrecisionPlan plan_maxmin_precision(const PrecisionRequest& r) {
  PrecisionPlan p;
  p.precision = r.user.value_or(r.default_precision);
  if (r.user) return p;
  const double scale = r.sampled_pairs > 0 ? r.pairs / r.sampled_pairs : 0;
  for (const LinkLoad& link : r.links) {
    double flows = link.flows * scale;
    double usage = link.usage * scale;
    if (flows > kMaxConcurrentFlows) {
      usage *= kMaxConcurrentFlows / flows;
      flows = kMaxConcurrentFlows;
    }
    p.needed = std::max(p.needed, kRoundingMargin * std::numeric_limits<double>::epsilon() * usage * std::sqrt(flows));
  }
  const double slowest = r.max_route_penalty > 0 ? 1 / (r.max_route_penalty * kUsageMargin) : kMaxChosenPrecision;
  const double limit = std::min(kMaxChosenPrecision, slowest);
  if (p.needed > r.default_precision) // a first guess: never beyond what the slowest route allows
    p.precision = std::max(r.default_precision,
                           std::min({std::pow(10.0, std::ceil(std::log10(p.needed))), kMaxEstimatedPrecision, limit}));
  p.retried = r.aborted_at > 0;
  if (p.retried) p.precision = std::max(p.precision, 10 * r.aborted_at);
  p.chosen = p.retried || p.precision != r.default_precision;
  if (p.retried && p.precision > limit * (1 + 1e-9)) {
    const std::string why =
        slowest < kMaxChosenPrecision
            ? fmt::format("the usage of the slowest route, of penalty {:.3g} s, must stay 100 times above it",
                          r.max_route_penalty)
            : std::string("SimGrid takes a link as saturated when less than that fraction of it is left");
    p.error = fmt::format("SimGrid's max-min solver aborted on its rounding errors at precision {:.2g}, and ckptsim "
                          "chooses no precision above {:.2g} ({}): choose one with --cfg=maxmin/precision:VALUE "
                          "(docs/MODEL.md, \"Max-min precision\")",
                          r.aborted_at, limit, why);
  }
  return p;
}

} // namespace ckptsim
