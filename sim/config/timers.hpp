/* The timer file (SPEC 2.3): per cluster, or per process, the protocol timers. A timer that is not
 * given, or given as null / "inf", never fires. Timer names are declared once (engine and
 * protocols) so that a misspelled timer is an error. */
#pragma once

#include "sim/config/json_reader.hpp"
#include "sim/config/topology.hpp"

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief Declares a timer name (with a description shown by `ckptsim protocols`). */
void declare_timer(const std::string& name, const std::string& description);
const std::map<std::string, std::string>& declared_timers();

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
