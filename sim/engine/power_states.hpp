/* How long each process spent in each of the energy model's states (docs/MODEL.md, "Energy"):
 * computing; checkpointing (paused by its protocol: saving, loading or restoring a checkpoint);
 * idle (waiting for a message, recovering, its application done); down (failed, until its
 * restart). Fed by the process states the nodes report (Observation::set_state), closed at the end
 * of the run. Plain bookkeeping, dates passed in. */
#pragma once

#include "sim/net/ids.hpp"

#include <array>
#include <vector>

namespace ckptsim {

enum class PowerState { Computing, Checkpointing, Idle, Down };
constexpr std::size_t kPowerStates = 4;

/** @brief The energy model's state of a process state ("computing", "blocked", "down"...). */
PowerState power_state_of(const char* process_state);

class PowerStates {
 public:
  /** @brief @p nodes processes, each idle from date 0 until its first state. */
  void reset(int nodes);
  /** @brief Process @p node is in @p state from @p now. */
  void enter(NodeId node, PowerState state, double now);
  /** @brief Seconds process @p node spent in each state until @p end. */
  std::array<double, kPowerStates> seconds(NodeId node, double end) const;

 private:
  std::vector<PowerState> state_;
  std::vector<double> since_;
  std::vector<std::array<double, kPowerStates>> spent_;
};

} // namespace ckptsim
