/* The failures of a run, as one part of the Run: the source of failure events, the recoveries
 * under way and their decisions, how many nodes are down, and the failures held while a recovery
 * runs (the overlap policy). run_failures.cpp acts on them. */
#pragma once

#include "sim/engine/recovery_tracker.hpp"
#include "sim/failures/source.hpp"

#include <deque>
#include <memory>

namespace ckptsim {

struct FailureState {
  std::unique_ptr<FailureSource> source;
  RecoveryTracker recoveries;
  int nodes_down = 0;
  std::deque<NodeId> deferred; // failures held while a recovery runs, oldest first
};

} // namespace ckptsim
