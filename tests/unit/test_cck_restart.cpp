/* Unit tests of cck::Restart (protocols/cck/restart.hpp), a process' side of the restart, on fake
 * nodes: a survivor's stop, flush, recovery line, all-gather, plan, restart and end; the failed
 * process' reload, overhead, gather and end. The stencil of test_cck_parts.hpp; the test plays
 * the other processes and the coordinator by calling the part with what they would send. */
#include "protocols/cck/task_states.hpp"
#include "tests/unit/test_cck_parts.hpp"

namespace ckptsim {
namespace {

using cck::Msg;
using cck_test::destinations;
using cck_test::kCoordinator;
using State = cck::Restart::State;

const cck::WaveBody& cck_restart_msg(Msg m, std::uint64_t wave, FailureId epoch, std::uint64_t committed = 0,
                                     std::vector<NodeId> victims = {}) {
  static std::vector<ControlMessage> kept; // the bodies outlive the call
  kept.push_back(cck::control(m, wave, epoch, committed, std::move(victims)));
  return cck::wave_body(kept.back());
}

class CckRestartTest : public cck_test::CckPartsTest {
 protected:
  /** The GATHER of failure 1 of P1 that process @p p would send, from its state now against its
   *  initial state (line 0); P1's is that of a restarted process. */
  std::shared_ptr<const cck::GatherBody> gather_of(NodeId p) {
    const auto line = fed.node(p).fresh_app();
    if (p == 1) return cck::restarted_gather(workload.graph(), 1, 1, cck::own_task_states(workload, 1, *line, *line));
    const auto states = cck::own_task_states(workload, p, *line, fed.node(p).app_state());
    return cck::survivor_gather(workload.graph(), p, 1, {1}, states, {});
  }
};

TEST_F(CckRestartTest, ASurvivorFlushesWithTheProcessesItExpectsDataFromButTheFailedOne) {
  cck::Parts p(workload, kCoordinator, false);
  auto& ctx = fed.node(1); // expects cells from P0 and P2; P2 fails
  p.checkpoints.start(ctx);
  ctx.step_under_way = true;
  p.restart.on_failure_detected(ctx, cck_test::notice(1, 2));
  EXPECT_EQ(p.restart.state(), State::Stopping);
  EXPECT_EQ(p.lives.epoch(), 1u);
  EXPECT_TRUE(p.lives.stale(2, 0));
  p.restart.on_stop_ping(ctx, 0, cck_restart_msg(Msg::StopPing, 0, 1)); // not stopped yet: queued
  EXPECT_TRUE(ctx.controls.empty());
  p.restart.on_app_stopped(ctx);
  EXPECT_EQ(p.restart.state(), State::Flushing);
  EXPECT_EQ(p.restart.stop_pinged(), std::vector<NodeId>{0});
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"STOP_PING", "STOP_PONG"}));
  EXPECT_EQ(destinations(ctx), (std::vector<NodeId>{0, 0}));
  p.restart.on_recover(ctx, cck_restart_msg(Msg::Recover, 0, 1, 0, {2}));
  EXPECT_EQ(p.restart.line(), std::optional<std::uint64_t>{0});
  EXPECT_EQ(ctx.controls.size(), 2u); // its STOP_PONG is still to come
  p.restart.on_stop_pong(ctx, cck_restart_msg(Msg::StopPong, 0, 1));
  EXPECT_EQ(p.restart.state(), State::Gathering);
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"STOP_PING", "STOP_PONG", "GATHER"}));
  EXPECT_EQ(ctx.controls.back().to, 0);                                 // P2 gets its GATHER once back
  p.restart.on_stop_ping(ctx, 0, cck_restart_msg(Msg::StopPing, 0, 1)); // flushed: answered at once
  EXPECT_EQ(ctx.controls.back().msg.type, "STOP_PONG");
  p.restart.on_node_back(ctx, cck_test::notice(0, 2)); // an older failure's
  EXPECT_EQ(ctx.controls.size(), 4u);
  p.restart.on_node_back(ctx, cck_test::notice(1, 2));
  EXPECT_EQ(ctx.controls.back().msg.type, "GATHER");
  EXPECT_EQ(ctx.controls.back().to, 2);
}

