/* The run configuration the msglog tests share: protocol msglog, variant, a checkpoint period
 * (inf: none), the seed, and an end date so that a livelock fails instead of hanging. */
#pragma once

#include "tests/support/sim_child.hpp"

#include <cmath>

namespace ckptsim::test_support {

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

/** @brief 2 clusters of 3 nodes, MTBF 0.5 s, quick restarts; in 3 runs of 4 the event logger is
 *  @p latency away, so that determinants stay unstable long enough for failures to find some. */
inline json far_logger_topology(std::uint64_t seed, const char* latency) {
  json topo = small_topology(2, 3, 0.5);
  topo["failures"] = {{"downtime", 0.01}, {"detection_delay", 0.002}, {"restart_overhead", 0.005}};
  if (seed % 4 != 0) topo["controller"] = {{"latency", latency}, {"bandwidth", "1GBps"}};
  return topo;
}

} // namespace ckptsim::test_support
