/* The "stochastic" application of the HC3I report (section 5): each process computes for a
 * random time, then sends 0..n messages drawn from its send probabilities (one Bernoulli draw per
 * destination cluster, the destination node uniform in it; or one per node with a node matrix),
 * and never blocks on receives. It ends when its failure-free computation time is done. */
#pragma once

#include "sim/app/stochastic/spec.hpp"
#include "sim/app/workload.hpp"

namespace ckptsim {

class StochasticWorkload : public Workload {
 public:
  StochasticWorkload(const Application& app, const FederationLayout& layout)
      : spec_(app.spec_as<StochasticSpec>())
      , layout_(layout) {}
  AppStateValue initial_state(NodeId process, std::uint64_t seed) const override;
  std::optional<double> advance(AppState& state, NodeId self, std::vector<AppMessage>& sends) const override;
  double failure_free_work(NodeId) const override { return spec_.total_time; }

 private:
  void draw_sends(AppState& state, NodeId self, std::vector<AppMessage>& sends) const;
  const StochasticSpec& spec_;
  const FederationLayout& layout_;
};

} // namespace ckptsim
