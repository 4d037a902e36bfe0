/* A protocol timer that fires a period after it is armed, the period read from the timer file
 * for this node (NodeContext::timer_period, SPEC 2.3): a timer the file does not give is inf and
 * never fires. The checkpoint and garbage-collection timers of several protocols ("a period after
 * the last one") are such timers; a protocol declares each once with its id and name:
 *   constexpr PeriodTimer kGcTimer{2, "gc_period"};
 * The timer file accepts only registered names (TimerRegistration): checkpoint_period and
 * gc_period, which several protocols share, are registered in period_timer.cpp. */
#pragma once

#include "sim/protocol/protocol.hpp"

namespace ckptsim {

class PeriodTimer {
 public:
  /** @param id the protocol's timer id (NodeContext::set_timer); @param name the timer file's name. */
  constexpr PeriodTimer(int id, const char* name)
      : id_(id)
      , name_(name) {}

  /** @brief The timer's id (NodeContext::set_timer, Agent::on_timer). */
  constexpr int id() const { return id_; }
  /** @brief Whether timer @p id (Agent::on_timer) is this one. */
  constexpr bool is(int id) const { return id == id_; }
  /** @brief This node's period (inf: never). */
  double period(const NodeContext& ctx) const;
  /** @brief Fires a period from now; never when the period is inf (a pending date is dropped). */
  void arm(NodeContext& ctx) const { arm_in(ctx, period(ctx)); }
  /** @brief Fires @p delay seconds from now (a phase, a first delay); never when it is inf. */
  void arm_in(NodeContext& ctx, double delay) const;
  void cancel(NodeContext& ctx) const { ctx.cancel_timer(id_); }

 private:
  int id_;
  const char* name_;
};

} // namespace ckptsim
