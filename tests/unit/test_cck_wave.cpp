/* Unit tests of cck::WaveParticipant (protocols/cck/wave.hpp), a process' side of the checkpoint
 * wave, on a fake node. Process P1 of the stencil of test_cck_parts.hpp before any progress: it
 * expects data from P0 and P2, so V_1 = {0, 2}. The test plays P0, P2 and the coordinator by
 * calling the part with the messages they would send. */
#include "tests/unit/test_cck_parts.hpp"

namespace ckptsim {
namespace {

using cck::Msg;
using cck_test::CckPartsTest;
using cck_test::destinations;
using cck_test::kCoordinator;
using cck_test::sent_wave_body;
using Phase = cck::WaveParticipant::Phase;

const cck::WaveBody& cck_wave_msg(Msg m, std::uint64_t wave, FailureId epoch = 0, std::uint64_t committed = 0) {
  static std::vector<ControlMessage> kept; // the bodies outlive the call
  kept.push_back(cck::control(m, wave, epoch, committed));
  return cck::wave_body(kept.back());
}

TEST_F(CckPartsTest, AWaveStopsPingsVSavesContinuesAndAcks) {
  cck::Parts p(workload, kCoordinator, false);
  auto& ctx = fed.node(1);
  p.checkpoints.start(ctx);
  p.wave.on_init(ctx, cck_wave_msg(Msg::Init, 1));
  EXPECT_TRUE(ctx.stopped);
  EXPECT_EQ(ctx.events, std::vector<std::string>{"ckpt_begin"});
  EXPECT_EQ(p.wave.phase(), Phase::Flushing);
  EXPECT_EQ(p.wave.pinged(), (std::vector<NodeId>{0, 2}));
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"PING", "PING"}));
  EXPECT_EQ(destinations(ctx), (std::vector<NodeId>{0, 2}));
  p.wave.on_ping(ctx, 0, cck_wave_msg(Msg::Ping, 1)); // stopped for wave 1: answered at once
  EXPECT_EQ(ctx.controls.back().msg.type, "PONG");
  EXPECT_EQ(ctx.controls.back().to, 0);
  p.wave.on_pong(ctx, cck_wave_msg(Msg::Pong, 1));
  EXPECT_TRUE(ctx.saves.empty()); // one PONG of two
  p.wave.on_pong(ctx, cck_wave_msg(Msg::Pong, 1));
  EXPECT_EQ(ctx.saves, std::vector<std::uint64_t>{1});
  EXPECT_EQ(p.checkpoints.last_saved(), 1u);
  EXPECT_EQ(p.wave.phase(), Phase::Saving);
  p.wave.on_saved(ctx, 1);
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"PING", "PING", "PONG", "CONT", "CONT"}));
  EXPECT_EQ(destinations(ctx), (std::vector<NodeId>{0, 2, 0, 0, 2}));
  EXPECT_TRUE(ctx.app_paused()); // P0 PINGed it: its CONT is still to come
  p.wave.on_cont(ctx, cck_wave_msg(Msg::Cont, 1));
  EXPECT_FALSE(ctx.app_paused());
  EXPECT_TRUE(p.wave.idle());
  ASSERT_EQ(ctx.controls.size(), 6u);
  EXPECT_EQ(ctx.controls[5].msg.type, "ACK");
  EXPECT_EQ(ctx.controls[5].to, kCoordinator);
  EXPECT_EQ(sent_wave_body(ctx, 5).wave, 1u);
  EXPECT_EQ(sent_wave_body(ctx, 5).count, 2); // |V_1|
}

