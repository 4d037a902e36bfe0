/* CCK's checkpoint wave on a process (thesis figure 4.5), the application messages' piggyback
 * and the rule that holds a message sent after a save this process has not made yet. */
#include "protocols/cck/process.hpp"

#include <algorithm>

namespace ckptsim::cck {

void Process::on_start(NodeContext& ctx) { saved_.emplace(0, ctx.initial_snapshot().app); }

void Process::on_app_send(NodeContext& ctx, const AppMessage& msg) {
  const Tag tag = static_cast<Tag>(msg.seq);
  if (withheld_.erase(tag)) { // the receiver kept it: the re-executed send keeps the promise only
    ctx.record_send(msg);
  } else {
    auto pb = std::make_shared<Piggyback>(last_saved_, life_);
    if (resend_.erase(tag))
      ctx.resend_app(msg, std::move(pb));
    else
      ctx.send_app(msg, std::move(pb));
  }
  promised_.erase(tag);
  check_caught_up(ctx);
}

void Process::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  const auto& p = static_cast<const Piggyback&>(*pb);
  if (auto d = dead_.find(msg.src); d != dead_.end() && p.life < d->second) {
    ctx.stats().add("cck.stale_dropped"); // sent by an incarnation that died
    return;
  }
  // Sent after its sender's save of a wave this process has not saved yet (no such message is
  // held during a restart: the wave was aborted, and the flush needs it received).
  if (p.wave > last_saved_ && restart_ == Restart::None) {
    held_.emplace_back(msg, pb);
    ctx.stats().add("cck.held");
    return;
  }
  receive(ctx, msg, pb);
}

void Process::receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  const Tag tag = static_cast<Tag>(msg.seq);
  if (wl_.received(ctx.app_state(), tag)) { // would be a protocol bug: kept visible
    ctx.stats().add("cck.duplicates");
    ctx.trace_event(0, "cck_duplicate", {{"tag", tag}, {"from", msg.src}});
    return;
  }
  if (redeliver_.erase(tag))
    ctx.redeliver(msg);
  else
    ctx.deliver(msg, pb);
}

void Process::deliver_held(NodeContext& ctx) {
  auto held = std::move(held_);
  held_.clear();
  for (auto& [msg, pb] : held) on_app_receive(ctx, msg, pb);
}

std::vector<NodeId> Process::expected_senders(const NodeContext& ctx) const {
  const TaskGraph& g = wl_.graph();
  std::set<NodeId> out;
  for (TaskId t : g.tasks_of(ctx.self())) {
    const Task& task = g.task(t);
    if (task.kind == TaskKind::Receive && !wl_.executed(ctx.app_state(), t)) out.insert(task.peer);
  }
  return {out.begin(), out.end()};
}

void Process::discard(NodeContext& ctx, std::uint64_t number) {
  if (number == 0 || !saved_.erase(number)) return;
  ctx.discard_checkpoint(number);
}

void Process::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  switch (control_kind<Msg>(msg)) {
  case Msg::Init:
    return on_init(ctx, wave_body(msg));
  case Msg::Ping:
    return on_ping(ctx, from, wave_body(msg));
  case Msg::Pong:
    return on_pong(ctx, wave_body(msg));
  case Msg::Cont:
    return on_cont(ctx, wave_body(msg));
  case Msg::Recover:
    return on_recover(ctx, wave_body(msg));
  case Msg::StopPing:
    return on_stop_ping(ctx, from, wave_body(msg));
  case Msg::StopPong:
    return on_stop_pong(ctx, wave_body(msg));
  case Msg::Gather:
    return on_gather(ctx, from, std::static_pointer_cast<const GatherBody>(msg.body));
  case Msg::Restart:
    return on_restart_order(ctx, wave_body(msg));
  case Msg::Ack:
  case Msg::Ready:
  case Msg::Restarted:
  case Msg::Done:
    break; // the coordinator's messages
  }
  unexpected_control("cck", msg);
}

void Process::on_init(NodeContext& ctx, const WaveBody& b) {
  // A wave message of an execution a failure interrupted is dropped (here and below).
  if (b.epoch != epoch_ || restart_ != Restart::None) return;
  for (auto it = saved_.begin(); it != saved_.end();) // only the last committed wave is ever restored
    if (it->first != 0 && it->first < b.committed) {
      ctx.discard_checkpoint(it->first);
      it = saved_.erase(it);
    } else {
      ++it;
    }
  wave_ = b.wave;
  phase_ = Phase::Stopping;
  ctx.trace_event(1, "ckpt_begin", {{"unit", "federation"}, {"number", wave_}});
  if (ctx.stop_app_between_steps()) wave_stopped(ctx);
}

void Process::on_app_stopped(NodeContext& ctx) {
  if (restart_ == Restart::Stopping)
    restart_stopped(ctx);
  else if (phase_ == Phase::Stopping)
    wave_stopped(ctx);
}

void Process::wave_stopped(NodeContext& ctx) {
  phase_ = Phase::Flushing;
  v_ = expected_senders(ctx);
  pongs_ = 0;
  // PINGs first: on each channel to a neighbour the PING then precedes the PONG, so a process
  // that has its PONGs has every PING of the processes it PINGed (see process.hpp).
  for (NodeId q : v_) ctx.send_control(q, control(Msg::Ping, wave_, epoch_));
  for (NodeId q : queued_pings_[wave_]) ctx.send_control(q, control(Msg::Pong, wave_, epoch_));
  queued_pings_.erase(wave_);
  if (v_.empty()) save(ctx);
}

void Process::on_ping(NodeContext& ctx, NodeId from, const WaveBody& b) {
  if (b.epoch != epoch_) return;
  pings_[b.wave]++;
  const bool stopped_for_it =
      b.wave < wave_ || (b.wave == wave_ && phase_ != Phase::Stopping && !(phase_ == Phase::Idle && wave_ == 0));
  if (stopped_for_it)
    ctx.send_control(from, control(Msg::Pong, b.wave, epoch_));
  else
    queued_pings_[b.wave].push_back(from);
}

void Process::on_pong(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch == epoch_ && phase_ == Phase::Flushing && b.wave == wave_ && ++pongs_ == v_.size()) save(ctx);
}

void Process::on_cont(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch != epoch_) return;
  conts_[b.wave]++;
  check_cont(ctx);
}

void Process::save(NodeContext& ctx) {
  phase_ = Phase::Saving;
  Snapshot s = ctx.snapshot({});
  saved_[wave_] = s.app;
  last_saved_ = wave_;
  ctx.save_checkpoint(wave_, std::move(s));
  deliver_held(ctx); // held for this save: they come after it
}

void Process::on_saved(NodeContext& ctx, std::uint64_t number) {
  if (aborted_.erase(number)) { // the wave was aborted while its save ran
    discard(ctx, number);
    return;
  }
  if (phase_ != Phase::Saving || number != wave_) return;
  phase_ = Phase::WaitingCont;
  for (NodeId q : v_) ctx.send_control(q, control(Msg::Cont, wave_, epoch_));
  check_cont(ctx);
}

void Process::check_cont(NodeContext& ctx) {
  if (phase_ != Phase::WaitingCont || conts_[wave_] < pings_[wave_]) return;
  phase_ = Phase::Idle;
  conts_.erase(wave_);
  pings_.erase(wave_);
  ctx.resume_app();
  ctx.send_control(coordinator_, control(Msg::Ack, wave_, epoch_, 0, static_cast<int>(v_.size())));
}

} // namespace ckptsim::cck
