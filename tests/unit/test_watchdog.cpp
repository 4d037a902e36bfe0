/* The watchdog's rules (sim/engine/watchdog.hpp) on hand-written states: when a run counts as
 * stuck, and when the watchdog looks again. */
#include "sim/engine/watchdog.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace ckptsim;

TEST(Watchdog, FinishedRunHeldOpenIsStuckAfterTheLimit) {
  ProgressState s{.now = 1000,
                  .limit = 3600,
                  .all_finished = true,
                  .held_open = 500,
                  .first_finished = 500,
                  .idle = 10,
                  .last_progress = 990};
  auto v = check_progress(s);
  EXPECT_FALSE(v.stuck);
  EXPECT_DOUBLE_EQ(v.next_check, 4100); // 3100 s of holding left: earlier than the idle rule's 1000 + 3590
  s.now = 4100;
  s.held_open = 3600;
  v = check_progress(s);
  EXPECT_TRUE(v.stuck);
  EXPECT_NE(v.why.find("first at 500 s"), std::string::npos) << v.why;
}

TEST(Watchdog, FailuresThatCutTheHoldingShortDoNotExcuseIt) {
  // Failures keep rolling finished processes back, the protocol keeps working, yet the run was
  // held open with every process finished for the limit in all: stuck all the same.
  ProgressState s{.now = 90000,
                  .limit = 3600,
                  .all_finished = false,
                  .held_open = 3600,
                  .first_finished = 20000,
                  .idle = 0,
                  .last_progress = 89999};
  EXPECT_TRUE(check_progress(s).stuck);
  s.held_open = 3599;
  const auto v = check_progress(s);
  EXPECT_FALSE(v.stuck);
  EXPECT_DOUBLE_EQ(v.next_check, 90000 + 3600); // not all finished now: only the idle rule's date
}

TEST(Watchdog, IdleForTheLimitSinceTheFurthestProgressIsStuck) {
  ProgressState s{.now = 100, .limit = 50, .idle = 50, .last_progress = 20};
  auto v = check_progress(s);
  ASSERT_TRUE(v.stuck);
  EXPECT_NE(v.why.find("no further since 20 s"), std::string::npos) << v.why;
  s.idle = 49;
  v = check_progress(s);
  EXPECT_FALSE(v.stuck);
  EXPECT_DOUBLE_EQ(v.next_check, 101); // idle time grows at most as fast as the clock
}

TEST(Watchdog, BusyTimeIsNotIdle) {
  // A million seconds since the last progress, spent computing or with a failed node pending
  // but for 10 s: not stuck, and looked at again when the 40 s left could have passed.
  ProgressState s{.now = 1e6, .limit = 50, .idle = 10, .last_progress = 0};
  auto v = check_progress(s);
  EXPECT_FALSE(v.stuck);
  EXPECT_DOUBLE_EQ(v.next_check, 1e6 + 40);
}

TEST(Watchdog, FailuresFasterThanRecoveriesStopTheRunBusyOrNot) {
  // Failures keep a node down all the time (the run is never idle), the last progress was at 200 s,
  // the failures since then are excused until 500 s (stillness and redo): stuck at 500 + 3600.
  ProgressState s{.now = 4000,
                  .limit = 3600,
                  .idle = 0,
                  .last_progress = 200,
                  .failures_since_progress = 700,
                  .excused_until = 500,
                  .last_failure = 3990};
  auto v = check_progress(s);
  EXPECT_FALSE(v.stuck);
  EXPECT_DOUBLE_EQ(v.next_check, 4100);
  s.now = 4100;
  v = check_progress(s);
  ASSERT_TRUE(v.stuck);
  EXPECT_EQ(v.rule, ProgressVerdict::Rule::NoProgress);
  EXPECT_EQ(v.why.rfind("no progress: failures arrive faster than recoveries end (700 failure(s)", 0), 0) << v.why;
  EXPECT_NE(v.why.find("at 200 s"), std::string::npos) << v.why;
  // The same stall, idle most of the time: the application waits, the failures only interrupt it.
  s.idle = 2000;
  v = check_progress(s);
  ASSERT_TRUE(v.stuck);
  EXPECT_EQ(v.rule, ProgressVerdict::Rule::Idle);
  EXPECT_EQ(v.why.rfind("the application went no further since 200 s, and the run was idle 2000 s of the 3900 s "
                        "(1.083 h) since, while 700 failure(s) struck",
                        0),
            0u)
      << v.why;
  s.idle = 0;
  // The failures stopped over an hour ago: recoveries that end slowly are left to the other rules.
  s.last_failure = 4100 - 3601;
  EXPECT_FALSE(check_progress(s).stuck);
  s.last_failure = 3990;
  // Without a failure since the last progress, a busy run is not stuck (a long step computes).
  s.failures_since_progress = 0;
  v = check_progress(s);
  EXPECT_FALSE(v.stuck);
  EXPECT_DOUBLE_EQ(v.next_check, 4100 + 3600);
}

TEST(Watchdog, InfiniteLimitNeverStops) {
  ProgressState s{.now = 1e9, .limit = INFINITY, .all_finished = true, .held_open = 1e9};
  auto v = check_progress(s);
  EXPECT_FALSE(v.stuck);
  EXPECT_TRUE(std::isinf(v.next_check));
}

TEST(Watchdog, DefaultLimitIsAnHourOrTenTimesAFailuresStillness) {
  EXPECT_DOUBLE_EQ(default_stall_limit(0, 0, 0), 3600);
  EXPECT_DOUBLE_EQ(default_stall_limit(120, 1, 5), 3600);
  EXPECT_DOUBLE_EQ(default_stall_limit(300, 100, 200), 6000);
}
