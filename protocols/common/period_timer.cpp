#include "protocols/common/period_timer.hpp"

#include <cmath>

namespace ckptsim {

double PeriodTimer::period(const NodeContext& ctx) const { return ctx.timer_period(name_); }

void PeriodTimer::arm_in(NodeContext& ctx, double delay) const {
  if (std::isfinite(delay))
    ctx.set_timer(id_, ctx.now() + delay);
  else
    ctx.cancel_timer(id_);
}

} // namespace ckptsim
