/* The recovery line of independent checkpointing (SPEC 3.5): the rollback-dependency-graph
 * computation, a pure function over plain data, unit-tested apart from SimGrid.
 *
 * Units (processes, or clusters) number their checkpoints 0 (the initial state, always
 * restorable), then increasingly. Interval k of a unit is its execution after checkpoint k. A
 * state of unit u depends on D[w] = the highest interval of unit w among the messages it has
 * delivered (-1: none). When unit w rolls back to checkpoint c, its intervals >= c are undone: a
 * kept state of u with D[w] >= c holds the delivery of a message whose send is undone (an
 * orphan), so u must go back to a checkpoint without one. */
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ckptsim::independent {

using Deps = std::vector<std::int64_t>;                // per unit: highest interval delivered from it, -1 = none
using Line = std::vector<std::optional<std::int64_t>>; // per unit: checkpoint restored, nullopt = keeps its state

struct CheckpointInfo {
  std::int64_t number = 0;
  Deps deps; // D at the checkpoint (empty or all -1 for checkpoint 0)
};

/** @brief What the line computation knows of one unit. */
struct UnitView {
  std::vector<CheckpointInfo> checkpoints; // committed, oldest first; checkpoint 0 is implicit
  Deps current;                            // D of its current state (ignored when failed)
  bool failed = false;                     // its current state is lost: it starts from its last checkpoint
};

struct LineResult {
  Line restored;
  std::vector<int> rolled_over; // per unit: committed checkpoints newer than the restored one
  std::vector<bool> to_initial; // per unit: back to checkpoint 0 (the domino's end)
  int units_rolled_back() const;
  int total_rolled_over() const;
  int max_depth() const;
  int units_to_initial() const;
};

/** @brief The recovery line: the failed units start from their last checkpoint, the others from
 *  their current state; while some candidate state holds an orphan under the current line, that
 *  unit moves to its latest older checkpoint without one. Candidates only move back and
 *  checkpoint 0 never holds an orphan, so this terminates; the result is the most recent
 *  consistent line (the greatest fixed point), whatever the order of the moves. */
LineResult recovery_line(const std::vector<UnitView>& units);

/** @brief The garbage-collection line: the recovery line when every unit fails now. Every later
 *  recovery line is at or after it (later checkpoints and states only raise it), so every
 *  checkpoint numbered below it can be discarded. */
LineResult gc_line(std::vector<UnitView> units);

/** @brief Whether a state with dependencies @p deps holds an orphan when the units roll back as
 *  @p restored says. */
bool holds_orphan(const Deps& deps, const Line& restored);

} // namespace ckptsim::independent
