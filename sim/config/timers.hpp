/* The timer file (SPEC 2.3): per cluster, or per process, the protocol timers. A timer that is not
 * given, or given as null / "inf", never fires. The plug-ins that read a timer register its name
 * (a TimerRegistration in their folder), so that a misspelled timer is an error; the engine names
 * none. */
#pragma once

#include "sim/config/json_reader.hpp"
#include "sim/config/registry.hpp"
#include "sim/config/topology.hpp"

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief A timer name of the timer file, registered by the plug-ins that read it:
 *  `const TimerRegistration r{{"name", "description"}};`. */
struct TimerInfo {
  std::string name;
  std::string description; // one line, for `ckptsim list` and `ckptsim protocols`
  int rank = 0;            // position in listings and in the message naming the known timers

  /** @brief What a timer file naming an unknown timer is told (the registry's lookups). */
  static std::string unknown(const std::string& name, const std::vector<std::string>& known);
};

using TimerRegistry = Registry<TimerInfo>;
using TimerRegistration = Registration<TimerInfo>;

struct Timers {
  std::string source = "<embedded>";
  std::map<std::string, double> defaults;
  std::map<std::string, std::map<std::string, double>> per_cluster; // cluster name -> timers
  std::map<std::string, std::map<std::string, double>> per_process; // host name -> timers

  /** @brief The period of timer @p name for a process: process, then cluster, then default; inf if none. */
  double period(const std::string& name, const std::string& cluster, const std::string& host) const;
  double cluster_period(const std::string& name, const std::string& cluster) const;
};

Timers parse_timers(const json& doc, const std::string& file, const Topology& topology);

} // namespace ckptsim
