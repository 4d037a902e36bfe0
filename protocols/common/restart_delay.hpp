/* The restart overhead a restarted process pays (the failure model's restart_overhead, SPEC 1):
 * a process restarted after its own failure is "restarting" from on_restart until, its state
 * reloaded, it has waited that long on a protocol timer; the engine is then told it runs again
 * (NodeContext::restart_complete). Every protocol that restarts a failed process uses it. */
#pragma once

#include "sim/protocol/protocol.hpp"

namespace ckptsim {

class RestartDelay {
 public:
  /** @param timer the protocol's timer id (NodeContext::set_timer) for the end of the delay. */
  explicit RestartDelay(int timer)
      : timer_(timer) {}

  /** @brief This process restarted after its own failure (Agent::on_restart): it is restarting. */
  void begin() { restarting_ = true; }
  /** @brief From begin() until the delay ends. */
  bool restarting() const { return restarting_; }
  /** @brief The process has its state back: the delay runs from now. */
  void pay(NodeContext& ctx) const;
  /** @brief On timer @p id: true when it ends the delay of a restarting process, which then no
   *  longer is and is reported running again (restart_complete reads Agent::recovering, so the
   *  agent's state must say so first: the flag goes down before the call); false otherwise. */
  bool end(NodeContext& ctx, int id);

 private:
  int timer_;
  bool restarting_ = false;
};

} // namespace ckptsim
