#include "protocols/common/period_timer.hpp"

#include <cmath>

namespace ckptsim {

// The timers several protocols read (as PeriodTimer or through NodeContext::timer_period),
// registered once here: a timer only one protocol reads is registered in its folder.
const TimerRegistration checkpoint_period_timer{
    {"checkpoint_period", "delay between two unforced checkpoints (HC3I: between unforced CLCs)"}};
const TimerRegistration gc_period_timer{{"gc_period", "delay between two garbage collections"}};

double PeriodTimer::period(const NodeContext& ctx) const { return ctx.timer_period(name_); }

void PeriodTimer::arm_in(NodeContext& ctx, double delay) const {
  if (std::isfinite(delay))
    ctx.set_timer(id_, ctx.now() + delay);
  else
    ctx.cancel_timer(id_);
}

} // namespace ckptsim
