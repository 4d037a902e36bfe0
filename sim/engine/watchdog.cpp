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
    v.rule = ProgressVerdict::Rule::HeldOpen;
    v.why = fmt::format("every application process had finished (first at {:.6g} s), yet the run was held open {} "
                        "in all",
                        s.first_finished, units::format_duration(s.held_open));
    return v;
  }
  if (s.all_finished) v.next_check = s.now + (s.limit - s.held_open);
  // Idle time grows at most as fast as the clock: the earliest it can reach the limit.
  if (s.idle >= s.limit - eps) {
    v.stuck = true;
    v.rule = ProgressVerdict::Rule::Idle;
    v.why = fmt::format("the application went no further since {:.6g} s, and the run was idle {} since (no "
                        "computation, no failed node pending)",
                        s.last_progress, units::format_duration(s.idle));
    return v;
  }
  if (s.failures_since_progress > 0 && s.now - s.last_failure <= s.limit) {
    const double due = std::max(s.last_progress, s.excused_until) + s.limit;
    if (s.now >= due - eps) {
      v.stuck = true;
      const double stalled = s.now - s.last_progress;
      // Mostly idle: the application waits for what never comes, the failures only interrupt it.
      // Mostly busy: the failures themselves keep it from going further.
      if (s.idle >= stalled / 2) {
        v.rule = ProgressVerdict::Rule::Idle;
        v.why = fmt::format("the application went no further since {:.6g} s, and the run was idle {} of the {} "
                            "since, while {} failure(s) struck",
                            s.last_progress, units::format_duration(s.idle), units::format_duration(stalled),
                            s.failures_since_progress);
      } else {
        v.rule = ProgressVerdict::Rule::NoProgress;
        v.why = fmt::format("no progress: failures arrive faster than recoveries end ({} failure(s) since the "
                            "application last went further than ever, at {:.6g} s; {} without progress, {} more "
                            "than their recoveries need)",
                            s.failures_since_progress, s.last_progress, units::format_duration(stalled),
                            units::format_duration(s.limit));
      }
      return v;
    }
    v.next_check = std::min(v.next_check, due);
  }
  v.next_check = std::max(std::min(v.next_check, s.now + (s.limit - s.idle)), s.now + eps);
  return v;
}

double default_stall_limit(double downtime, double detection, double restart_overhead) {
  return std::max(3600.0, 10 * (downtime + detection + restart_overhead));
}

} // namespace ckptsim
