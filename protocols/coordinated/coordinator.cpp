#include "protocols/coordinated/coordinator.hpp"

#include "protocols/coordinated/messages.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ckptsim::coordinated {

namespace {
constexpr int kWaveTimer = 1;
} // namespace

void Coordinator::on_start(NodeContext& ctx) {
  period_ = ctx.timer_period("checkpoint_period");
  clock_.emplace(trigger_, period_);
  schedule(ctx);
}

void Coordinator::schedule(NodeContext& ctx) {
  if (!clock_->periodic()) return;
  ctx.set_timer(kWaveTimer, clock_->next());
  timer_armed_ = true;
}

void Coordinator::on_timer(NodeContext& ctx, int id) {
  if (id != kWaveTimer) return;
  timer_armed_ = false;
  periodic_timer(ctx);
}

void Coordinator::periodic_timer(NodeContext& ctx) {
  if (!recovering_.empty()) return; // the period starts again when the failed process is back
  if (wave_ != 0 || !clock_->periodic_due(ctx.now())) {
    // cr_ckpt_time finds that cr_ckpt_coll took a checkpoint since the timer was set (or is
    // taking one): skipped; the timer goes to the date that checkpoint set (at its commit).
    ctx.stats().add("coordinated.periodic_skipped");
    ctx.trace_event(1, "ckpt_skip",
                    {{"next", wave_ != 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(clock_->next())}});
    if (wave_ == 0) schedule(ctx);
    return;
  }
  start_wave(ctx, "periodic");
}

void Coordinator::collective_request(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const auto& b = static_cast<const PointBody&>(*msg.body);
  const bool take = wave_ == 0 && recovering_.empty() && b.epoch == epoch_ && clock_->collective_due(ctx.now());
  const std::string point = fmt::format("{} {}", b.kind, b.wave);
  if (take) {
    start_wave(ctx, "collective", point);
  } else {
    ctx.stats().add("coordinated.requests_declined");
    ctx.trace_event(2, "ckpt_declined", {{"point", point}, {"from", from}});
  }
  // The root waits at its collective for the answer (after INIT when a wave started: FIFO).
  ctx.send_control(from, point_control(Msg::CkptDecision, b.kind, b.wave, b.epoch));
}

void Coordinator::start_wave(NodeContext& ctx, const char* trigger, const std::string& point) {
  wave_ = next_wave_++;
  acks_ = 0;
  wave_start_ = ctx.now();
  ctx.stats().add("coordinated.waves_started");
  if (clock_->collective()) { // which rule started it (the periodic policy has only one)
    ctx.stats().add(std::string("coordinated.waves_") + trigger);
    nlohmann::ordered_json j{{"number", wave_}, {"trigger", trigger}};
    if (!point.empty()) j["point"] = point;
    ctx.trace_event(1, "ckpt_trigger", j);
  }
  for (NodeId p = 0; p < ctx.layout().num_nodes(); p++) ctx.send_control(p, control(Msg::Init, wave_, epoch_));
}

void Coordinator::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  switch (control_kind<Msg>(msg)) {
  case Msg::CkptRequest:
    return collective_request(ctx, from, msg);
  case Msg::Restarted:
    return restarted(ctx, from, body(msg));
  case Msg::Ack:
    return ack(ctx, body(msg));
  case Msg::Init:
  case Msg::Flush:
  case Msg::Cont:
  case Msg::Rollback:
  case Msg::CkptDecision:
    break; // the participants' messages
  }
  unexpected_control("coordinated", msg);
}

void Coordinator::restarted(NodeContext& ctx, NodeId from, const WaveBody& b) {
  const FailureId epoch = b.epoch;
  // Heard of first from a victim: the ROLLBACK below is its own.
  failure(ctx, epoch, b.victims.empty() ? std::vector<NodeId>{from} : b.victims);
  auto& newest = restarted_[from];
  newest = std::max(newest, epoch);
  down_.erase(from);
  ctx.send_control(from, control(Msg::Rollback, committed_, epoch_));
}

void Coordinator::ack(NodeContext& ctx, const WaveBody& b) {
  if (b.wave != wave_ || b.epoch != epoch_) return; // an ACK of an aborted wave
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
  for (NodeId p = 0; p < ctx.layout().num_nodes(); p++) ctx.send_control(p, control(Msg::Cont, committed_, epoch_));
  clock_->committed(ctx.now(), duration);
  // A wave the timer started re-arms it; after a collective's wave the timer keeps its date, and
  // fires then only to find the checkpoint taken (the paper's skip).
  if (!timer_armed_) schedule(ctx);
}

void Coordinator::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  failure(ctx, notice.id, notice.victims);
}

void Coordinator::failure(NodeContext& ctx, FailureId id, const std::vector<NodeId>& victims) {
  if (!seen_.insert(id).second) return; // the notice and the victims' RESTARTED all tell of it
  recovering_.insert(id);               // no wave before its victims are back, whatever the order
  // Down until it says RESTARTED, unless it already did for this failure or a newer one (the
  // notice of an older failure of the same node may come after its newer incarnation's word).
  for (NodeId victim : victims)
    if (auto r = restarted_.find(victim); r == restarted_.end() || r->second < id) down_.insert(victim);
  // Failures at one date may be told in any order: the rollback ordered for a newer one covers
  // an older one heard of later (the line was chosen with its victim's memory already gone).
  if (id <= epoch_) return;
  epoch_ = id;
  ctx.cancel_timer(kWaveTimer);
  timer_armed_ = false;
  if (wave_ != 0) { // a failure during a wave aborts it: the previous wave is the recovery line
    ctx.stats().add("coordinated.waves_aborted");
    ctx.trace_event(0, "ckpt_abort", {{"unit", "federation"}, {"number", wave_}, {"failure", id}});
    wave_ = 0;
  }
  if (!choose_line(ctx)) return; // no wave survives: the run ended as unrecoverable
  ctx.trace_event(1, "rollback_order", {{"wave", committed_}, {"failure", id}});
  for (NodeId p = 0; p < ctx.layout().num_nodes(); p++)
    if (!down_.count(p)) ctx.send_control(p, control(Msg::Rollback, committed_, epoch_));
}

void Coordinator::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  recovering_.erase(notice.id);
  if (recovering_.empty() && wave_ == 0) { // the period counts from the restart of the computation
    clock_->restart(ctx.now());
    schedule(ctx);
  }
}

} // namespace ckptsim::coordinated
