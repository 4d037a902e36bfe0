/* Failures of the whole federation as a renewal process: inter-arrival times drawn from one law
 * of mean the federation's MTBF (the topology's "mtbf"), each failure striking one node drawn
 * uniformly. The exponential and weibull sources are such processes, with their own law. */
#pragma once

#include "sim/app/rng.hpp"
#include "sim/failures/source.hpp"

#include <functional>
#include <optional>

namespace ckptsim {

class RenewalFailures : public FailureSource {
 public:
  /** @brief The time to the next failure, drawn from @p rng. */
  using Gap = std::function<double(Rng& rng)>;
  /** @brief No failure at all when the MTBF is infinite or the federation has no node. */
  RenewalFailures(const FailureSourceContext& context, Gap gap);
  std::optional<FailureArrival> next() override;

 private:
  Gap gap_;
  bool never_;
  int nodes_;
  Rng rng_;
  double clock_ = 0;
};

} // namespace ckptsim
