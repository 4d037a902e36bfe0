/* The termination bookkeeping (sim/engine/termination.hpp) without SimGrid: when a run may end,
 * when it is quiescent, how long it was held open with every process finished, and how an ended
 * run names its status. */
#include "sim/engine/termination.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

namespace {
// Two computing nodes and one service, every one quiet, both applications finished at date 5.
Termination quiet_run() {
  Termination t;
  t.reset(2, 3);
  for (NodeId e = 0; e < 3; e++) t.set_quiet(e, true);
  t.set_finished(0, true, 4.0);
  t.set_finished(1, true, 5.0);
  return t;
}
} // namespace

TEST(Termination, ARunEndsWhenEveryEndpointIsQuietAndTheEngineHasNothingUnderWay) {
  Termination t = quiet_run();
  EXPECT_TRUE(t.may_end({}));
  EXPECT_FALSE(t.may_end({.wire_empty = false}));
  EXPECT_FALSE(t.may_end({.open_recoveries = 1}));
  EXPECT_FALSE(t.may_end({.nodes_down = 1}));
  EXPECT_FALSE(t.may_end({.failures_deferred = true}));
  t.replica_started();
  EXPECT_FALSE(t.may_end({}));
  t.replica_finished();
  t.set_quiet(2, false); // the service's agent is busy
  EXPECT_FALSE(t.may_end({}));
  t.set_quiet(2, false);
  t.set_quiet(2, true);
  EXPECT_TRUE(t.may_end({}));
}

TEST(Termination, QuiescenceCountsControlMessagesRecoveringAgentsAndCopiesInFlight) {
  Termination t = quiet_run();
  EXPECT_TRUE(t.quiescent(0));
  EXPECT_FALSE(t.quiescent(1));
  t.set_recovering(2, true);
  t.set_recovering(2, true); // said twice, counted once
  EXPECT_FALSE(t.quiescent(0));
  t.set_recovering(2, false);
  EXPECT_TRUE(t.quiescent(0));
  t.replica_started();
  EXPECT_FALSE(t.quiescent(0));
}

TEST(Termination, TheMakespanIsWhenEveryProcessWasLastFinished) {
  Termination t = quiet_run();
  EXPECT_EQ(t.finished_count(), 2);
  EXPECT_DOUBLE_EQ(t.all_finished_date(), 5.0);
  EXPECT_FALSE(t.set_finished(1, true, 6.0)); // no change
  EXPECT_TRUE(t.set_finished(1, false, 7.0)); // rolled back
  EXPECT_FALSE(t.all_finished());
  EXPECT_TRUE(t.set_finished(1, true, 9.0));
  EXPECT_DOUBLE_EQ(t.all_finished_date(), 9.0);
  EXPECT_DOUBLE_EQ(t.first_all_finished(), 5.0);
}

TEST(Termination, HeldOpenTimeAddsUpTheStretchesWithEveryProcessFinishedAndTheEngineIdle) {
  Termination t = quiet_run();
  EXPECT_FALSE(t.held());
  t.update_held(true, 5.0);
  EXPECT_TRUE(t.held());
  EXPECT_DOUBLE_EQ(t.held_open(8.0), 3.0);
  t.update_held(false, 10.0); // a failure: a recovery opens
  EXPECT_DOUBLE_EQ(t.held_open(50.0), 5.0);
  t.set_finished(0, false, 12.0);
  t.update_held(true, 20.0); // recovery over, but node 0 is not finished
  EXPECT_FALSE(t.held());
  t.set_finished(0, true, 30.0);
  t.update_held(true, 30.0);
  EXPECT_DOUBLE_EQ(t.held_open(31.5), 6.5);
}

