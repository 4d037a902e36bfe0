#include "protocols/coordinated/participant.hpp"

#include "protocols/coordinated/messages.hpp"

#include <fmt/format.h>

#include <set>

namespace ckptsim::coordinated {

namespace {
// The program-order points at which the root of a collective may ask for a checkpoint.
// The collectives among the applications' program-order points (master-worker's, and every
// collective of an MPI trace), as opposed to other points (a stencil's iterations).
bool is_collective(const std::string& kind) {
  static const std::set<std::string> kCollectives{"barrier",  "bcast",     "reduce",        "allreduce", "gather",
                                                  "gatherv",  "scatter",   "scatterv",      "allgather", "allgatherv",
                                                  "alltoall", "alltoallv", "reducescatter", "scan",      "exscan"};
  return kCollectives.count(kind) != 0;
}
} // namespace

void Participant::on_app_send(NodeContext& ctx, const AppMessage& msg) {
  ctx.send_app(msg, std::make_shared<Epoch>(epoch_));
}

void Participant::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  const FailureId e = static_cast<const Epoch&>(*pb).epoch;
  if (e < epoch_) { // sent by an execution the last rollback undid
    ctx.stats().add("coordinated.stale_dropped");
    return;
  }
  if (e > epoch_ || rollback_due_ || restarting() || loading_) { // sent after a rollback this process has not made yet
    early_.emplace_back(msg, pb);
    return;
  }
  ctx.deliver(msg, pb);
}

void Participant::on_app_point(NodeContext& ctx, const AppPoint& point) {
  if (!collective_requests_ || ctx.self() != 0 || !is_collective(point.kind)) return;
  if (!ctx.stop_app_between_steps()) return; // not between two steps: not a point (never happens)
  awaiting_ = point.number;
  ctx.send_control(coordinator_, point_control(Msg::CkptRequest, point.kind, point.number, epoch_));
}

void Participant::on_control(NodeContext& ctx, NodeId /*from*/, const ControlMessage& msg) {
  const WaveBody& b = body(msg);
  // A wave message of an execution that a failure undid (or is about to undo) is dropped.
  const bool current = b.epoch >= epoch_ && !rollback_due_;
  switch (control_kind<Msg>(msg)) {
  case Msg::CkptDecision: // an answer to a request of an execution since undone is stale
    if (b.wave == awaiting_ && b.epoch == epoch_) {
      awaiting_ = 0;
      try_resume(ctx);
    }
    return;
  case Msg::Rollback:
    return rollback(ctx, b.wave, b.epoch);
  case Msg::Init:
    if (current) on_init(ctx, b);
    return;
  case Msg::Flush:
    if (current) {
      flushes_[b.wave]++;
      check_flushed(ctx);
    }
    return;
  case Msg::Cont:
    if (current) on_cont(ctx, b);
    return;
  case Msg::Ack:
  case Msg::Restarted:
  case Msg::CkptRequest:
    break; // the coordinator's messages
  }
  unexpected_control("coordinated", msg);
}

void Participant::on_init(NodeContext& ctx, const WaveBody& b) {
  wave_ = b.wave;
  phase_ = Phase::Flushing;
  ctx.pause_app();
  ctx.trace_event(1, "ckpt_begin", {{"unit", "federation"}, {"number", wave_}});
  for (NodeId p = 0; p < ctx.layout().num_nodes(); p++) ctx.send_control(p, control(Msg::Flush, wave_, epoch_));
  check_flushed(ctx);
}

void Participant::on_cont(NodeContext& ctx, const WaveBody& b) {
  if (phase_ != Phase::WaitingCont || b.wave != wave_) return;
  committed_ = wave_;
  keep_last(ctx, committed_); // the kept committed waves may be restored
  phase_ = Phase::Idle;
  ctx.trace_event(1, "ckpt_commit", {{"unit", "federation"}, {"number", committed_}, {"forced", false}});
  try_resume(ctx);
}

void Participant::check_flushed(NodeContext& ctx) {
  if (phase_ != Phase::Flushing || flushes_[wave_] < ctx.layout().num_nodes()) return;
  flushes_.erase(wave_);
  phase_ = Phase::Saving;
  stored_.insert(wave_);
  ctx.save_checkpoint(wave_, ctx.snapshot({}));
}

