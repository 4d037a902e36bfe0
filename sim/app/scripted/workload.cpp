#include "sim/app/scripted/workload.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

namespace ckptsim {

namespace {
class ScriptedState : public AppState {
 public:
  std::unique_ptr<AppState> clone() const override { return std::make_unique<ScriptedState>(*this); }
  std::size_t next_action = 0;
};

[[noreturn]] void fail_at(const std::string& where, const std::string& problem) {
  auto colon = where.find(": ");
  throw InputError(where.substr(0, colon), colon == std::string::npos ? "" : where.substr(colon + 2), problem);
}
} // namespace

ScriptedWorkload::ScriptedWorkload(const Application& app, const FederationLayout& layout)
    : scripts_(static_cast<std::size_t>(layout.num_nodes())) {
  for (const auto& node : app.spec_as<ScriptedSpec>().nodes) {
    NodeId id = layout.resolve(node.node);
    if (id < 0)
      fail_at(node.where,
              fmt::format("no node \"{}\" in the federation (use a host name such as \"{}\" or an "
                          "index below {})",
                          node.node, layout.num_nodes() ? layout.host_name(0) : "c0-0", layout.num_nodes()));
    for (const auto& a : node.actions) {
      Action act{a.kind == ScriptedAction::Kind::Compute, a.work, -1, a.size, a.label};
      if (!act.compute) {
        act.to = layout.resolve(a.to);
        if (act.to < 0) fail_at(a.where + "/send", fmt::format("no node \"{}\" in the federation", a.to));
        if (act.to == id) fail_at(a.where + "/send", "a node cannot send a message to itself");
      }
      scripts_[id].push_back(act);
    }
  }
}

AppStateValue ScriptedWorkload::initial_state(NodeId process, std::uint64_t seed) const {
  auto s = std::make_unique<ScriptedState>();
  s->rng.reseed(mix_seed(seed, static_cast<std::uint64_t>(process), 0x5c21b7));
  return AppStateValue(std::move(s));
}

std::optional<double> ScriptedWorkload::advance(AppState& base, NodeId self, std::vector<AppMessage>& sends) const {
  auto& state = static_cast<ScriptedState&>(base);
  const auto& script = scripts_[self];
  while (state.next_action < script.size()) {
    const Action& a = script[state.next_action++];
    if (a.compute) {
      if (a.work > 0) return a.work;
      continue;
    }
    AppMessage m;
    m.src = self;
    m.dst = a.to;
    m.seq = state.next_seq++;
    m.size = a.size;
    m.label = a.label;
    m.digest = message_digest(m, state.rng.next());
    sends.push_back(m);
  }
  state.finished = true;
  return std::nullopt;
}

double ScriptedWorkload::failure_free_work(NodeId process) const {
  double total = 0;
  for (const auto& a : scripts_[process])
    if (a.compute) total += a.work;
  return total;
}

} // namespace ckptsim
