/* Readers of results documents and trace events that several simulation tests share. */
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

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

} // namespace ckptsim::test_support