void Participant::on_saved(NodeContext& ctx, std::uint64_t number) {
  if (phase_ == Phase::Saving && number == wave_) {
    phase_ = Phase::WaitingCont;
    ctx.send_control(coordinator_, control(Msg::Ack, wave_, epoch_));
  }
}

void Participant::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  wait_for(notice.id); // an older failure told after a newer one's rollback still has a victim to wait for
  if (notice.id <= epoch_) return;
  rollback_due_ = true; // the coordinator's ROLLBACK follows
  ctx.pause_app();
}

void Participant::on_restart(NodeContext& ctx, const FailureNotice& own) {
  restart_delay_.begin();
  rollback_due_ = true;
  waiting_for_ = std::set<FailureId>(own.down.begin(), own.down.end());
  waiting_for_.insert(own.id);
  // The other failures the detector knew of are back already (their "node back" went out before
  // this incarnation existed): the coordinator's ROLLBACK for a newer one must not wait for it
  // (a later failure repaired sooner than ours, as per-failure repair times allow).
  for (FailureId f = 1; f <= own.latest; f++)
    if (!waiting_for_.count(f)) back_.insert(f);
  ctx.send_control(coordinator_, restarted_control(own.id, own.victims));
}

void Participant::rollback(NodeContext& ctx, std::uint64_t wave, FailureId epoch) {
  if (epoch <= epoch_ && !restarting()) return; // already rolled back for this failure
  if (epoch < epoch_) return;
  epoch_ = epoch;
  rollback_due_ = false;
  wait_for(epoch); // the order may come before the failure notice: wait for the victim
  phase_ = Phase::Idle;
  flushes_.clear();
  for (auto it = stored_.begin(); it != stored_.end();) { // the aborted wave's checkpoint
    if (*it > wave) {
      ctx.discard_checkpoint(*it);
      it = stored_.erase(it);
    } else {
      ++it;
    }
  }
  committed_ = wave;
  awaiting_ = 0; // the restored process re-asks if it stands before the point again
  ctx.pause_app();
  if (wave == 0) {
    loading_.reset();
    ctx.restore(ctx.initial_snapshot(), fmt::format("global rollback to the initial state (failure {})", epoch));
    restored(ctx);
  } else if (loading_ != wave) { // a second order for the wave a load under way brings back: that load serves
    loading_ = wave;
    ctx.load_checkpoint(wave); // from memory, or from stable storage for a restarted process
  }
}

void Participant::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  // Only the load the last order asked for restores, once: a late one would take a process that
  // runs again back to the wave, after it took part in the next one.
  if (loading_ != number || number != committed_) return;
  loading_.reset();
  ctx.restore(s, fmt::format("global rollback to wave {} (failure {})", number, epoch_));
  // Waves are numbered along the execution line: the kept ones are those up to this one (a
  // restarted process lost its list with its memory; their copies are elsewhere).
  for (std::uint64_t k : kept_(number))
    if (k > 0) stored_.insert(k);
  keep_last(ctx, number);
  restored(ctx);
}

void Participant::restored(NodeContext& ctx) {
  if (restarting()) { // the restarted process pays its restart overhead, then it is back
    restart_delay_.pay(ctx);
    return;
  }
  ctx.recovered(epoch_);
  // Messages of the new execution that arrived before our rollback are delivered now.
  auto early = std::move(early_);
  early_.clear();
  for (auto& [msg, pb] : early) on_app_receive(ctx, msg, pb);
  try_resume(ctx);
}

void Participant::on_timer(NodeContext& ctx, int id) {
  if (restart_delay_.end(ctx, id)) restored(ctx); // reports this process' part of the recovery
}

void Participant::wait_for(FailureId id) {
  if (!back_.count(id)) waiting_for_.insert(id);
}

void Participant::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  back_.insert(notice.id); // the order for it may still come (over the network, after this signal)
  waiting_for_.erase(notice.id);
  replicate_kept(ctx);
  try_resume(ctx);
}

void Participant::try_resume(NodeContext& ctx) {
  // Not while a rollback's load is under way: the victim may be back before a survivor has its
  // wave from a remote copy (its own was lost with an earlier failure), and what it would deliver
  // meanwhile the restore would undo.
  if (phase_ == Phase::Idle && !rollback_due_ && !restarting() && !loading_ && waiting_for_.empty() && awaiting_ == 0)
    ctx.resume_app();
}

} // namespace ckptsim::coordinated
