#include "protocols/cck/restart.hpp"

#include "protocols/cck/plan.hpp"
#include "protocols/cck/task_states.hpp"
#include "protocols/cck/wave.hpp"

#include <fmt/format.h>

namespace ckptsim::cck {

void Restart::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  if (notice.id > lives_.epoch()) begin(ctx, notice.id, notice.victims);
}

void Restart::begin(NodeContext& ctx, FailureId id, const std::vector<NodeId>& victims) {
  lives_.failure(id, victims);
  failed_ = victims;
  gather_.begin();
  line_known_ = false;
  wave_.abort(ctx);
  // Held messages were sent by live processes: part of the execution, received before the
  // states are compared (the flush must leave nothing in transit between non-failed processes).
  mailbox_.deliver_held(ctx);
  state_ = State::Stopping;
  if (victims.size() == 1)
    ctx.trace_event(1, "cck_stop", {{"failure", id}, {"victim", victims.front()}});
  else
    ctx.trace_event(1, "cck_stop", {{"failure", id}, {"victims", victims}});
  if (ctx.stop_app_between_steps()) stopped(ctx);
}

void Restart::on_recover(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch > lives_.epoch()) begin(ctx, b.epoch, b.victims);
  if (b.epoch != lives_.epoch() || line_known_) return;
  line_ = b.wave;
  line_known_ = true;
  checkpoints_.roll_back_to(line_);
  checkpoints_.discard(ctx, b.committed); // the aborted wave's checkpoint
  if (state_ == State::Loading) {
    if (line_ == 0)
      on_loaded(ctx, 0, ctx.initial_snapshot());
    else
      ctx.load_checkpoint(line_); // from the server: the local copy died with the process
  }
  maybe_gather(ctx);
}

void Restart::on_app_stopped(NodeContext& ctx) {
  if (state_ == State::Stopping) stopped(ctx);
}

void Restart::on_stop_ping(NodeContext& ctx, NodeId from, const WaveBody& b) {
  const FailureId epoch = lives_.epoch();
  if (b.epoch == epoch && (state_ == State::Flushing || state_ == State::Gathering || state_ == State::Ready))
    ctx.send_control(from, control(Msg::StopPong, 0, epoch));
  else if (b.epoch >= epoch)
    queued_stop_pings_[b.epoch].push_back(from);
}

void Restart::on_stop_pong(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch == lives_.epoch() && state_ == State::Flushing && ++rpongs_ == rv_.size()) maybe_gather(ctx);
}

void Restart::on_gather(NodeContext& ctx, NodeId from, std::shared_ptr<const GatherBody> body) {
  if (gather_.keep(from, std::move(body), lives_.epoch())) check_plan(ctx);
}

void Restart::on_restart_order(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch != lives_.epoch() || state_ != State::Ready) return;
  state_ = State::CatchingUp;
  ctx.resume_app();
  check_caught_up(ctx);
}

void Restart::stopped(NodeContext& ctx) {
  const FailureId epoch = lives_.epoch();
  state_ = State::Flushing;
  rv_.clear();
  for (NodeId q : senders_still_expected(wl_, ctx.self(), ctx.app_state()))
    if (!is_failed(q)) rv_.push_back(q);
  rpongs_ = 0;
  for (NodeId q : rv_) ctx.send_control(q, control(Msg::StopPing, 0, epoch));
  for (NodeId q : queued_stop_pings_[epoch]) ctx.send_control(q, control(Msg::StopPong, 0, epoch));
  queued_stop_pings_.clear();
  maybe_gather(ctx);
}

TaskStates Restart::own_states(const NodeContext& ctx) const {
  return own_task_states(wl_, ctx.self(), checkpoints_.at(line_), ctx.app_state());
}

void Restart::maybe_gather(NodeContext& ctx) {
  if (state_ != State::Flushing || rpongs_ < rv_.size() || !line_known_) return;
  // Everything the others sent before stopping has arrived: the state is final.
  const TaskStates states = own_states(ctx);
  const bool keeps_memory = reuse_ && !is_failed(ctx.self()); // a failed process' memory is gone
  const std::vector<bool> memory = keeps_memory ? data_in_own_memory(wl_, ctx.self(), states) : std::vector<bool>{};
  state_ = State::Gathering;
  gather_.send(ctx, survivor_gather(wl_.graph(), ctx.self(), lives_.epoch(), failed_, states, memory), failed_);
  check_plan(ctx);
}

void Restart::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  if (notice.id != lives_.epoch() || notice.struck(ctx.self())) return;
  gather_.failed_back(ctx, failed_);
}

void Restart::on_restart(NodeContext& ctx, const FailureNotice& own) {
  lives_.failure(own.id, own.victims); // the other victims' older lives are void here too
  lives_.restarted(own.id);
  failed_ = own.victims;
  state_ = State::Loading;
  restart_delay_.begin();
  ctx.send_control(coordinator_, control(Msg::Restarted, 0, own.id, 0, own.victims));
}

void Restart::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  if (state_ != State::Loading || number != line_) return;
  ctx.restore(s, fmt::format("restart from checkpoint {} (failure {})", number, lives_.epoch()));
  checkpoints_.reloaded(ctx, number, s.app);
  restart_delay_.pay(ctx);
}

void Restart::on_timer(NodeContext& ctx, int id) {
  if (state_ != State::Loading || !restart_delay_.end(ctx, id)) return;
  // Its restricted graph is that of its whole checkpointed graph: it re-executes all of it.
  state_ = State::Gathering;
  gather_.send(ctx, restarted_gather(wl_.graph(), ctx.self(), lives_.epoch(), own_states(ctx)), failed_);
  check_plan(ctx);
}

void Restart::check_caught_up(NodeContext& ctx) {
  // The re-executed tasks end in the sends of C_total (their sinks), and the restarted process'
  // promised sends are the last it owes: when they are all done, so is the restart (the thesis
  // counts the re-execution in the restart's time, 4.3.6).
  if (state_ != State::CatchingUp || replay_.owes()) return;
  state_ = State::None;
  ctx.trace_event(1, "cck_caught_up", {{"failure", lives_.epoch()}});
  ctx.send_control(coordinator_, control(Msg::Done, 0, lives_.epoch()));
  ctx.recovered(lives_.epoch());
}

void Restart::check_plan(NodeContext& ctx) {
  if (state_ != State::Gathering) return;
  const FailureId epoch = lives_.epoch();
  const Gathered* others = gather_.complete(epoch, ctx.layout().num_nodes() - 1);
  if (!others) return;
  plan_restart_part(ctx, wl_,
                    {.epoch = epoch,
                     .failed = failed_,
                     .reuse = reuse_,
                     .checkpoint = &checkpoints_.at(line_),
                     .own = gather_.own().get(),
                     .others = others},
                    replay_);
  gather_.forget_through(epoch);
  state_ = State::Ready;
  ctx.send_control(coordinator_, control(Msg::Ready, 0, epoch));
}

} // namespace ckptsim::cck
