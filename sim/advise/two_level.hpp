/* The expected makespan of two-level checkpointing (issue 33, item 3; derived in docs/MODEL.md,
 * "Two-level checkpointing: the renewal model"): work W in segments of T seconds of computation,
 * each but the last followed by a checkpoint, every k-th of level 2 (cost C2) and the others of
 * level 1 (cost C1); failures of two kinds, exponential and independent, striking computation,
 * checkpoints and recoveries alike: kind 1 (rate lambda1) rolls back to the newest checkpoint of
 * either level (recovery R1), kind 2 (rate lambda2) to the newest level-2 one (recovery R2); a
 * rollback to the start costs R0 (nothing to load). No downtime: a recovery starts at the failure.
 * Exact for this model (a Markov renewal argument), computed in O(W / T). */
#pragma once

namespace ckptsim::advise {

struct TwoLevelModel {
  double work = 0;     // W, seconds of computation
  double period = 0;   // T, computation between two checkpoints
  int every = 1;       // k: every k-th checkpoint is of level 2
  double cost1 = 0;    // C1
  double cost2 = 0;    // C2 (the whole level-2 checkpoint)
  double rate1 = 0;    // lambda1, failures per second recovered from either level
  double rate2 = 0;    // lambda2, failures per second recovered from level 2 only
  double restart0 = 0; // R0: recovery to the initial state
  double restart1 = 0; // R1: recovery from the newest checkpoint
  double restart2 = 0; // R2: recovery from the newest level-2 checkpoint
};

/** @brief The expected wall time of the run under @p m (infinity when the failures make it
 *  diverge numerically). With rate2 = 0 (and R0 = R1) it is Daly's complete model. */
double two_level_makespan(const TwoLevelModel& m);

} // namespace ckptsim::advise
