/* The "trace" failure source: the failures of a file, one "<date> <node>" per line (a host name or
 * a global node index), replayed as they are; a line "<date> <link> <duration>" is an outage of a
 * link (issue 32), handed to the network faults (Topology::link_failures). */
#pragma once

#include "sim/config/topology.hpp"

#include <string>
#include <vector>

namespace ckptsim {

/** @brief The source's fields of the "failures" object: the trace file, as read. */
struct TraceSettings {
  std::vector<FailureEvent> events;
  std::vector<LinkFailureSpec> links{}; // "<date> <link> <duration>" lines: scripted link outages
  std::string file{};                   // as opened (relative to the topology file's folder)
};

/** @brief Reads a failure trace: one "date node" per line, '#' starts a comment; the link outages
 *  ("date link duration") go to @p links when given (an InputError otherwise). */
std::vector<FailureEvent> load_failure_trace(const std::string& path, std::vector<LinkFailureSpec>* links = nullptr);

} // namespace ckptsim
