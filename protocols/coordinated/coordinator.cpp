#include "protocols/coordinated/coordinator.hpp"

#include "protocols/coordinated/messages.hpp"

#include <cmath>

namespace ckptsim::coordinated {

namespace {
constexpr int kWaveTimer = 1;
} // namespace

void Coordinator::on_start(NodeContext& ctx) {
  period_ = ctx.timer_period("checkpoint_period");
  schedule(ctx);
}

void Coordinator::schedule(NodeContext& ctx) {
  if (std::isfinite(period_)) ctx.set_timer(kWaveTimer, ctx.now() + period_);
}

void Coordinator::on_timer(NodeContext& ctx, int id) {
  if (id == kWaveTimer && wave_ == 0 && recovering_.empty()) start_wave(ctx);
}

void Coordinator::start_wave(NodeContext& ctx) {
  wave_ = next_wave_++;
  acks_ = 0;
  wave_start_ = ctx.now();
  ctx.stats().add("coordinated.waves_started");
  for (NodeId p = 0; p < ctx.layout().num_nodes(); p++) ctx.send_control(p, control("INIT", wave_, epoch_));
}

void Coordinator::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const WaveBody& b = body(msg);
  if (msg.type == "RESTARTED") {
    failure(ctx, b.epoch, from);
    down_.erase(from);
    ctx.send_control(from, control("ROLLBACK", committed_, epoch_));
    return;
  }
  if (msg.type != "ACK" || b.wave != wave_ || b.epoch != epoch_) return; // an ACK of an aborted wave
  if (++acks_ < ctx.layout().num_nodes()) return;
  committed_ = wave_;
  wave_ = 0;
  const double duration = ctx.now() - wave_start_;
  Stats& st = ctx.stats();
  st.add("coordinated.waves_committed");
  st.add("coordinated.checkpoint_time", duration);
  st.record("coordinated.waves",
            {{"wave", committed_}, {"start", wave_start_}, {"commit", ctx.now()}, {"duration", duration}});
  ctx.trace_event(0, "ckpt_commit",
                  {{"unit", "federation"}, {"number", committed_}, {"forced", false}, {"duration", duration}});
  for (NodeId p = 0; p < ctx.layout().num_nodes(); p++) ctx.send_control(p, control("CONT", committed_, epoch_));
  schedule(ctx);
}

void Coordinator::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  failure(ctx, notice.id, notice.victim);
}

void Coordinator::failure(NodeContext& ctx, FailureId id, NodeId victim) {
  if (id <= epoch_) return; // already handled (the notice and the victim's RESTARTED both tell of it)
  epoch_ = id;
  recovering_.insert(id);
  down_.insert(victim);
  ctx.cancel_timer(kWaveTimer);
  if (wave_ != 0) { // a failure during a wave aborts it: the previous wave is the recovery line
    ctx.stats().add("coordinated.waves_aborted");
    ctx.trace_event(0, "ckpt_abort", {{"unit", "federation"}, {"number", wave_}, {"failure", id}});
    wave_ = 0;
  }
  if (!choose_line(ctx)) return; // no wave survives: the run ended as unrecoverable
  ctx.trace_event(1, "rollback_order", {{"wave", committed_}, {"failure", id}});
  for (NodeId p = 0; p < ctx.layout().num_nodes(); p++)
    if (!down_.count(p)) ctx.send_control(p, control("ROLLBACK", committed_, epoch_));
}

void Coordinator::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  recovering_.erase(notice.id);
  if (recovering_.empty() && wave_ == 0) schedule(ctx); // the period counts from the restart of the computation
}

} // namespace ckptsim::coordinated
