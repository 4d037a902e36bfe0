/* The application executor (sim/node/app_executor.hpp) without SimGrid, on a workload of fixed
 * steps: the work clock at the process' share of the speed, pauses, stops between steps, the
 * order of a step's actions, waiting for a message, restores and the lost work. */
#include "sim/node/app_executor.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace ckptsim;

namespace {
// A message of the fields these tests set (a designated initializer would leave the others to
// -Wmissing-field-initializers).
AppMessage message(NodeId src, NodeId dst, std::uint64_t seq = 0, double size = 0, bool awaited = false) {
  AppMessage m;
  m.src = src;
  m.dst = dst;
  m.seq = seq;
  m.size = size;
  m.awaited = awaited;
  return m;
}

// Process 0 computes the steps' work in turn; before step `wait_at` it waits for one message;
// it sends one message to process 1 with its first step; each step is an "iteration" point.
struct StepsState : AppState {
  std::size_t step = 0;
  int completed = 0;
  std::unique_ptr<AppState> clone() const override { return std::make_unique<StepsState>(*this); }
};

class StepsWorkload : public Workload {
 public:
  StepsWorkload(std::vector<double> steps, std::size_t wait_at)
      : steps_(std::move(steps))
      , wait_at_(wait_at) {}
  AppStateValue initial_state(NodeId, std::uint64_t) const override {
    return AppStateValue(std::make_unique<StepsState>());
  }
  std::optional<double> advance(AppState& state, NodeId self, std::vector<AppMessage>& sends) const override {
    auto& s = static_cast<StepsState&>(state);
    if (s.step == steps_.size()) {
      s.finished = true;
      return std::nullopt;
    }
    if (s.step == wait_at_ && s.delivered == 0) return std::nullopt;
    if (s.step == 0) sends.push_back(message(self, 1, s.next_seq++, 8));
    return steps_[s.step++];
  }
  void complete_step(AppState& state, NodeId) const override { static_cast<StepsState&>(state).completed++; }
  std::optional<AppPoint> next_point(const AppState& state, NodeId) const override {
    return AppPoint{"iteration", static_cast<const StepsState&>(state).step + 1};
  }
  double failure_free_work(NodeId) const override { return 0; }

 private:
  std::vector<double> steps_;
  std::size_t wait_at_;
};

const StepsState& steps_state(const AppExecutor& app) { return static_cast<const StepsState&>(*app.state()); }

// Speed 2 (work per second), alone on its host.
AppExecutor executor(const Workload& w) { return AppExecutor(w, 0, w.initial_state(0, 1), 2.0, 1); }
} // namespace

TEST(AppExecutor, TheWorkClockRunsAtTheProcessShareOfTheSpeed) {
  StepsWorkload w({10.0}, 99);
  AppExecutor app = executor(w);
  std::vector<AppMessage> sends;
  ASSERT_TRUE(app.start_step(0.0, sends));
  ASSERT_EQ(sends.size(), 1u);
  EXPECT_EQ(sends[0].dst, 1);
  EXPECT_DOUBLE_EQ(app.compute_end(), 5.0);
  EXPECT_DOUBLE_EQ(app.work_done(2.0), 4.0);
  app.set_share(2, 2.0); // a second process lands on the host at date 2
  EXPECT_DOUBLE_EQ(app.state()->work_done, 4.0);
  EXPECT_DOUBLE_EQ(app.compute_end(), 8.0);
  EXPECT_DOUBLE_EQ(app.work_done(5.0), 7.0);
  EXPECT_FALSE(app.step_due(7.9));
  EXPECT_TRUE(app.step_due(8.0 - 1e-10)); // within the clock's rounding
  app.finish_step(8.0 - 1e-10);
  EXPECT_DOUBLE_EQ(app.state()->work_done, 10.0); // what rounding left of the step counts
  EXPECT_EQ(steps_state(app).completed, 1);
  EXPECT_FALSE(app.computing());
  EXPECT_TRUE(std::isinf(app.compute_end()));
}

TEST(AppExecutor, APauseStopsTheWorkClock) {
  StepsWorkload w({10.0}, 99);
  AppExecutor app = executor(w);
  std::vector<AppMessage> sends;
  app.start_step(0.0, sends);
  app.pause(1.0);
  EXPECT_TRUE(app.paused());
  EXPECT_TRUE(std::isinf(app.compute_end()));
  EXPECT_DOUBLE_EQ(app.work_done(9.0), 2.0);
  EXPECT_FALSE(app.step_due(100.0));
  app.resume(10.0);
  EXPECT_DOUBLE_EQ(app.compute_end(), 14.0);
}

TEST(AppExecutor, AStopBetweenStepsWaitsForTheStepUnderWay) {
  StepsWorkload w({4.0, 4.0}, 99);
  AppExecutor app = executor(w);
  EXPECT_TRUE(app.stop_between_steps(0.0)); // no step under way: stopped at once
  EXPECT_TRUE(app.paused());
  EXPECT_FALSE(app.stopped_at_step_end(0.0)); // nothing to report: it was stopped at once
  app.resume(0.0);
  std::vector<AppMessage> sends;
  app.start_step(0.0, sends);
  EXPECT_FALSE(app.stop_between_steps(1.0));
  EXPECT_FALSE(app.paused());
  EXPECT_FALSE(app.stopped_at_step_end(1.5)); // the step still runs
  app.finish_step(2.0);
  EXPECT_TRUE(app.stopped_at_step_end(2.0));
  EXPECT_TRUE(app.paused());
  EXPECT_FALSE(app.stopped_at_step_end(2.0)); // once
  EXPECT_FALSE(app.runnable());
}

