/* The failures of a run, as one part of the Run: the source of failure events, the recoveries
 * under way and their decisions, how many nodes are down, and the failures held while a recovery
 * runs (the overlap policy). run_failures.cpp acts on them. */
#pragma once

#include "sim/app/rng.hpp"
#include "sim/engine/recovery_tracker.hpp"
#include "sim/engine/suspicions.hpp"
#include "sim/failures/source.hpp"

#include <deque>
#include <map>
#include <memory>
#include <string>

namespace ckptsim {

/** @brief A failure event held while a recovery runs: its victims (nodes, or hosts under shrink)
 *  and the repair time they will have. */
struct DeferredFailure {
  std::vector<NodeId> victims;
  double repair = 0;
  bool fenced = false; // a heartbeat suspicion of cut-off nodes (sim/engine/suspicions.hpp)
};

struct FailureState {
  std::unique_ptr<FailureSource> source;
  // The repair times the topology's "downtime" draws for events without their own: a stream of its
  // own, so that a random downtime leaves the failure dates and victims as they were.
  Rng repairs;
  RecoveryTracker recoveries;
  int nodes_down = 0;
  std::size_t delivered = 0; // events of the source the run took in before it ended
  struct ScopeCount {
    std::size_t events = 0;
    std::size_t victims = 0;
  };
  std::map<std::string, ScopeCount> scopes; // per scope ("node", a domain's, "cascade"): events taken in
  std::deque<DeferredFailure> deferred;     // failures held while a recovery runs, oldest first
  // Heartbeat suspicions of the nodes a partition cuts off from the monitor, and the repair times
  // of the fenced nodes (a stream of their own: node failures keep their repair times).
  std::unique_ptr<Suspicions> suspicions;
  Rng fence_repairs;
  std::map<FailureId, std::vector<NodeId>> fenced_waiting; // repaired, waiting for a route to the monitor
};

} // namespace ckptsim
