/* A CCK process' part of the restart once every GATHER is in (thesis 4.3.4 steps 4 to 6):
 * C_total from the union of the restricted graphs and the lost communications, then, on a
 * non-failed process, T^p reset in its state (partial rollback) and its sends and receives marked
 * repeated; on the failed process, its sends the others received promised and, unless C_total
 * needs them, withheld (4.3.3). Records the restart's statistics (cck.restart, and the run's
 * totals once, on the first non-failed process). No state of its own: Restart calls it. */
#pragma once

#include "protocols/cck/dataflow.hpp"
#include "protocols/cck/gather.hpp"
#include "protocols/cck/replay.hpp"
#include "sim/protocol/protocol.hpp"

namespace ckptsim::cck {

/** @brief What a process plans from, once the GATHERs of failure @c epoch are in. */
struct PlanInputs {
  FailureId epoch = 0;
  std::vector<NodeId> failed;           // the failed processes, increasing order
  bool reuse = false;                   // 4.4.2: a non-failed process keeps the data in its memory
  const AppState* checkpoint = nullptr; // this process' copy of the recovery line
  const GatherBody* own = nullptr;      // its own GATHER
  const Gathered* others = nullptr;     // the N-1 others'
};

/** @brief Plans this process' part of the restart and applies it to its state and @p replay. */
void plan_restart_part(NodeContext& ctx, const DataflowApplication& wl, const PlanInputs& in, Replay& replay);

} // namespace ckptsim::cck
