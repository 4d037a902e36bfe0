/* CCK's restart on a process (thesis 4.3.4): stop, flush, all-gather of the restricted graphs,
 * C_total and the tasks to re-execute, partial rollback, restart. The plain analysis lives in
 * lost.cpp; this file moves its inputs between the processes and applies its results. */
#include "protocols/cck/process.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim::cck {

void Process::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  if (notice.id > epoch_) begin_restart(ctx, notice.id, notice.victim);
}

void Process::begin_restart(NodeContext& ctx, FailureId id, NodeId victim) {
  epoch_ = id;
  failed_ = victim;
  dead_[victim] = id;
  failed_back_ = false;
  gather_to_failed_ = false;
  line_known_ = false;
  if (phase_ == Phase::Saving) aborted_.insert(wave_); // discarded when its transfers end
  if (phase_ == Phase::WaitingCont) discard(ctx, wave_);
  phase_ = Phase::Idle;
  queued_pings_.clear();
  pings_.clear();
  conts_.clear();
  // Held messages were sent by live processes: part of the execution, received before the
  // states are compared (the flush must leave nothing in transit between non-failed processes).
  deliver_held(ctx);
  restart_ = Restart::Stopping;
  ctx.trace_event(1, "cck_stop", {{"failure", id}, {"victim", victim}});
  if (ctx.stop_app_between_steps()) restart_stopped(ctx);
}

void Process::on_recover(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch > epoch_) begin_restart(ctx, b.epoch, b.count);
  if (b.epoch != epoch_ || line_known_) return;
  line_ = b.wave;
  line_known_ = true;
  last_saved_ = line_;
  discard(ctx, b.committed); // the aborted wave's checkpoint
  if (restart_ == Restart::Loading) {
    if (line_ == 0)
      on_loaded(ctx, 0, ctx.initial_snapshot());
    else
      ctx.load_checkpoint(line_); // from the server: the local copy died with the process
  }
  maybe_gather(ctx);
}

void Process::on_stop_ping(NodeContext& ctx, NodeId from, const WaveBody& b) {
  if (b.epoch == epoch_ &&
      (restart_ == Restart::Flushing || restart_ == Restart::Gathering || restart_ == Restart::Ready))
    ctx.send_control(from, control(Msg::StopPong, 0, epoch_));
  else if (b.epoch >= epoch_)
    queued_stop_pings_[b.epoch].push_back(from);
}

void Process::on_stop_pong(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch == epoch_ && restart_ == Restart::Flushing && ++rpongs_ == rv_.size()) maybe_gather(ctx);
}

void Process::on_gather(NodeContext& ctx, NodeId from, std::shared_ptr<const GatherBody> body) {
  if (body->epoch < epoch_) return;
  gathered_[body->epoch][from] = std::move(body);
  check_plan(ctx);
}

void Process::on_restart_order(NodeContext& ctx, const WaveBody& b) {
  if (b.epoch != epoch_ || restart_ != Restart::Ready) return;
  restart_ = Restart::CatchingUp;
  ctx.resume_app();
  check_caught_up(ctx);
}

void Process::restart_stopped(NodeContext& ctx) {
  restart_ = Restart::Flushing;
  rv_.clear();
  for (NodeId q : expected_senders(ctx))
    if (q != failed_) rv_.push_back(q);
  rpongs_ = 0;
  for (NodeId q : rv_) ctx.send_control(q, control(Msg::StopPing, 0, epoch_));
  for (NodeId q : queued_stop_pings_[epoch_]) ctx.send_control(q, control(Msg::StopPong, 0, epoch_));
  queued_stop_pings_.clear();
  maybe_gather(ctx);
}

std::vector<bool> Process::own_memory(const NodeContext& ctx, const TaskStates& states) const {
  if (!reuse_ || ctx.self() == failed_) return {}; // a failed process' memory is gone
  const TaskGraph& g = wl_.graph();
  std::vector<bool> done(g.tasks().size(), false);
  for (TaskId t : g.tasks_of(ctx.self())) done[t] = states[t] != TaskState::Pending;
  std::vector<bool> in_memory(g.data().size(), false);
  for (DataId d : live_data(g, ctx.self(), done)) in_memory[d] = true;
  return in_memory;
}

