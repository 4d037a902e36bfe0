/* Identifiers shared by the engine and the protocols. */
#pragma once

#include <cstdint>

namespace ckptsim {

using NodeId = int;                // 0..N-1: computing processes (one per node); N..: non-computing services
using ClusterId = int;             // index of a cluster in the topology
using Incarnation = std::uint32_t; // bumped each time a node restarts after a failure
using FailureId = std::uint64_t;   // 1, 2, ... in the order failures strike

/** @brief One key for the ordered pair (@p src, @p dst): a hash map's key per channel. */
inline std::uint64_t pair_key(NodeId src, NodeId dst) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(src)) << 32 | static_cast<std::uint32_t>(dst);
}

} // namespace ckptsim
