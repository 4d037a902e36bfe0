#include "sim/app/stochastic/workload.hpp"

#include <algorithm>

namespace ckptsim {

namespace {
class StochasticState : public AppState {
 public:
  std::unique_ptr<AppState> clone() const override { return std::make_unique<StochasticState>(*this); }
  bool computed = false; // the current step's computation is done, its sends are due
};

// Work below this is rounding noise of the engine's time arithmetic, not a step to simulate.
constexpr double kWorkEpsilon = 1e-9;
} // namespace

AppStateValue StochasticWorkload::initial_state(NodeId process, std::uint64_t seed) const {
  auto s = std::make_unique<StochasticState>();
  s->rng.reseed(mix_seed(seed, static_cast<std::uint64_t>(process), 0x5170c));
  return AppStateValue(std::move(s));
}

void StochasticWorkload::draw_sends(AppState& state, NodeId self, std::vector<AppMessage>& sends) const {
  const ClusterId mine = layout_.cluster_of(self);
  const StochasticCluster& spec = spec_.clusters[mine];
  auto emit = [&](NodeId dst) {
    AppMessage m;
    m.src = self;
    m.dst = dst;
    m.seq = state.next_seq++;
    m.size = spec.message_size;
    m.digest = message_digest(m, state.rng.next());
    sends.push_back(m);
  };
  if (!spec_.node_matrix.empty()) {
    const auto& row = spec_.node_matrix[self];
    for (NodeId d = 0; d < static_cast<NodeId>(row.size()); d++)
      if (d != self && state.rng.bernoulli(row[d])) emit(d);
    return;
  }
  for (ClusterId c = 0; c < layout_.num_clusters(); c++) {
    if (!state.rng.bernoulli(spec.send_probability[c])) continue;
    const ClusterLayout& cl = layout_.cluster(c);
    const int candidates = cl.size - (c == mine ? 1 : 0);
    if (candidates <= 0) continue;
    auto pick = static_cast<NodeId>(state.rng.below(static_cast<std::uint64_t>(candidates)));
    NodeId dst = cl.first + pick;
    if (c == mine && dst >= self) // skip oneself
      dst++;
    emit(dst);
  }
}

std::optional<double> StochasticWorkload::advance(AppState& base, NodeId self, std::vector<AppMessage>& sends) const {
  auto& state = static_cast<StochasticState&>(base);
  if (state.computed) {
    draw_sends(state, self, sends);
    state.computed = false;
  }
  const double left = spec_.total_time - state.work_done;
  if (left <= kWorkEpsilon * std::max(1.0, spec_.total_time)) {
    state.finished = true;
    return std::nullopt;
  }
  state.computed = true; // once this step's work is done, its sends follow
  return std::min(left, state.rng.draw(spec_.clusters[layout_.cluster_of(self)].compute));
}

} // namespace ckptsim