TEST_F(CckPartsTest, APingBeforeTheStopIsAnsweredAfterThePings) {
  cck::Parts p(workload, kCoordinator, false);
  auto& ctx = fed.node(1);
  p.checkpoints.start(ctx);
  p.wave.on_ping(ctx, 2, cck_wave_msg(Msg::Ping, 1)); // P2 got INIT first
  EXPECT_TRUE(ctx.controls.empty());
  ctx.step_under_way = true; // the stop waits for the end of a step
  p.wave.on_init(ctx, cck_wave_msg(Msg::Init, 1));
  EXPECT_EQ(p.wave.phase(), Phase::Stopping);
  p.wave.on_ping(ctx, 0, cck_wave_msg(Msg::Ping, 1)); // not stopped yet: queued too
  EXPECT_TRUE(ctx.controls.empty());
  p.wave.on_app_stopped(ctx);
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"PING", "PING", "PONG", "PONG"}));
  EXPECT_EQ(destinations(ctx), (std::vector<NodeId>{0, 2, 2, 0}));
}

TEST_F(CckPartsTest, AWaveMessageOfAnotherExecutionIsIgnored) {
  cck::Parts p(workload, kCoordinator, false);
  auto& ctx = fed.node(1);
  p.checkpoints.start(ctx);
  p.lives.failure(1, {0});
  p.wave.on_init(ctx, cck_wave_msg(Msg::Init, 1, 0)); // before failure 1
  p.wave.on_ping(ctx, 2, cck_wave_msg(Msg::Ping, 1, 0));
  EXPECT_TRUE(p.wave.idle());
  EXPECT_FALSE(ctx.stopped);
  EXPECT_TRUE(ctx.controls.empty());
  ctx.step_under_way = true;
  p.restart.on_failure_detected(ctx, cck_test::notice(2, 0));
  p.wave.on_init(ctx, cck_wave_msg(Msg::Init, 1, 2)); // during the restart of failure 2
  EXPECT_TRUE(p.wave.idle());
  EXPECT_TRUE(ctx.controls.empty());
}

TEST_F(CckPartsTest, AnInitDiscardsTheCopiesOlderThanTheCommittedWave) {
  cck::Parts p(workload, kCoordinator, false);
  auto& ctx = fed.node(1);
  p.checkpoints.start(ctx);
  p.checkpoints.save(ctx, 1);
  p.checkpoints.save(ctx, 2);
  ctx.step_under_way = true;
  p.wave.on_init(ctx, cck_wave_msg(Msg::Init, 3, 0, 2));
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{1});
  EXPECT_EQ(p.checkpoints.numbers(), (std::vector<std::uint64_t>{0, 2}));
  EXPECT_EQ(p.wave.wave(), 3u);
}

TEST_F(CckPartsTest, AnAbortedWaveDiscardsItsSaveNowOrWhenItEnds) {
  cck::Parts p(workload, kCoordinator, false);
  auto& ctx = fed.node(0); // V_0 = {1}
  p.checkpoints.start(ctx);
  p.wave.on_init(ctx, cck_wave_msg(Msg::Init, 1));
  p.wave.on_pong(ctx, cck_wave_msg(Msg::Pong, 1));
  ASSERT_EQ(p.wave.phase(), Phase::Saving);
  p.wave.abort(ctx); // the save is under way: discarded when it ends
  EXPECT_TRUE(ctx.discards.empty());
  p.wave.on_saved(ctx, 1);
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{1});
  EXPECT_EQ(ctx.control_names(), std::vector<std::string>{"PING"}); // no CONT
  p.wave.on_init(ctx, cck_wave_msg(Msg::Init, 2));
  p.wave.on_ping(ctx, 1, cck_wave_msg(Msg::Ping, 2)); // P1 will send CONT
  p.wave.on_pong(ctx, cck_wave_msg(Msg::Pong, 2));
  p.wave.on_saved(ctx, 2);
  ASSERT_EQ(p.wave.phase(), Phase::WaitingCont);
  p.wave.abort(ctx); // saved: discarded now
  EXPECT_EQ(ctx.discards, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_TRUE(p.wave.idle());
  EXPECT_EQ(p.checkpoints.numbers(), std::vector<std::uint64_t>{0});
}

} // namespace
} // namespace ckptsim
