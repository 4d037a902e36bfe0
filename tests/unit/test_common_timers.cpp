/* The timers several protocols share (protocols/common/): the restart overhead of a restarted
 * process (RestartDelay) and the timers that fire a period after they are armed (PeriodTimer),
 * against a fake node that records the timers set and the restarts reported. */
#include "protocols/common/period_timer.hpp"
#include "protocols/common/restart_delay.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace ckptsim {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

/** A fake node of a one-node federation (tests/support/fake_node.hpp): its clock, timers,
 *  timer file and restart reports are what these tests read and set. */
struct FakeTimerNode : test_support::FakeNode {
  FakeTimerNode()
      : FakeNode(one_node(), 0) {}
  static const FederationLayout& one_node() {
    static const FederationLayout layout = test_support::layout_of(1);
    return layout;
  }
};

TEST(CommonRestartDelay, TheOverheadRunsFromTheRestore) {
  FakeTimerNode node;
  node.clock = 100;
  node.overhead = 7.5;
  RestartDelay delay(4);
  EXPECT_FALSE(delay.restarting()) << "a process that never failed";
  delay.begin();
  EXPECT_TRUE(delay.restarting());
  EXPECT_TRUE(node.timers.empty()) << "nothing is paid before the state is back";
  node.clock = 130; // the checkpoint is loaded
  delay.pay(node);
  ASSERT_EQ(node.timers.size(), 1u);
  EXPECT_EQ(node.timers.at(4), 137.5);
  EXPECT_TRUE(delay.restarting());
  EXPECT_EQ(node.restarts_completed, 0);
}

TEST(CommonRestartDelay, ItsTimerEndsItOnceAndTheFlagIsDownWhenTheEngineIsTold) {
  FakeTimerNode node;
  RestartDelay delay(4);
  delay.begin();
  delay.pay(node);
  EXPECT_FALSE(delay.end(node, 3)) << "another timer of the protocol";
  EXPECT_TRUE(delay.restarting());
  EXPECT_EQ(node.restarts_completed, 0);
  bool restarting_when_told = true;
  node.on_restart_complete = [&] { restarting_when_told = delay.restarting(); };
  EXPECT_TRUE(delay.end(node, 4));
  EXPECT_EQ(node.restarts_completed, 1);
  EXPECT_FALSE(restarting_when_told) << "the engine reads Agent::recovering at restart_complete";
  EXPECT_FALSE(delay.restarting());
  EXPECT_FALSE(delay.end(node, 4)) << "a second firing is not a second restart";
  EXPECT_EQ(node.restarts_completed, 1);
}

TEST(CommonRestartDelay, ATimerOfAProcessThatIsNotRestartingIsNotARestart) {
  FakeTimerNode node;
  RestartDelay delay(1);
  EXPECT_FALSE(delay.end(node, 1));
  EXPECT_EQ(node.restarts_completed, 0);
}

constexpr PeriodTimer kGc{2, "gc_period"};

TEST(CommonPeriodTimer, FiresAPeriodAfterItIsArmed) {
  FakeTimerNode node;
  node.periods = {{"gc_period", 50}, {"checkpoint_period", 20}};
  node.clock = 10;
  EXPECT_EQ(kGc.period(node), 50);
  kGc.arm(node);
  ASSERT_EQ(node.timers.size(), 1u);
  EXPECT_EQ(node.timers.at(2), 60);
  node.clock = 25;
  kGc.arm(node); // armed again: the date moves
  EXPECT_EQ(node.timers.at(2), 75);
  EXPECT_TRUE(kGc.is(2));
  EXPECT_FALSE(kGc.is(1));
  kGc.cancel(node);
  EXPECT_TRUE(node.timers.empty());
}

TEST(CommonPeriodTimer, ATimerTheFileDoesNotGiveNeverFires) {
  FakeTimerNode node;
  node.periods = {{"checkpoint_period", 20}};
  EXPECT_EQ(kGc.period(node), kNever);
  node.timers[2] = 40; // a date set before: dropped, not left to fire
  kGc.arm(node);
  EXPECT_TRUE(node.timers.empty());
}

TEST(CommonPeriodTimer, AFirstDelayStandsForAPhase) {
  FakeTimerNode node;
  node.clock = 100;
  kGc.arm_in(node, 12.5);
  EXPECT_EQ(node.timers.at(2), 112.5);
  kGc.arm_in(node, kNever);
  EXPECT_TRUE(node.timers.empty());
}

} // namespace
} // namespace ckptsim
