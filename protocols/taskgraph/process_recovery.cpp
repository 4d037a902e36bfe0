/* taskgraph process: the partial rollback (Lion 3.4). The substitute of a failed process asks
 * its backup for its checkpoint; the backup names it and asks the processes the graph says may
 * have to send again (TG_RECOVER); they replay and report what they received from the victim;
 * the substitute restores, re-executes, and reports its recovery when every peer has answered
 * and its re-execution has sent again every message a peer holds. */
#include "protocols/taskgraph/process.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim::taskgraph {

void Process::on_restart(NodeContext& ctx, const FailureNotice& own) {
  if (own.struck(backup_)) {
    // The backup restarted with this process: it lost the copy it held and the number of the
    // checkpoint to restore, while the peers dropped the log entries that checkpoint covered.
    // Restarting from the initial state would wait for messages nobody holds (Lion's model
    // assumes a backup outlives its ward's failure).
    ctx.unrecoverable(fmt::format("taskgraph: {} and its backup {} failed together (failure {}): the backup's "
                                  "record and copy of {}'s checkpoint are lost",
                                  ctx.layout().host_name(self_), ctx.layout().host_name(backup_), own.id,
                                  ctx.layout().host_name(self_)));
    return;
  }
  failure_ = own.id;
  failure_date_ = own.date;
  restored_ = false;
  restart_delay_.begin();
  told_ = false;
  st_ = State{}; // the volatile log died with the process; the checkpoint brings its copy back
  account_log(ctx);
  auto b = std::make_shared<Body>();
  b->failure = own.id;
  ctx.send_control(backup_, control(Msg::Restart, b));
}

void Process::on_restart_request(NodeContext& ctx, NodeId from, const Body& b) {
  // Backup role (3.4 step 3): the newest checkpoint of `from` whose copy is complete here.
  const std::uint64_t number = wards_.count(from) ? wards_.at(from) : 0;
  const std::vector<int> peers = points_.peers_after(from, number);
  ctx.trace_event(0, "tg_backup_recover",
                  {{"failure", b.failure}, {"victim", from}, {"checkpoint", number}, {"peers", peers}});
  auto r = std::make_shared<Body>();
  r->failure = b.failure;
  r->number = number;
  ctx.send_control(from, control(Msg::Restore, r));
  // Step 4: the processes that may have to send again, deduced from the graph.
  for (int q : peers) {
    auto m = std::make_shared<Body>();
    m->failure = b.failure;
    m->victim = from;
    m->number = number;
    if (q == self_)
      on_recover(ctx, *m);
    else
      ctx.send_control(q, control(Msg::Recover, m));
  }
}

void Process::on_restore(NodeContext& ctx, const Body& b) {
  if (b.failure != failure_ || told_) return;
  told_ = true;
  restoring_ = b.number;
  expected_ = points_.peers_after(self_, b.number);
  if (b.number == 0) {
    restore_from(ctx, ctx.initial_snapshot(), 0);
    return;
  }
  ctx.load_checkpoint(b.number); // from the backup's memory: this node's is gone
}

void Process::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  if (failure_ == 0 || restored_ || number != restoring_) return;
  restore_from(ctx, s, number);
}

void Process::restore_from(NodeContext& ctx, const Snapshot& s, std::uint64_t number) {
  ctx.restore(s, number == 0 ? fmt::format("taskgraph restart from the initial state (failure {})", failure_)
                             : fmt::format("taskgraph restart from checkpoint {} (failure {})", number, failure_));
  st_ = s.protocol.has_value() ? std::any_cast<const State&>(s.protocol) : State{};
  // The checkpoint committed when this one was taken is older: the backup names this one now.
  if (st_.committed != 0 && st_.committed != number) ctx.discard_checkpoint(st_.committed);
  st_.committed = number;
  saving_ = 0;
  saved_ = false;
  restored_ = true;
  account_log(ctx);
  ctx.trace_event(0, "tg_restored", {{"failure", failure_}, {"checkpoint", number}, {"peers", expected_}});
  // What the restored state has sent (its send tasks are executed: the re-execution will not send
  // it again) may never have arrived: a copy still in transfer when this process died died with
  // it, whatever its version, and no peer reports or replays it. The restored log holds every such
  // message (a receiver that lacks one cannot have committed a checkpoint covering it): it all goes
  // again; a receiver that has a message drops the copy by its tag.
  const std::vector<AppMessage> own = st_.log.all();
  for (const AppMessage& m : own) ctx.resend_app(m, std::make_shared<Piggyback>(st_.committed));
  ctx.stats().add("taskgraph.resent_own", static_cast<double>(own.size()));
  auto replayed = std::move(early_replayed_);
  early_replayed_.clear();
  for (const auto& [from, r] : replayed) on_replayed(ctx, from, *r);
  auto recovers = std::move(early_recover_); // the other victims' replays, from the restored log
  early_recover_.clear();
  for (const auto& r : recovers) on_recover(ctx, *r);
  auto early = std::move(early_);
  early_.clear();
  for (const auto& [msg, pb] : early) receive(ctx, msg, pb);
  restart_delay_.pay(ctx);
}

