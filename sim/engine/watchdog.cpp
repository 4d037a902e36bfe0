#include "sim/engine/watchdog.hpp"

#include "sim/units/units.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ckptsim {

ProgressVerdict check_progress(const ProgressState& s) {
  ProgressVerdict v;
  if (!std::isfinite(s.limit)) return v;
  // The watchdog wakes at the date computed below; the same sums computed again there may round a
  // hair below the limit (and a wake-up at "now" would return at once, for ever): a tolerance.
  const double eps = 1e-9 * std::max(1.0, s.limit);
  if (s.held_open >= s.limit - eps) {
    v.stuck = true;
    v.why = fmt::format("every application process had finished (first at {:.6g} s), yet the run was held open {} "
                        "in all",
                        s.first_finished, units::format_duration(s.held_open));
    return v;
  }
  if (s.all_finished) v.next_check = s.now + (s.limit - s.held_open);
  // While something computes or the engine has a restart / detection to come, the run moves.
  const double quiet_since = s.busy ? s.now : s.last_activity;
  if (s.now - quiet_since >= s.limit - eps) {
    v.stuck = true;
    v.why = fmt::format("the application made no progress for {} (no computation, no application message received "
                        "since {:.6g} s)",
                        units::format_duration(s.now - quiet_since), quiet_since);
    return v;
  }
  v.next_check = std::max(std::min(v.next_check, quiet_since + s.limit), s.now + eps);
  return v;
}

double default_stall_limit(double downtime, double detection, double restart_overhead) {
  return std::max(3600.0, 10 * (downtime + detection + restart_overhead));
}

} // namespace ckptsim