TEST_F(CckRestartTest, ASurvivorPlansRestartsAndEndsOnceItHasResentWhatItOwes) {
  run_to_the_end();
  forget_history();
  cck::Parts p(workload, kCoordinator, false);
  auto& ctx = fed.node(0);
  p.checkpoints.start(ctx);
  const FailureNotice notice = cck_test::notice(1, 1);
  p.restart.on_failure_detected(ctx, notice);
  EXPECT_EQ(p.restart.state(), State::Flushing); // finished: it expects nothing, nothing to flush
  EXPECT_TRUE(p.restart.stop_pinged().empty());
  EXPECT_EQ(p.restart.line(), std::nullopt);
  EXPECT_TRUE(ctx.controls.empty()); // the line first
  p.restart.on_recover(ctx, cck_restart_msg(Msg::Recover, 0, 1, 0, {1}));
  EXPECT_EQ(p.restart.state(), State::Gathering);
  EXPECT_EQ(destinations(ctx), std::vector<NodeId>{2});
  p.restart.on_node_back(ctx, notice);
  EXPECT_EQ(destinations(ctx), (std::vector<NodeId>{2, 1}));
  p.restart.on_gather(ctx, 2, gather_of(2));
  EXPECT_EQ(p.restart.state(), State::Gathering); // 1 of 2
  p.restart.on_gather(ctx, 1, gather_of(1));
  EXPECT_EQ(p.restart.state(), State::Ready);
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"GATHER", "GATHER", "READY"}));
  EXPECT_EQ(ctx.controls.back().to, kCoordinator);
  EXPECT_EQ(ctx.restores.size(), 1u); // the send of cell 1 to P1 made pending again
  EXPECT_TRUE(ctx.app_paused());
  p.restart.on_restart_order(ctx, cck_restart_msg(Msg::Restart, 0, 0)); // of another execution
  EXPECT_EQ(p.restart.state(), State::Ready);
  p.restart.on_restart_order(ctx, cck_restart_msg(Msg::Restart, 0, 1));
  EXPECT_EQ(p.restart.state(), State::CatchingUp);
  EXPECT_FALSE(ctx.app_paused());
  EXPECT_TRUE(ctx.reported.empty()); // the send is still owed
  p.mailbox.send(ctx, message(tag(1, 1)).first);
  p.restart.check_caught_up(ctx);
  EXPECT_FALSE(p.restart.active());
  EXPECT_EQ(ctx.app_resent.size(), 1u);
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"GATHER", "GATHER", "READY", "DONE"}));
  EXPECT_EQ(ctx.reported, std::vector<FailureId>{1});
  EXPECT_EQ(ctx.events, (std::vector<std::string>{"cck_stop", "cck_plan", "cck_caught_up"}));
}

TEST_F(CckRestartTest, TheFailedProcessReloadsPaysItsOverheadGathersAndKeepsItsPromises) {
  run_to_the_end();
  forget_history();
  test_support::FakeNode ctx(fed.layout(), 1, 1, &fed.stats()); // its new incarnation
  ctx.workload = &workload;
  ctx.app = ctx.fresh_app();
  ctx.clock = 10;
  ctx.overhead = 2;
  cck::Parts p(workload, kCoordinator, false);
  p.restart.on_restart(ctx, cck_test::notice(1, 1));
  EXPECT_EQ(p.restart.state(), State::Loading);
  EXPECT_EQ(p.restart.failed(), (std::vector<NodeId>{1}));
  EXPECT_EQ(p.lives.life(), 1u);
  EXPECT_EQ(ctx.control_names(), std::vector<std::string>{"RESTARTED"});
  EXPECT_EQ(ctx.controls[0].to, kCoordinator);
  // Line 2; wave 3 was aborted (its copy died with the process: nothing to discard).
  p.restart.on_recover(ctx, cck_restart_msg(Msg::Recover, 2, 1, 3, {1}));
  EXPECT_EQ(ctx.loads, std::vector<std::uint64_t>{2});
  EXPECT_TRUE(ctx.discards.empty());
  Snapshot line;
  line.app = ctx.fresh_app();        // nothing of its graph ran before wave 2
  p.restart.on_loaded(ctx, 3, line); // not the line
  EXPECT_TRUE(ctx.restores.empty());
  p.restart.on_loaded(ctx, 2, line);
  ASSERT_EQ(ctx.restores.size(), 1u);
  EXPECT_EQ(ctx.restores[0].reason, "restart from checkpoint 2 (failure 1)");
  EXPECT_EQ(p.checkpoints.numbers(), (std::vector<std::uint64_t>{0, 2}));
  EXPECT_EQ(p.checkpoints.last_saved(), 2u);
  EXPECT_EQ(ctx.timer(cck::Restart::kTimer), 12);
  EXPECT_EQ(ctx.control_names().size(), 1u); // not before its overhead is paid
  p.restart.on_timer(ctx, cck::Restart::kTimer);
  EXPECT_EQ(ctx.restarts_completed, 1);
  EXPECT_EQ(p.restart.state(), State::Gathering);
  EXPECT_EQ(destinations(ctx), (std::vector<NodeId>{kCoordinator, 0, 2}));
  p.restart.on_gather(ctx, 0, gather_of(0));
  p.restart.on_gather(ctx, 2, gather_of(2));
  EXPECT_EQ(p.restart.state(), State::Ready);
  EXPECT_EQ(ctx.promises, (std::vector<std::pair<NodeId, std::uint64_t>>{{0, tag(2, 0)}, {2, tag(3, 2)}}));
  p.restart.on_restart_order(ctx, cck_restart_msg(Msg::Restart, 2, 1));
  p.mailbox.send(ctx, message(tag(2, 0)).first);
  p.restart.check_caught_up(ctx);
  EXPECT_TRUE(p.restart.active()); // cell 3 is still promised
  p.mailbox.send(ctx, message(tag(3, 2)).first);
  p.restart.check_caught_up(ctx);
  EXPECT_FALSE(p.restart.active());
  EXPECT_EQ(ctx.recorded_sends.size(), 2u); // both withheld: P0 and P2 kept their copies
  EXPECT_TRUE(ctx.app_sent.empty());
  EXPECT_EQ(ctx.reported, std::vector<FailureId>{1});
  EXPECT_EQ(ctx.controls.back().msg.type, "DONE");
}

} // namespace
} // namespace ckptsim