TEST(AppExecutor, StepsAnnounceTheirPointOnceWaitForMessagesAndFinish) {
  StepsWorkload w({2.0, 2.0}, 1); // waits for a message before its second step
  AppExecutor app = executor(w);
  ASSERT_TRUE(app.runnable());
  auto point = app.take_point();
  ASSERT_TRUE(point.has_value());
  EXPECT_EQ(point->number, 1u);
  EXPECT_FALSE(app.take_point().has_value()); // announced already
  std::vector<AppMessage> sends;
  EXPECT_TRUE(app.start_step(0.0, sends));
  app.finish_step(1.0);
  EXPECT_EQ(app.take_point()->number, 2u);
  EXPECT_FALSE(app.start_step(1.0, sends)); // the message has not come
  EXPECT_FALSE(app.runnable());
  EXPECT_FALSE(app.finished());
  app.deliver(message(1, 0));
  EXPECT_TRUE(app.runnable());
  EXPECT_TRUE(app.start_step(3.0, sends));
  app.finish_step(4.0);
  EXPECT_FALSE(app.finished_change().has_value());
  app.take_point();
  EXPECT_FALSE(app.start_step(4.0, sends));
  EXPECT_TRUE(app.finished());
  EXPECT_EQ(app.finished_change(), std::optional<bool>(true));
  EXPECT_FALSE(app.finished_change().has_value()); // reported once
  EXPECT_DOUBLE_EQ(app.work_done(9.0), 4.0);
}

TEST(AppExecutor, ARestoreCountsTheWorkLostSinceTheStateOrSinceTheDeath) {
  StepsWorkload w({10.0, 10.0}, 99);
  AppExecutor app = executor(w);
  std::vector<AppMessage> sends;
  app.start_step(0.0, sends);
  const AppStateValue checkpoint = app.state(); // at date 0, 0 work done, the step under way
  app.finish_step(5.0);
  app.start_step(5.0, sends);
  EXPECT_DOUBLE_EQ(app.restore(checkpoint, 7.0), 14.0); // 10 + 4 of the second step
  EXPECT_TRUE(app.computing());                         // the checkpoint's step resumes where it stood
  EXPECT_DOUBLE_EQ(app.compute_end(), 12.0);

  AppExecutor fresh = executor(w); // a restarted process, which had done 13 when it died
  fresh.restarted(13.0);
  EXPECT_TRUE(fresh.paused());
  EXPECT_FALSE(fresh.runnable());
  EXPECT_DOUBLE_EQ(fresh.restore(checkpoint, 20.0), 13.0);
  EXPECT_DOUBLE_EQ(fresh.restore(checkpoint, 21.0), 0.0); // from its own state from now on
}

TEST(AppExecutor, AServiceRunsNoApplication) {
  StepsWorkload w({1.0}, 99);
  AppExecutor service(w, 3, AppStateValue{}, 1.0, 1);
  EXPECT_FALSE(service.runnable());
  EXPECT_FALSE(service.finished());
  EXPECT_DOUBLE_EQ(service.work_done(5.0), 0.0);
  EXPECT_FALSE(service.finished_change().has_value());
  EXPECT_TRUE(std::isinf(service.compute_end()));
}

TEST(AppExecutor, HeldMessagesKeepTheProcessUnfinishedAndLeaveInOrder) {
  // Rendezvous kinds: a process whose program ended still has messages to send; the executor
  // releases those a receiver posted for, the others keep their order.
  StepsWorkload w({}, 99);
  AppExecutor app = executor(w);
  std::vector<AppMessage> sends;
  EXPECT_FALSE(app.start_step(0.0, sends)); // nothing to compute: the program is over
  for (std::uint64_t seq : {0u, 1u, 2u})
    app.hold(message(0, 1 + static_cast<NodeId>(seq), seq));
  EXPECT_TRUE(app.holding());
  EXPECT_FALSE(app.finished());
  EXPECT_EQ(app.finished_change(), std::nullopt);
  std::vector<AppMessage> out;
  app.take_releasable([](const AppMessage& m) { return m.seq != 1; }, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].seq, 0u);
  EXPECT_EQ(out[1].seq, 2u);
  EXPECT_FALSE(app.finished());
  out.clear();
  app.take_releasable([](const AppMessage&) { return true; }, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(app.finished());
  EXPECT_EQ(app.finished_change(), std::optional<bool>(true));
}

TEST(AppExecutor, AnAwaitedSendEndsItsWaitAndARestoreForgetsTransfersUnderWay) {
  StepsWorkload w({1.0}, 99);
  AppExecutor app = executor(w);
  AppStateValue saved = app.state();
  saved->unfinished = {4, 7}; // 4 under way, 7 still held when saved
  saved->held.push_back(message(0, 1, 7, 0, true));
  app.restore(saved, 0.0);
  EXPECT_EQ(app.state()->unfinished, (std::vector<std::uint64_t>{7})); // 4's end would never be seen again
  app.send_done(3);                                                    // not awaited: nothing
  EXPECT_EQ(app.state()->unfinished.size(), 1u);
  app.send_done(7);
  EXPECT_TRUE(app.state()->unfinished.empty());
}
