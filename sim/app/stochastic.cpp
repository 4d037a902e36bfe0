#include "sim/app/stochastic.hpp"

#include "sim/app/kind.hpp"
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

double StochasticWorkload::draw_compute(AppState& state, const Distribution& d) const {
  switch (d.kind) {
  case Distribution::Kind::Constant:
    return d.mean;
  case Distribution::Kind::Uniform:
    return state.rng.uniform(d.min, d.max);
  case Distribution::Kind::Exponential:
    break;
  }
  return state.rng.exponential(d.mean);
}

void StochasticWorkload::draw_sends(AppState& state, NodeId self, std::vector<AppMessage>& sends) const {
  const ClusterId mine = layout_.cluster_of(self);
  const StochasticCluster& spec = app_.clusters[mine];
  auto emit = [&](NodeId dst) {
    AppMessage m;
    m.src = self;
    m.dst = dst;
    m.seq = state.next_seq++;
    m.size = spec.message_size;
    m.digest = message_digest(m, state.rng.next());
    sends.push_back(m);
  };
  if (!app_.node_matrix.empty()) {
    const auto& row = app_.node_matrix[self];
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
  const double left = app_.total_time - state.work_done;
  if (left <= kWorkEpsilon * std::max(1.0, app_.total_time)) {
    state.finished = true;
    return std::nullopt;
  }
  state.computed = true; // once this step's work is done, its sends follow
  return std::min(left, draw_compute(state, app_.clusters[layout_.cluster_of(self)].compute));
}

namespace {
const ApplicationKindRegistration stochastic_kind{
    {"stochastic",
     "HC3I report section 5: each process computes for drawn times and, after each step, sends to each "
     "cluster with a given probability; it never waits for a message",
     0,
     {{"total_time", "failure-free computation of every process; required"},
      {"clusters", "one entry per cluster of the topology: {\"cluster\": name, \"compute\": a duration (mean of "
                   "an exponential) or a distribution, \"send\": {cluster: probability} (default none), "
                   "\"message_size\": s (default the file's)}; required"},
      {"message_size", "size of every message; default 1KiB"},
      {"node_matrix", "N x N node-to-node send probabilities, replacing every \"send\"; default none"}},
     parse_stochastic,
     [](const Application& app, const FederationLayout& layout) {
       return std::make_unique<StochasticWorkload>(app, layout);
     }}};
} // namespace

} // namespace ckptsim
