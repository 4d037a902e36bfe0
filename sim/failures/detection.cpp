/* Failure detection delay: see detection.hpp. */
#include "sim/failures/detection.hpp"

#include <algorithm>
#include <cmath>

namespace ckptsim {

double detection_delay(const FailureSpec& failures, double date) {
  const HeartbeatSpec& hb = failures.heartbeat;
  if (!(hb.period > 0)) return failures.detection_delay;
  const double last = std::floor(date / hb.period) * hb.period; // the crash's last heartbeat
  return std::max(0.0, last + hb.timeout - date);
}

} // namespace ckptsim