TaskStates Process::own_states(const NodeContext& ctx) const {
  const TaskGraph& g = wl_.graph();
  TaskStates states(g.tasks().size(), TaskState::Pending);
  const AppState& checkpoint = *saved_.at(line_);
  for (TaskId t : g.tasks_of(ctx.self())) {
    if (wl_.executed(checkpoint, t))
      states[t] = TaskState::BeforeCheckpoint;
    else if (wl_.executed(ctx.app_state(), t))
      states[t] = TaskState::SinceCheckpoint;
  }
  return states;
}

void Process::maybe_gather(NodeContext& ctx) {
  if (restart_ != Restart::Flushing || rpongs_ < rv_.size() || !line_known_) return;
  // Everything the others sent before stopping has arrived: the state is final.
  const TaskGraph& g = wl_.graph();
  const TaskStates states = own_states(ctx);
  auto body = std::make_shared<GatherBody>();
  body->epoch = epoch_;
  body->graph = restricted_graph(g, states, ctx.self(), own_memory(ctx, states));
  for (TaskId t : g.tasks_of(ctx.self())) {
    const Task& task = g.task(t);
    if (states[t] != TaskState::SinceCheckpoint || task.peer != failed_) continue;
    if (task.kind == TaskKind::Send) body->lost.push_back(task.tag);
    if (task.kind == TaskKind::Receive) body->received_from_failed.push_back(task.tag);
  }
  own_gather_ = body;
  restart_ = Restart::Gathering;
  for (NodeId q = 0; q < ctx.layout().num_nodes(); q++)
    if (q != ctx.self() && q != failed_) send_gather(ctx, q);
  if (failed_back_)
    send_gather(ctx, failed_);
  else
    gather_to_failed_ = true; // its new incarnation is not running yet
  check_plan(ctx);
}

void Process::send_gather(NodeContext& ctx, NodeId to) {
  ctx.send_control(to, make_control(Msg::Gather, own_gather_, kControlBytes));
}

void Process::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  if (notice.victim != failed_ || notice.id != epoch_ || notice.victim == ctx.self()) return;
  failed_back_ = true;
  if (gather_to_failed_) {
    gather_to_failed_ = false;
    send_gather(ctx, failed_);
  }
}

void Process::on_restart(NodeContext& ctx, const FailureNotice& own) {
  epoch_ = own.id;
  life_ = own.id;
  failed_ = ctx.self();
  restart_ = Restart::Loading;
  restart_delay_.begin();
  ctx.send_control(coordinator_, control(Msg::Restarted, 0, own.id));
}

void Process::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  if (restart_ != Restart::Loading || number != line_) return;
  ctx.restore(s, fmt::format("restart from checkpoint {} (failure {})", number, epoch_));
  saved_.clear();
  saved_[0] = ctx.initial_snapshot().app;
  saved_[number] = s.app;
  last_saved_ = number;
  restart_delay_.pay(ctx);
}

void Process::on_timer(NodeContext& ctx, int id) {
  if (restart_ != Restart::Loading || !restart_delay_.end(ctx, id)) return;
  // Its restricted graph is that of its whole checkpointed graph: it re-executes all of it.
  const TaskGraph& g = wl_.graph();
  auto body = std::make_shared<GatherBody>();
  body->epoch = epoch_;
  body->graph = restricted_graph(g, own_states(ctx), ctx.self());
  own_gather_ = body;
  restart_ = Restart::Gathering;
  for (NodeId q = 0; q < ctx.layout().num_nodes(); q++)
    if (q != ctx.self()) send_gather(ctx, q);
  check_plan(ctx);
}

