/* Identifiers shared by the engine and the protocols. */
#pragma once

#include <cstdint>

namespace ckptsim {

using NodeId = int;                // 0..N-1: computing processes (one per node); N..: non-computing services
using ClusterId = int;             // index of a cluster in the topology
using Incarnation = std::uint32_t; // bumped each time a node restarts after a failure
using FailureId = std::uint64_t;   // 1, 2, ... in the order failures strike

} // namespace ckptsim
