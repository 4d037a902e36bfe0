#include "sim/engine/power_states.hpp"

#include <cstring>

namespace ckptsim {

PowerState power_state_of(const char* s) {
  if (s == nullptr) return PowerState::Idle;
  if (std::strcmp(s, "computing") == 0) return PowerState::Computing;
  if (std::strcmp(s, "blocked") == 0) return PowerState::Checkpointing; // by its protocol: save, load, restore
  if (std::strcmp(s, "down") == 0) return PowerState::Down;
  return PowerState::Idle; // waiting, recovering, finished
}

void PowerStates::reset(int nodes) {
  state_.assign(static_cast<std::size_t>(nodes), PowerState::Idle);
  since_.assign(static_cast<std::size_t>(nodes), 0.0);
  spent_.assign(static_cast<std::size_t>(nodes), {});
}

void PowerStates::enter(NodeId node, PowerState state, double now) {
  const auto n = static_cast<std::size_t>(node);
  if (n >= state_.size() || state_[n] == state) return;
  spent_[n][static_cast<std::size_t>(state_[n])] += now - since_[n];
  state_[n] = state;
  since_[n] = now;
}

std::array<double, kPowerStates> PowerStates::seconds(NodeId node, double end) const {
  const auto n = static_cast<std::size_t>(node);
  auto out = spent_[n];
  out[static_cast<std::size_t>(state_[n])] += end - since_[n];
  return out;
}

} // namespace ckptsim
