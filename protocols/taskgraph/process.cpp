/* taskgraph process: checkpoints at the application's points, the sender-based log and its
 * garbage collection by checkpoint numbers, and the backup role (what a process knows of the
 * checkpoints it holds for another). */
#include "protocols/taskgraph/process.hpp"

#include <fmt/format.h>

namespace ckptsim::taskgraph {

void Process::on_app_point(NodeContext& ctx, const AppPoint& point) {
  if (point.kind != "iteration" || !checkpoint_point(point.number, options_.interval)) return;
  take_checkpoint(ctx, point.number);
}

void Process::take_checkpoint(NodeContext& ctx, std::uint64_t number) {
  if (saving_ != 0) { // the previous copy is not acknowledged yet: the next point will do
    ctx.stats().add("taskgraph.checkpoints_skipped");
    ctx.trace_event(1, "tg_ckpt_skipped", {{"number", number}, {"saving", saving_}});
    return;
  }
  saving_ = number;
  saved_ = false;
  ctx.trace_event(1, "ckpt_begin", {{"unit", "process"}, {"number", number}});
  // A copy at the point: the process goes on computing while the copy travels to its backup
  // (the point itself is the paper's local barrier: every task before it is done).
  ctx.save_checkpoint(number, ctx.snapshot(st_));
}

void Process::on_saved(NodeContext& ctx, std::uint64_t number) {
  if (number != saving_ || saved_) return;
  saved_ = true;
  announce(ctx, number);
}

void Process::announce(NodeContext& ctx, std::uint64_t number) {
  if (backup_down_) return; // told to its substitute when it is back (on_node_back)
  auto b = std::make_shared<Body>();
  b->number = number;
  ctx.send_control(backup_, control(Msg::Stored, b));
}

void Process::on_stored(NodeContext& ctx, NodeId from, const Body& b) {
  auto& known = wards_[from];
  known = std::max(known, b.number);
  auto a = std::make_shared<Body>();
  a->number = b.number;
  ctx.send_control(from, control(Msg::StoredAck, a));
}

void Process::on_stored_ack(NodeContext& ctx, const Body& b) {
  if (b.number == reannounced_) reannounced_ = 0;
  if (b.number != saving_ || !saved_) return;
  const std::uint64_t previous = st_.committed;
  st_.committed = saving_;
  saving_ = 0;
  saved_ = false;
  // The backup names this one from now on: the older one is of no use.
  if (previous != 0) ctx.discard_checkpoint(previous);
  ctx.stats().add("taskgraph.checkpoints");
  ctx.trace_event(1, "ckpt_commit", {{"unit", "process"}, {"number", st_.committed}});
}

void Process::on_app_send(NodeContext& ctx, const AppMessage& msg) {
  st_.log.add(msg);
  account_log(ctx);
  ctx.send_app(msg, std::make_shared<Piggyback>(st_.committed));
  if (failure_ != 0 && promised_.erase(static_cast<Tag>(msg.seq))) check_recovered(ctx);
}

void Process::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  if (failure_ != 0 && !restored_) { // the state that decides what is a duplicate is not restored yet
    early_.emplace_back(msg, pb);
    return;
  }
  receive(ctx, msg, pb);
}

void Process::receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  if (auto p = std::dynamic_pointer_cast<const Piggyback>(pb)) learn_committed(ctx, msg.src, p->committed);
  // A message its state has received already: a replay its checkpoint covered, or a send the
  // re-execution of a restarted sender made again (Lion 3.3: "ignorer les réceptions").
  if (wl_.received(ctx.app_state(), static_cast<Tag>(msg.seq))) {
    ctx.stats().add("taskgraph.duplicates");
    ctx.trace_event(1, "tg_duplicate", {{"src", msg.src}, {"tag", msg.seq}});
    return;
  }
  ctx.deliver(msg, pb);
}

void Process::learn_committed(NodeContext& ctx, NodeId src, std::uint64_t committed) {
  auto& known = st_.peer_committed[src];
  if (committed <= known) return;
  known = committed;
  const std::size_t before = st_.log.entries_to(src);
  const std::size_t dropped = st_.log.collect(src, committed, points_);
  if (dropped == 0) return;
  ctx.stats().add("taskgraph.gc_dropped", static_cast<double>(dropped));
  ctx.trace_event(2, "gc", {{"dst", src}, {"checkpoint", committed}, {"before", before}, {"after", before - dropped}});
  account_log(ctx);
}

void Process::account_log(NodeContext& ctx) { count_logged(ctx.stats(), self_, st_.log.entries(), st_.log.bytes()); }

void Process::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const Body& b = body(msg);
  switch (control_kind<Msg>(msg)) {
  case Msg::Stored:
    return on_stored(ctx, from, b);
  case Msg::StoredAck:
    return on_stored_ack(ctx, b);
  case Msg::Restart:
    return on_restart_request(ctx, from, b);
  case Msg::Restore:
    return on_restore(ctx, b);
  case Msg::Recover:
    return on_recover(ctx, b);
  case Msg::Replayed:
    return on_replayed(ctx, from, b);
  }
  unexpected_control("taskgraph", msg);
}

void Process::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  // A process other than the victim has nothing to undo: it replays when the backup asks.
  if (notice.struck(backup_)) backup_down_ = true;
  ctx.recovered(notice.id);
}

void Process::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  if (!notice.struck(backup_) || notice.struck(self_)) return;
  backup_down_ = false;
  // The restarted backup lost the copy it held and what it knew: the newest complete checkpoint
  // goes to it again (the storage model's lost copy) and is announced again.
  const std::uint64_t newest = saved_ ? saving_ : st_.committed;
  if (newest == 0) return;
  ctx.replicate_checkpoint(newest);
  reannounced_ = newest;
  ctx.trace_event(1, "tg_reannounce", {{"backup", backup_}, {"number", newest}});
  announce(ctx, newest);
}

} // namespace ckptsim::taskgraph
