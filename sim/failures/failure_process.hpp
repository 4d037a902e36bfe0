/* Failure arrivals, as plain logic: exponential inter-arrival times of mean MTBF (the federation's
 * MTBF: the whole federation fails at that rate, the victim uniform among the nodes), Weibull
 * inter-arrivals of shape k and mean MTBF, or an explicit trace. Seeded and deterministic. */
#pragma once

#include "sim/app/rng.hpp"
#include "sim/config/topology.hpp"
#include "sim/net/ids.hpp"
#include "sim/platform/layout.hpp"

#include <optional>
#include <vector>

namespace ckptsim {

struct FailureArrival {
  double date;
  NodeId victim;
};

class FailureProcess {
 public:
  /** @brief @p trace_override replaces the model (a scripted application's failures). */
  FailureProcess(const Topology& topology, const FederationLayout& layout, std::uint64_t seed,
                 const std::vector<FailureEvent>& trace_override = {});
  /** @brief The next failure, or nullopt when there is none. */
  std::optional<FailureArrival> next();
  /** @brief Weibull scale giving a mean of @p mean for shape @p k. */
  static double weibull_scale(double mean, double k);

 private:
  FailureModel model_;
  double mtbf_;
  double shape_;
  int nodes_;
  Rng rng_;
  double clock_ = 0;
  std::vector<FailureArrival> trace_;
  std::size_t next_trace_ = 0;
};

} // namespace ckptsim
