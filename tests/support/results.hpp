/* Readers of results documents and trace events that several simulation tests share. */
#pragma once

#include "tests/support/sim_child.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ckptsim::test_support {

/** @brief A results document without its wall-clock time, the one field two identical runs
 *  may differ in. */
inline nlohmann::json without_wall_clock(nlohmann::json doc) {
  doc["results"].erase("wall_time_s");
  return doc;
}

/** @brief The wave number a rollback event's reason names ("global rollback to wave 2 (failure
 *  3)"), 0 for the initial state. */
inline std::uint64_t restored_wave(const nlohmann::json& rollback) {
  const std::string reason = rollback["reason"];
  const auto at = reason.find("wave ");
  return at == std::string::npos ? 0 : std::stoull(reason.substr(at + 5));
}

/** @brief A counter of a results document's statistics, 0 when the run never counted it. */
inline double counter(const nlohmann::json& doc, const std::string& name) {
  return doc["stats"]["counters"].value(name, 0.0);
}
inline double counter(const ChildResult& r, const std::string& name) { return counter(r.document, name); }

/** @brief The events of type @p ev of the trace file @p trace, in order. */
inline std::vector<nlohmann::json> trace_events(const std::string& trace, const std::string& ev) {
  std::vector<nlohmann::json> out;
  for (const auto& e : read_trace(trace))
    if (e["ev"] == ev) out.push_back(e);
  return out;
}

} // namespace ckptsim::test_support
