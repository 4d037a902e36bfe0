/* The run configuration the msglog tests share: protocol msglog, variant, a checkpoint period
 * (inf: none), the seed, and an end date so that a livelock fails instead of hanging. */
#pragma once

#include "tests/support/sim_child.hpp"

#include <cmath>

namespace ckptsim::testing {

inline RunConfig msglog_config(json topology, json application, double period, std::uint64_t seed,
                               const char* variant = "pessimistic") {
  json timers = json::object();
  if (std::isfinite(period)) timers = {{"default", {{"checkpoint_period", period}}}};
  RunConfig c = make_config(std::move(topology), std::move(application), timers);
  c.options.protocol = "msglog";
  c.options.params["variant"] = variant;
  c.options.seed = seed;
  c.options.end_date = 100;
  return c;
}

} // namespace ckptsim::testing