void Process::check_caught_up(NodeContext& ctx) {
  // The re-executed tasks end in the sends of C_total (their sinks), and the restarted process'
  // promised sends are the last it owes: when they are all done, so is the restart (the thesis
  // counts the re-execution in the restart's time, 4.3.6).
  if (restart_ != Restart::CatchingUp || !resend_.empty() || !promised_.empty()) return;
  restart_ = Restart::None;
  ctx.trace_event(1, "cck_caught_up", {{"failure", epoch_}});
  ctx.send_control(coordinator_, control(Msg::Done, 0, epoch_));
  ctx.recovered(epoch_);
}

void Process::check_plan(NodeContext& ctx) {
  if (restart_ != Restart::Gathering) return;
  const auto it = gathered_.find(epoch_);
  if (it == gathered_.end() || static_cast<int>(it->second.size()) < ctx.layout().num_nodes() - 1) return;
  plan(ctx);
}

void Process::plan(NodeContext& ctx) {
  const TaskGraph& g = wl_.graph();
  const NodeId self = ctx.self();
  auto& others = gathered_[epoch_];
  std::vector<RestrictedGraph> graphs{own_gather_->graph};
  std::vector<Tag> lost = own_gather_->lost;
  std::vector<Tag> received_from_failed;
  for (const auto& [q, body] : others) {
    graphs.push_back(body->graph);
    lost.insert(lost.end(), body->lost.begin(), body->lost.end());
    received_from_failed.insert(received_from_failed.end(), body->received_from_failed.begin(),
                                body->received_from_failed.end());
  }
  std::sort(lost.begin(), lost.end());
  const std::vector<Tag> total = total_communications(graphs, lost);
  const TaskStates states = own_states(ctx);
  std::size_t reexecuted = 0, global = 0;
  nlohmann::ordered_json entry{{"failure", epoch_}, {"process", self}, {"failed", self == failed_}};
  if (self == failed_) {
    // It re-executes its whole checkpointed graph; of its sends, those a non-failed process
    // received are promised to the oracle, and sent again only when C_total needs them.
    for (Tag t : received_from_failed) {
      ctx.promise_send(g.communication(t).to, t);
      promised_.insert(t);
      if (!std::binary_search(total.begin(), total.end(), t)) withheld_.insert(t);
    }
    entry["withheld"] = withheld_.size();
  } else {
    const std::vector<TaskId> redo = tasks_to_reexecute(g, states, self, total, own_memory(ctx, states));
    for (TaskId t : redo) {
      const Task& task = g.task(t);
      if (task.kind == TaskKind::Compute) reexecuted++;
      if (task.kind == TaskKind::Send) resend_.insert(task.tag);
      if (task.kind == TaskKind::Receive) redeliver_.insert(task.tag);
    }
    for (TaskId t : g.tasks_of(self))
      if (states[t] == TaskState::SinceCheckpoint && g.task(t).kind == TaskKind::Compute) global++;
    if (!redo.empty()) {
      Snapshot s = ctx.snapshot({});
      wl_.reset_tasks(*s.app, redo, *saved_.at(line_));
      ctx.restore(s, fmt::format("cck partial restart: {} tasks to re-execute (failure {})", redo.size(), epoch_));
    }
    Stats& st = ctx.stats();
    st.add("cck.reexecuted_tasks", static_cast<double>(reexecuted));
    st.add("cck.global_restart_tasks", static_cast<double>(global));
    entry["reexecuted"] = reexecuted;
    entry["global"] = global;
  }
  if (self == (failed_ == 0 ? 1 : 0)) { // once per restart: the first non-failed process
    ctx.stats().add("cck.restarts");
    ctx.stats().add("cck.c_lost", static_cast<double>(lost.size()));
    ctx.stats().add("cck.c_total", static_cast<double>(total.size()));
  }
  entry["c_lost"] = lost.size();
  entry["c_total"] = total.size();
  ctx.stats().record("cck.restart", entry);
  ctx.trace_event(1, "cck_plan", entry);
  gathered_.erase(gathered_.begin(), gathered_.upper_bound(epoch_));
  restart_ = Restart::Ready;
  ctx.send_control(coordinator_, control(Msg::Ready, 0, epoch_));
}

} // namespace ckptsim::cck
