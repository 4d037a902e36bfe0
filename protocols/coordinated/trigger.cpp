/* Checkpoint triggering policies of the coordinated protocol: see trigger.hpp. */
#include "protocols/coordinated/trigger.hpp"

#include "sim/protocol/errors.hpp"

#include <cmath>
#include <fmt/format.h>

namespace ckptsim::coordinated {

namespace {
// Dates within this of each other are the same date (SimGrid finishes actions within 1e-9 s).
constexpr double kEpsilon = 1e-9;
} // namespace

TriggerPolicy parse_trigger(const std::string& name) {
  if (name == "periodic") return TriggerPolicy::Periodic;
  if (name == "collective") return TriggerPolicy::Collective;
  if (name == "both") return TriggerPolicy::Both;
  throw InputError("command line", "--param trigger",
                   fmt::format("unknown trigger \"{}\" (valid: periodic, collective, both)", name));
}

const char* to_string(TriggerPolicy policy) {
  switch (policy) {
  case TriggerPolicy::Periodic:
    return "periodic";
  case TriggerPolicy::Collective:
    return "collective";
  case TriggerPolicy::Both:
    return "both";
  }
  return "?";
}

TriggerClock::TriggerClock(TriggerPolicy policy, double interval)
    : policy_(policy)
    , has_period_(std::isfinite(interval))
    , interval_(policy != TriggerPolicy::Periodic && !has_period_ ? 0.0 : interval)
    , next_(interval_) {}

bool TriggerClock::periodic() const { return policy_ != TriggerPolicy::Collective && has_period_; }

bool TriggerClock::periodic_due(double now) const { return next_ <= now + kEpsilon; }

bool TriggerClock::collective_due(double now) const {
  if (!collective()) return false;
  return next_ - delay_ <= now + kEpsilon;
}

void TriggerClock::committed(double commit, double duration) {
  delay_ = duration;
  next_ = commit + interval_;
}

void TriggerClock::restart(double now) { next_ = now + interval_; }

} // namespace ckptsim::coordinated
