/* The timers several protocols share (protocols/common/): the restart overhead of a restarted
 * process (RestartDelay) and the timers that fire a period after they are armed (PeriodTimer),
 * against a fake node that records the timers set and the restarts reported. */
#include "protocols/common/period_timer.hpp"
#include "protocols/common/restart_delay.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <string>

namespace ckptsim {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

/** A node at date now_ whose timer file is periods_: records its timers and its restarts; any
 *  other call is a test error (abort). */
class FakeTimerNode : public NodeContext {
 public:
  double now_ = 0;
  double overhead_ = 0;
  std::map<std::string, double> periods_;
  std::map<int, double> timers_; // pending: id -> date
  int restarts_ = 0;
  std::function<void()> on_restart_complete_; // what the engine would read then

  double now() const override { return now_; }
  void set_timer(int id, double date) override { timers_[id] = date; }
  void cancel_timer(int id) override { timers_.erase(id); }
  double timer_period(const std::string& name) const override {
    auto it = periods_.find(name);
    return it == periods_.end() ? kNever : it->second;
  }
  double restart_overhead() const override { return overhead_; }
  void restart_complete() override {
    restarts_++;
    if (on_restart_complete_) on_restart_complete_();
  }

  [[noreturn]] static void unused() { std::abort(); }
  NodeId self() const override { unused(); }
  ClusterId cluster() const override { unused(); }
  Incarnation incarnation() const override { unused(); }
  const FederationLayout& layout() const override { unused(); }
  void send_app(const AppMessage&, PayloadPtr) override { unused(); }
  void resend_app(const AppMessage&, PayloadPtr) override { unused(); }
  void deliver(const AppMessage&, const PayloadPtr&) override { unused(); }
  void redeliver(const AppMessage&) override { unused(); }
  void record_send(const AppMessage&) override { unused(); }
  void promise_send(NodeId, std::uint64_t) override { unused(); }
  void pause_app() override { unused(); }
  void resume_app() override { unused(); }
  bool stop_app_between_steps() override { unused(); }
  const AppState& app_state() const override { unused(); }
  bool app_finished() const override { unused(); }
  void send_control(NodeId, ControlMessage) override { unused(); }
  Snapshot snapshot(std::any) override { unused(); }
  Snapshot initial_snapshot() override { unused(); }
  void restore(const Snapshot&, const std::string&) override { unused(); }
  void save_checkpoint(std::uint64_t, Snapshot) override { unused(); }
  void load_checkpoint(std::uint64_t) override { unused(); }
  void replicate_checkpoint(std::uint64_t) override { unused(); }
  std::optional<std::uint64_t> recovery_line(const std::vector<std::uint64_t>&) override { unused(); }
  void discard_checkpoint(std::uint64_t) override { unused(); }
  double checkpoint_bytes() const override { unused(); }
  void recovered(FailureId) override { unused(); }
  Stats& stats() override { unused(); }
  void trace_event(int, const char*, nlohmann::ordered_json) override { unused(); }
};

TEST(CommonRestartDelay, TheOverheadRunsFromTheRestore) {
  FakeTimerNode node;
  node.now_ = 100;
  node.overhead_ = 7.5;
  RestartDelay delay(4);
  EXPECT_FALSE(delay.restarting()) << "a process that never failed";
  delay.begin();
  EXPECT_TRUE(delay.restarting());
  EXPECT_TRUE(node.timers_.empty()) << "nothing is paid before the state is back";
  node.now_ = 130; // the checkpoint is loaded
  delay.pay(node);
  ASSERT_EQ(node.timers_.size(), 1u);
  EXPECT_EQ(node.timers_.at(4), 137.5);
  EXPECT_TRUE(delay.restarting());
  EXPECT_EQ(node.restarts_, 0);
}

TEST(CommonRestartDelay, ItsTimerEndsItOnceAndTheFlagIsDownWhenTheEngineIsTold) {
  FakeTimerNode node;
  RestartDelay delay(4);
  delay.begin();
  delay.pay(node);
  EXPECT_FALSE(delay.end(node, 3)) << "another timer of the protocol";
  EXPECT_TRUE(delay.restarting());
  EXPECT_EQ(node.restarts_, 0);
  bool restarting_when_told = true;
  node.on_restart_complete_ = [&] { restarting_when_told = delay.restarting(); };
  EXPECT_TRUE(delay.end(node, 4));
  EXPECT_EQ(node.restarts_, 1);
  EXPECT_FALSE(restarting_when_told) << "the engine reads Agent::recovering at restart_complete";
  EXPECT_FALSE(delay.restarting());
  EXPECT_FALSE(delay.end(node, 4)) << "a second firing is not a second restart";
  EXPECT_EQ(node.restarts_, 1);
}

TEST(CommonRestartDelay, ATimerOfAProcessThatIsNotRestartingIsNotARestart) {
  FakeTimerNode node;
  RestartDelay delay(1);
  EXPECT_FALSE(delay.end(node, 1));
  EXPECT_EQ(node.restarts_, 0);
}

constexpr PeriodTimer kGc{2, "gc_period"};

TEST(CommonPeriodTimer, FiresAPeriodAfterItIsArmed) {
  FakeTimerNode node;
  node.periods_ = {{"gc_period", 50}, {"checkpoint_period", 20}};
  node.now_ = 10;
  EXPECT_EQ(kGc.period(node), 50);
  kGc.arm(node);
  ASSERT_EQ(node.timers_.size(), 1u);
  EXPECT_EQ(node.timers_.at(2), 60);
  node.now_ = 25;
  kGc.arm(node); // armed again: the date moves
  EXPECT_EQ(node.timers_.at(2), 75);
  EXPECT_TRUE(kGc.is(2));
  EXPECT_FALSE(kGc.is(1));
  kGc.cancel(node);
  EXPECT_TRUE(node.timers_.empty());
}

TEST(CommonPeriodTimer, ATimerTheFileDoesNotGiveNeverFires) {
  FakeTimerNode node;
  node.periods_ = {{"checkpoint_period", 20}};
  EXPECT_EQ(kGc.period(node), kNever);
  node.timers_[2] = 40; // a date set before: dropped, not left to fire
  kGc.arm(node);
  EXPECT_TRUE(node.timers_.empty());
}

TEST(CommonPeriodTimer, AFirstDelayStandsForAPhase) {
  FakeTimerNode node;
  node.now_ = 100;
  kGc.arm_in(node, 12.5);
  EXPECT_EQ(node.timers_.at(2), 112.5);
  kGc.arm_in(node, kNever);
  EXPECT_TRUE(node.timers_.empty());
}

} // namespace
} // namespace ckptsim
