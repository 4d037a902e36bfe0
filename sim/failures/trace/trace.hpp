/* The "trace" failure source: the failures of a file, one "<date> <node>" per line (a host name or
 * a global node index), replayed as they are. */
#pragma once

#include "sim/config/topology.hpp"

#include <string>
#include <vector>

namespace ckptsim {

/** @brief The source's fields of the "failures" object: the trace file, as read. */
struct TraceSettings {
  std::vector<FailureEvent> events;
  std::string file{}; // as opened (relative to the topology file's folder)
};

/** @brief Reads a failure trace: one "date node" per line, '#' starts a comment. */
std::vector<FailureEvent> load_failure_trace(const std::string& path);

} // namespace ckptsim