void Process::on_timer(NodeContext& ctx, int id) {
  if (failure_ == 0 || !restart_delay_.end(ctx, id)) return;
  ctx.resume_app();
  check_recovered(ctx);
}

void Process::on_recover(NodeContext& ctx, const Body& b) {
  if (failure_ != 0 && !restored_) { // a victim of the same failure: its log and state are not back yet
    early_recover_.push_back(std::make_shared<Body>(b));
    return;
  }
  // Replay (3.4 step 5): every logged message to the victim that its checkpoint's point does
  // not cover; it drops those its restored state already holds.
  const auto msgs = st_.log.uncovered(b.victim, b.number, points_);
  for (const AppMessage& m : msgs) ctx.resend_app(m, std::make_shared<Piggyback>(st_.committed));
  ctx.stats().add("taskgraph.replayed", static_cast<double>(msgs.size()));
  // What this process received from the victim beyond the point: the victim's re-execution
  // sends it again (and this process drops it), so the victim knows which sends it owes.
  auto r = std::make_shared<Body>();
  r->failure = b.failure;
  r->number = b.number;
  r->resent = msgs.size();
  const dataflow::TaskGraph& g = points_.graph();
  for (Tag t : points_.incoming(self_))
    if (g.communication(t).from == b.victim && !points_.covered(t, b.number) && wl_.received(ctx.app_state(), t))
      r->tags.push_back(t);
  nlohmann::ordered_json resent = nlohmann::ordered_json::array();
  for (const AppMessage& m : msgs) resent.push_back(m.seq);
  ctx.trace_event(1, "tg_replay",
                  {{"failure", b.failure},
                   {"victim", b.victim},
                   {"checkpoint", b.number},
                   {"tags", resent},
                   {"received", r->tags}});
  ctx.send_control(b.victim, control(Msg::Replayed, r));
}

void Process::on_replayed(NodeContext& ctx, NodeId from, const Body& b) {
  if (b.failure != failure_) return;
  if (!restored_) {
    early_replayed_.emplace_back(from, std::make_shared<Body>(b));
    return;
  }
  replied_.insert(from);
  peers_resent_ += b.resent;
  const dataflow::TaskGraph& g = points_.graph();
  for (Tag t : b.tags) {
    const dataflow::Communication& c = g.communication(t);
    // Sent before the checkpoint's point, or again already: the oracle keeps that send.
    if (wl_.executed(ctx.app_state(), c.send)) continue;
    ctx.promise_send(c.to, t); // undone by the restore, still held by `from`: owed again
    promised_.insert(t);
    ctx.stats().add("taskgraph.promised");
  }
  check_recovered(ctx);
}

void Process::check_recovered(NodeContext& ctx) {
  if (failure_ == 0 || !restored_ || restart_delay_.restarting() || !promised_.empty()) return;
  for (int q : expected_)
    if (!replied_.count(q)) return;
  ctx.stats().record("taskgraph.recoveries", {{"failure", failure_},
                                              {"victim", self_},
                                              {"checkpoint", restoring_},
                                              {"peers", expected_.size()},
                                              {"replayed", peers_resent_},
                                              {"duration", ctx.now() - failure_date_}});
  ctx.trace_event(0, "tg_recovered", {{"failure", failure_}, {"checkpoint", restoring_}, {"replayed", peers_resent_}});
  ctx.recovered(failure_);
  failure_ = 0;
  replied_.clear();
  expected_.clear();
  peers_resent_ = 0;
}

} // namespace ckptsim::taskgraph
