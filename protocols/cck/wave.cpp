#include "protocols/cck/wave.hpp"

#include "protocols/cck/restart.hpp"
#include "protocols/cck/task_states.hpp"

namespace ckptsim::cck {

void WaveParticipant::on_init(NodeContext& ctx, const WaveBody& b) {
  // A wave message of an execution a failure interrupted is dropped (here and below).
  if (b.epoch != lives_.epoch() || restart_.active()) return;
  checkpoints_.keep_from(ctx, b.committed);
  wave_ = b.wave;
  phase_ = Phase::Stopping;
  ctx.trace_event(1, "ckpt_begin", {{"unit", "federation"}, {"number", wave_}});
  if (ctx.stop_app_between_steps()) stopped(ctx);
}

void WaveParticipant::on_app_stopped(NodeContext& ctx) {
  if (phase_ == Phase::Stopping) stopped(ctx);
}

void WaveParticipant::stopped(NodeContext& ctx) {
  const FailureId epoch = lives_.epoch();
  phase_ = Phase::Flushing;
  v_ = senders_still_expected(wl_, ctx.self(), ctx.app_state());
  pongs_ = 0;
  for (NodeId q : v_) ctx.send_control(q, control(Msg::Ping, wave_, epoch));
  for (NodeId q : queued_pings_[wave_]) ctx.send_control(q, control(Msg::Pong, wave_, epoch));
  queued_pings_.erase(wave_);
  if (v_.empty()) save(ctx);
}

void WaveParticipant::on_ping(NodeContext& ctx, NodeId from, const WaveBody& b) {
  if (b.epoch != lives_.epoch()) return;
  pings_[b.wave]++;
  const bool stopped_for_it =
      b.wave < wave_ || (b.wave == wave_ && phase_ != Phase::Stopping && !(phase_ == Phase::Idle && wave_ == 0));
  if (stopped_for_it)
    ctx.send_control(from, control(Msg::Pong, b.wave, lives_.epoch()));
  else
    queued_pings_[b.wave].push_back(from);
}

void WaveParticipant::on_pong(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch == lives_.epoch() && phase_ == Phase::Flushing && b.wave == wave_ && ++pongs_ == v_.size()) save(ctx);
}

void WaveParticipant::on_cont(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch != lives_.epoch()) return;
  conts_[b.wave]++;
  check_cont(ctx);
}

void WaveParticipant::save(NodeContext& ctx) {
  phase_ = Phase::Saving;
  checkpoints_.save(ctx, wave_);
  mailbox_.deliver_held(ctx); // held for this save: they come after it
}

void WaveParticipant::on_saved(NodeContext& ctx, std::uint64_t number) {
  if (aborted_.erase(number)) { // the wave was aborted while its save ran
    checkpoints_.discard(ctx, number);
    return;
  }
  if (phase_ != Phase::Saving || number != wave_) return;
  phase_ = Phase::WaitingCont;
  for (NodeId q : v_) ctx.send_control(q, control(Msg::Cont, wave_, lives_.epoch()));
  check_cont(ctx);
}

void WaveParticipant::check_cont(NodeContext& ctx) {
  if (phase_ != Phase::WaitingCont || conts_[wave_] < pings_[wave_]) return;
  phase_ = Phase::Idle;
  conts_.erase(wave_);
  pings_.erase(wave_);
  ctx.resume_app();
  ctx.send_control(coordinator_, control(Msg::Ack, wave_, lives_.epoch(), 0, static_cast<int>(v_.size())));
}

void WaveParticipant::abort(NodeContext& ctx) {
  if (phase_ == Phase::Saving) aborted_.insert(wave_); // discarded when its transfers end
  if (phase_ == Phase::WaitingCont) checkpoints_.discard(ctx, wave_);
  phase_ = Phase::Idle;
  queued_pings_.clear();
  pings_.clear();
  conts_.clear();
}

} // namespace ckptsim::cck
