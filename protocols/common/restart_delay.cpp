#include "protocols/common/restart_delay.hpp"

namespace ckptsim {

void RestartDelay::pay(NodeContext& ctx) const { ctx.set_timer(timer_, ctx.now() + ctx.restart_overhead()); }

bool RestartDelay::end(NodeContext& ctx, int id) {
  if (id != timer_ || !restarting_) return false;
  restarting_ = false;
  ctx.restart_complete();
  return true;
}

} // namespace ckptsim
