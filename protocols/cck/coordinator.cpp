#include "protocols/cck/coordinator.hpp"

#include "protocols/cck/messages.hpp"
#include "protocols/common/period_timer.hpp"

#include <algorithm>
#include <string>

namespace ckptsim::cck {

namespace {
constexpr PeriodTimer kWaveTimer{1, "checkpoint_period"};
constexpr Msg kWaveMsgs[] = {Msg::Init, Msg::Ping, Msg::Pong, Msg::Cont, Msg::Ack};
} // namespace

void Coordinator::on_start(NodeContext& ctx) { schedule(ctx); }

void Coordinator::schedule(NodeContext& ctx) { kWaveTimer.arm(ctx); }

void Coordinator::on_timer(NodeContext& ctx, int id) {
  if (kWaveTimer.is(id) && wave_ == 0 && !restarting_) start_wave(ctx);
}

double Coordinator::wave_messages(NodeContext& ctx) const {
  // Waves never overlap a restart (a failure aborts the wave), so the counters' growth between
  // INIT and the last ACK is this wave's traffic: measured, not derived from the formula.
  double n = 0;
  for (Msg m : kWaveMsgs) n += ctx.stats().get(std::string("ctrl.") + msg_name(m));
  return n;
}

void Coordinator::start_wave(NodeContext& ctx) {
  wave_ = next_wave_++;
  acks_ = 0;
  sum_v_ = 0;
  wave_start_ = ctx.now();
  messages_at_start_ = wave_messages(ctx);
  ctx.stats().add("cck.waves_started");
  for (NodeId p = 0; p < ctx.layout().num_nodes(); p++)
    ctx.send_control(p, control(Msg::Init, wave_, epoch_, committed_));
}

void Coordinator::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const WaveBody& b = wave_body(msg);
  const int n = ctx.layout().num_nodes();
  switch (control_kind<Msg>(msg)) {
  case Msg::Restarted: // may come before the detector's notice
    failure(ctx, b.epoch, b.victims);
    ctx.send_control(from, control(Msg::Recover, committed_, epoch_, aborted_, victims_));
    return;
  case Msg::Ready:
    if (!restarting_ || b.epoch != epoch_ || ++ready_ < n) return;
    ready_ = 0;
    ctx.trace_event(1, "cck_restart", {{"failure", epoch_}});
    for (NodeId p = 0; p < n; p++) ctx.send_control(p, control(Msg::Restart, committed_, epoch_));
    return;
  case Msg::Done:
    if (!restarting_ || b.epoch != epoch_ || ++done_ < n) return;
    restarting_ = false;
    schedule(ctx); // the period counts from the end of the restart
    return;
  case Msg::Ack:
    if (b.wave != wave_ || b.epoch != epoch_) return; // an ACK of an aborted wave
    sum_v_ += b.count;
    if (++acks_ == n) commit(ctx);
    return;
  case Msg::Init:
  case Msg::Ping:
  case Msg::Pong:
  case Msg::Cont:
  case Msg::Recover:
  case Msg::StopPing:
  case Msg::StopPong:
  case Msg::Gather:
  case Msg::Restart:
    break; // the processes' messages
  }
  unexpected_control("cck", msg);
}

void Coordinator::commit(NodeContext& ctx) {
  committed_ = wave_;
  wave_ = 0;
  // The coordination time of the thesis (5.3.1) runs from the first stop to the last restart of a
  // thread: here from INIT to the last ACK, which each process sends when it resumes.
  const double duration = ctx.now() - wave_start_;
  const double messages = wave_messages(ctx) - messages_at_start_;
  Stats& st = ctx.stats();
  st.add("cck.waves_committed");
  st.add("cck.coordination_time", duration);
  st.record("cck.waves", {{"wave", committed_},
                          {"start", wave_start_},
                          {"commit", ctx.now()},
                          {"duration", duration},
                          {"messages", messages},
                          {"sum_v", sum_v_}});
  ctx.trace_event(0, "ckpt_commit",
                  {{"unit", "federation"},
                   {"number", committed_},
                   {"forced", false},
                   {"duration", duration},
                   {"messages", messages},
                   {"sum_v", sum_v_}});
  schedule(ctx);
}

void Coordinator::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  failure(ctx, notice.id, notice.victims);
}

void Coordinator::failure(NodeContext& ctx, FailureId id, const std::vector<NodeId>& victims) {
  if (id <= epoch_) return; // already handled (the notice and the victims' RESTARTED all tell of it)
  epoch_ = id;
  victims_ = victims;
  restarting_ = true;
  ready_ = 0;
  done_ = 0;
  kWaveTimer.cancel(ctx);
  aborted_ = wave_;
  if (wave_ != 0) { // the wave under way is not a recovery line
    ctx.stats().add("cck.waves_aborted");
    ctx.trace_event(0, "ckpt_abort", {{"unit", "federation"}, {"number", wave_}, {"failure", id}});
    wave_ = 0;
  }
  ctx.trace_event(1, "rollback_order", {{"wave", committed_}, {"failure", id}});
  for (NodeId p = 0; p < ctx.layout().num_nodes(); p++)
    if (!std::binary_search(victims_.begin(), victims_.end(), p))
      ctx.send_control(p, control(Msg::Recover, committed_, epoch_, aborted_, victims_));
}

} // namespace ckptsim::cck