TEST(Termination, IdleTimeCountsEveryIdleStretchSinceTheFurthestProgress) {
  Termination t;
  t.reset(2, 2);
  EXPECT_DOUBLE_EQ(t.idle(3.0), 3.0); // nothing computes yet
  t.set_computing(1, true, 3.0);
  EXPECT_TRUE(t.busy());
  EXPECT_DOUBLE_EQ(t.idle(10.0), 3.0); // computing is not idle
  t.set_computing(1, false, 6.0);
  t.note_progress(1, 3.0, 0, 6.0); // the step ended: further than ever
  EXPECT_DOUBLE_EQ(t.last_progress(), 6.0);
  EXPECT_DOUBLE_EQ(t.idle(8.0), 2.0);
  // A failure: the node is down (busy), then redoes the same step: no progress, and the idle
  // stretches before and after add up.
  t.set_engine_waiting(true, 8.0);
  t.set_engine_waiting(false, 20.0);
  EXPECT_DOUBLE_EQ(t.idle(20.0), 2.0);
  t.set_computing(1, true, 21.0);
  t.set_computing(1, false, 24.0);
  t.note_progress(1, 3.0, 0, 24.0); // redone: not further
  EXPECT_DOUBLE_EQ(t.last_progress(), 6.0);
  EXPECT_DOUBLE_EQ(t.idle(30.0), 2.0 + 1.0 + 6.0);
  t.note_progress(0, 0.0, 1, 30.0); // node 0's first delivery: further
  EXPECT_DOUBLE_EQ(t.idle(31.0), 1.0);
  EXPECT_DOUBLE_EQ(t.last_progress(), 30.0);
  // A message crossing a slow link, a restart overhead, every process finished: not idle.
  t.set_app_on_wire(true, 31.0);
  t.set_app_on_wire(false, 40.0);
  EXPECT_DOUBLE_EQ(t.idle(41.0), 2.0);
  t.busy_until(41.0, 45.0);
  EXPECT_DOUBLE_EQ(t.idle(44.0), 2.0);
  EXPECT_DOUBLE_EQ(t.idle(46.0), 3.0);
  t.set_finished(0, true, 46.0);
  t.set_finished(1, true, 46.0);
  EXPECT_DOUBLE_EQ(t.idle(100.0), 3.0);
}

TEST(Termination, FailuresWithoutProgressAreExcusedUntilTheLastCalmOnesRecoveryCouldHaveEnded) {
  Termination t;
  t.reset(2, 2);
  t.note_progress(0, 100.0, 0, 100.0); // the furthest so far, at 100 s
  EXPECT_EQ(t.failures_since_progress(), 0);
  t.note_failure(110.0, true);   // calm: nothing else under way
  t.note_stillness(70.0, 110.0); // down until 180 s
  t.note_rollback(40.0);         // back to a state of 40 s: 60 s to redo up to where it was at 100 s
  t.note_failure(120.0, false);  // overtakes the first one's recovery: excuses nothing more
  t.note_stillness(90.0, 120.0);
  t.note_rollback(90.0);
  EXPECT_EQ(t.failures_since_progress(), 2);
  EXPECT_DOUBLE_EQ(t.last_failure(), 120.0);
  // The longest stillness after the progress (90 s), later than the calm one's end, plus the redo.
  EXPECT_DOUBLE_EQ(t.excused_until(), 100.0 + 90.0 + 60.0);
  t.note_failure(300.0, true); // calm again, during the redo: a new legitimate recovery
  t.note_stillness(20.0, 300.0);
  EXPECT_DOUBLE_EQ(t.excused_until(), 320.0 + 60.0);
  for (int i = 0; i < 50; i++) { // a storm: nothing more is excused
    t.note_failure(330.0 + i, false);
    t.note_stillness(20.0, 330.0 + i);
  }
  EXPECT_DOUBLE_EQ(t.excused_until(), 380.0);
  // Progress at 350 s: the count starts again, the redo is done; the failures still pending keep
  // the stillness they have left (the last one's, until 399 s).
  t.note_progress(1, 5.0, 0, 350.0);
  EXPECT_EQ(t.failures_since_progress(), 0);
  EXPECT_DOUBLE_EQ(t.excused_until(), 399.0);
}

TEST(RunEnd, StatusAndCutFollowTheReason) {
  RunEnd e;
  EXPECT_FALSE(e.over());
  e.finish(RunEnd::Reason::Completed, 12.0);
  EXPECT_TRUE(e.over());
  EXPECT_FALSE(e.cut());
  EXPECT_EQ(e.status(), "completed");
  EXPECT_DOUBLE_EQ(e.date(), 12.0);
  e.finish(RunEnd::Reason::Stuck, 40.0, "c0-1: waits (held open)");
  EXPECT_TRUE(e.cut());
  EXPECT_EQ(e.status(), "stuck: c0-1: waits (held open)");
  e.finish(RunEnd::Reason::Unrecoverable, 41.0, "no copy");
  EXPECT_EQ(e.status(), "unrecoverable failure: no copy");
  e.finish(RunEnd::Reason::EndDate, 50.0);
  EXPECT_EQ(e.status(), "stopped at the end date");
  EXPECT_TRUE(e.cut());
}
