/* What a CCK process reads of its own part of the task graph: the processes it still expects data
 * from (whom a wave PINGs and a restart STOP_PINGs), where each of its tasks stands against the
 * recovery line (the restart analysis' input, lost.hpp), and, with reuse (4.4.2), the data it
 * still holds in memory. Plain functions of the graph and the states, no protocol state. */
#pragma once

#include "protocols/cck/dataflow.hpp"
#include "protocols/cck/lost.hpp"
#include "sim/protocol/ids.hpp"

#include <vector>

namespace ckptsim::cck {

/** @brief The processes @p self still expects data from in state @p now (receive tasks not
 *  executed), ascending. */
std::vector<NodeId> senders_still_expected(const DataflowApplication& wl, NodeId self, const AppState& now);

/** @brief The states of @p self's tasks (the others' stay Pending): executed in @p checkpoint,
 *  executed since (in @p now), or not yet. */
TaskStates own_task_states(const DataflowApplication& wl, NodeId self, const AppState& checkpoint, const AppState& now);

/** @brief Per datum, still in @p self's memory given its task @p states: the data a task not
 *  executed yet reads (live_data()). */
std::vector<bool> data_in_own_memory(const DataflowApplication& wl, NodeId self, const TaskStates& states);

} // namespace ckptsim::cck
