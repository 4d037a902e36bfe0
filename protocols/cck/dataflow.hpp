/* What CCK takes from the contract's data-flow model (sim/protocol/dataflow.hpp), under its own
 * namespace, and the one count of that model that is CCK's: its wave's messages. */
#pragma once

#include "sim/protocol/dataflow.hpp"

#include <cstdint>
#include <vector>

namespace ckptsim::cck {

using namespace ckptsim::dataflow;

/** @brief Control messages of one CCK wave (4.2.5): N INIT + sum V_i PING, PONG and CONT + N ACK
 *  = 2N + 3 * sum(V_i), N being the number of entries of @p v (neighbour_counts). */
inline std::uint64_t wave_message_count(const std::vector<int>& v) {
  std::uint64_t sum = 0;
  for (int vi : v) sum += static_cast<std::uint64_t>(vi);
  return 2 * v.size() + 3 * sum;
}

} // namespace ckptsim::cck
