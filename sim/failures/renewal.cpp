#include "sim/failures/renewal.hpp"

#include <cmath>

namespace ckptsim {

RenewalFailures::RenewalFailures(const FailureSourceContext& context, Gap gap)
    : gap_(std::move(gap))
    , never_(std::isinf(context.topology.mtbf) || context.layout.num_nodes() == 0)
    , nodes_(context.layout.num_nodes())
    // The stream of the failure arrivals, apart from the applications' (recorded results depend on it).
    , rng_(mix_seed(context.seed, 0xfa11u, 0x1d)) {}

std::optional<FailureArrival> RenewalFailures::next() {
  if (never_) return std::nullopt;
  clock_ += gap_(rng_); // the gap first, then the victim: the order of the draws is part of the results
  auto victim = static_cast<NodeId>(rng_.below(static_cast<std::uint64_t>(nodes_)));
  return FailureArrival{clock_, {victim}, std::nullopt};
}

} // namespace ckptsim
