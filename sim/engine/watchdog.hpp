/* The run's progress watchdog: a run must end by itself. A protocol that waits forever (a round
 * toward a node that died before it answered, a lost message nobody re-sends) would hold the run
 * open while failures keep striking, and the simulation would never stop. The watchdog's rules
 * are plain functions of what the engine observes, so that they are tested without SimGrid:
 *   - held open: every application process was finished, no recovery open, no failure deferred,
 *     and the run still open, for `limit` seconds in all. Counted over every such stretch, not only the current one:
 * failures that keep rolling finished processes back cut the stretches short, but legitimate activity after the last
 * process finished (a CLC, a wave, a collection) lasts seconds each time;
 *   - stalled: the run was idle for `limit` seconds in all since the application last went
 *     further than ever (a process beyond the most work it had done or the most messages it had
 *     been delivered). Idle: no process computing, no failed node waiting for its restart or its
 *     detection (the engine's own pending events). Counted over every idle stretch, not only the
 *     current one, and work redone after a rollback is no progress: a run stuck while failures
 *     keep striking redoes the same steps after each one (busy) and waits again (idle).
 *     Protocol messages and checkpoint transfers do not count: a protocol that keeps taking
 *     checkpoints around a process that waits forever is stuck all the same.
 *   - no progress under failures: failures arrived since the application last went further than
 *     ever, it went no further for `limit` seconds after these failures' recoveries could have
 *     ended (Termination::excused_until: the stillness of the last calm one, the redo of their
 *     rollbacks), busy or not, and failures keep arriving (one in the last `limit` seconds: slow recoveries after
 *     the last failure are left to the other rules). Failures that arrive faster than recoveries end keep some node
 * always down or restarting, which the idle rule counts as busy: without this rule such a run never ends.
 * docs/MODEL.md, "A run always ends". */
#pragma once

#include <limits>
#include <string>

namespace ckptsim {

struct ProgressState {
  double now = 0;
  double limit = 3600;             // seconds; infinity disables the watchdog
  bool all_finished = false;       // every process is finished now
  double held_open = 0;            // seconds with every process finished and the run open, until now in all
  double first_finished = 0;       // when every process was first finished (for the report)
  double idle = 0;                 // seconds idle since last_progress (Termination::idle)
  double last_progress = 0;        // when the application last went further than ever
  int failures_since_progress = 0; // failures that arrived since last_progress
  double excused_until = 0;        // Termination::excused_until
  double last_failure = -1;        // when a failure last arrived
};

struct ProgressVerdict {
  enum class Rule { None, HeldOpen, Idle, NoProgress };
  bool stuck = false;
  Rule rule = Rule::None;                                      // when stuck: which rule
  std::string why;                                             // when stuck: which rule, since when
  double next_check = std::numeric_limits<double>::infinity(); // when not stuck: when to look again
};

/** @brief Whether the run is stuck now, and if not, the earliest date at which it could be. */
ProgressVerdict check_progress(const ProgressState& s);

/** @brief The default limit: an hour of simulated time, or ten times the longest a failure
 *  legitimately keeps a node still (downtime + detection + restart overhead) when longer. */
double default_stall_limit(double downtime, double detection, double restart_overhead);

} // namespace ckptsim
