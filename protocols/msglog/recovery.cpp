#include "protocols/msglog/recovery.hpp"

#include "protocols/msglog/catchup.hpp"
#include "protocols/msglog/checkpoints.hpp"
#include "protocols/msglog/determinants.hpp"
#include "protocols/msglog/inbox.hpp"
#include "protocols/msglog/orphans.hpp"
#include "protocols/msglog/replay.hpp"
#include "protocols/msglog/sender_log.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim::msglog {

void Recovery::on_restart(NodeContext& ctx, const FailureNotice& own) {
  exec_.begin_incarnation(ctx.incarnation(), id_.optimistic());
  victim_ = true;
  fellows_ = own.victims;
  checkpoints_.read_period(ctx);
  failure_ = own.id;
  failure_date_ = own.date;
  restored_ = false;
  restart_delay_.begin();
  log_.recount(ctx); // nothing: the volatile log died with the process
  dets_.account(ctx);
  auto b = std::make_shared<Body>();
  b->inc = exec_.epoch();
  b->ints = {{"failure", own.id}};
  if (id_.optimistic()) b->ints["optimistic"] = 1; // the answer also lists the rollbacks announced so far
  ctx.send_control(id_.logger(), control(Msg::ReplayReq, b));
}

void Recovery::on_replay(NodeContext& ctx, const Body& b) {
  if (restored_ || have_replay_) return;
  have_replay_ = true;
  std::vector<Det> dets;
  for (const Det& d : b.dets) {
    if (d.src >= 0) {
      dets.push_back(d);
      continue;
    }
    // optimistic: a rollback announced before this process restarted (owner, epoch, target),
    // which tells its undone messages still on the wire apart.
    orphans_.learn(d.owner, d.idx, d.rsn);
  }
  replay_.set_logger_dets(std::move(dets));
  logger_stable_ = b.get("stable");
  if (id_.optimistic()) {
    // Its deliveries after the stable prefix are lost: whoever depends on them is an orphan.
    ctx.trace_event(1, "rollback_notice",
                    {{"failure", failure_}, {"epoch", exec_.epoch()}, {"target", logger_stable_}});
    for (NodeId q = 0; q < id_.nodes(); q++) {
      if (q == id_.self()) continue;
      auto n = std::make_shared<Body>();
      n->inc = exec_.epoch();
      n->ints = {{"failure", failure_}, {"target", logger_stable_}};
      ctx.send_control(q, control(Msg::RollbackNotice, n));
    }
  }
  const std::uint64_t number = b.get("number");
  if (number == 0) {
    restore_from(ctx, ctx.initial_snapshot(), 0);
    return;
  }
  ctx.load_checkpoint(number); // from a remote copy: the process' memory is gone
}

void Recovery::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  if (restored_) return;
  restore_from(ctx, s, number);
}

void Recovery::restore_from(NodeContext& ctx, const Snapshot& s, std::uint64_t number) {
  ctx.restore(s, number == 0 ? fmt::format("msglog restart from the initial state (failure {})", failure_)
                             : fmt::format("msglog restart from checkpoint {} (failure {})", number, failure_));
  exec_.restore(s);
  checkpoints_.restored(number);
  restored_ = true;
  const State& st = exec_.state();
  if (id_.optimistic()) orphans_.restored(number, st.rsn, s);
  log_.recount(ctx);
  // Every determinant the logger has is stable, and those before the checkpoint do not matter.
  dets_.restart_at(std::max(st.rsn, logger_stable_));
  request_resends(ctx);
  inbox_.accept_early(ctx);
  log_.release_held(ctx); // the checkpoint's held sends depend on deliveries it contains
  restart_delay_.pay(ctx);
  maybe_start_replay(ctx);
  auto early = std::move(early_notices_);
  early_notices_.clear();
  for (const auto& [who, n] : early) orphans_.on_notice(ctx, who, *n);
  auto asks = std::move(early_resend_);
  early_resend_.clear();
  for (const auto& [who, n] : asks) log_.on_resend_req(ctx, who, *n);
}

bool Recovery::hold_resend_req(NodeId from, const Body& b) {
  if (restored_) return false;
  // optimistic: an orphan asks a restarted process whose log is not restored yet
  early_resend_.emplace_back(from, std::make_shared<Body>(b));
  return true;
}

bool Recovery::hold_notice(NodeId from, const Body& b) {
  if (restored_) return false;
  // what it is checked against is in the checkpoint being loaded
  early_notices_.emplace_back(from, std::make_shared<Body>(b));
  return true;
}

void Recovery::on_catchup(NodeContext& ctx, NodeId from, const Body& b) {
  if (failure_ == 0 || b.get("failure") != failure_) return;
  if (id_.optimistic() && b.get("round") != exec_.epoch()) return; // asked before a later rollback of this process
  const IndexSet delivered = get_set(b);
  // What this process sent to the peer before its checkpoint and the peer never received (in
  // transfer when it died, lost with it): the re-execution starts after those sends, so they go
  // again from the restored log (a duplicate is dropped by its index). What the re-execution
  // has sent since is in the log too: a duplicate as well.
  // A fellow victim of the same failure got these re-sends already when this process answered its
  // RESEND_REQ (the same set: its restored deliveries from this process).
  if (victim_ && std::find(fellows_.begin(), fellows_.end(), from) == fellows_.end())
    ctx.stats().add("msglog.resent_lost_in_transfer", static_cast<double>(log_.resend_missing(ctx, from, delivered)));
  catchup_.record(from, delivered, b.get("resent"));
  replay_.add_peer_dets(b.dets);
  maybe_start_replay(ctx);
  inbox_.try_deliver(ctx);
  check_recovered(ctx);
}

bool Recovery::on_timer(NodeContext& ctx, int id) {
  if (!restart_delay_.end(ctx, id)) return false;
  ctx.resume_app();
  checkpoints_.arm_timer(ctx);
  maybe_start_replay(ctx);
  inbox_.try_deliver(ctx);
  check_recovered(ctx);
  return true;
}

void Recovery::on_app_finished(NodeContext& ctx) {
  app_done_ = true;
  check_recovered(ctx);
}

void Recovery::maybe_start_replay(NodeContext& ctx) {
  if (failure_ == 0 || replay_.started() || !restored_) return;
  // Causal: the determinants the logger lacks are in the peers' copies, all of which must be in.
  if (id_.causal() && !catchup_.complete()) return;
  replay_.begin(ctx, failure_, checkpoints_.kept());
  inbox_.try_deliver(ctx);
}

void Recovery::check_recovered(NodeContext& ctx) {
  if (failure_ == 0 || restart_delay_.restarting() || !replay_.started() || !replay_.done()) return;
  if (!catchup_.complete()) return;
  // The recovery ends when the re-execution has sent again every message a peer kept: the
  // oracle checks the state then. A finished application sends no more (a non-deterministic
  // re-execution may never reach the count: the oracle then reports the missing sends). Not
  // ctx.app_finished(): it is already true while the last step's sends are being made; and the
  // held sends are still to come.
  const State& st = exec_.state();
  if ((!app_done_ || !st.held.empty()) && !catchup_.covered_by(st.sent)) return;
  if (victim_)
    ctx.stats().record("msglog.recoveries", {{"failure", failure_},
                                             {"victim", id_.self()},
                                             {"rolled_back", 1},
                                             {"checkpoint", checkpoints_.kept()},
                                             {"replayed", replay_.replayed()},
                                             {"resent", catchup_.resent()},
                                             {"duration", ctx.now() - failure_date_}});
  ctx.trace_event(
      1, "msglog_recovered",
      {{"failure", failure_}, {"replayed", replay_.replayed()}, {"resent", catchup_.resent()}, {"orphan", !victim_}});
  ctx.recovered(failure_);
  failure_ = 0;
  victim_ = false;
  fellows_.clear();
  have_replay_ = false;
  catchup_.reset();
  replay_.reset();
  inbox_.try_deliver(ctx);
}

void Recovery::start_round(NodeContext& ctx) {
  catchup_.reset();
  request_resends(ctx);
}

void Recovery::request_resends(NodeContext& ctx) {
  for (NodeId q = 0; q < id_.nodes(); q++) {
    if (q == id_.self()) continue;
    auto b = std::make_shared<Body>();
    b->inc = exec_.epoch();
    b->ints = {{"failure", failure_}};
    put_set(*b, exec_.state().delivered[q]);
    ctx.send_control(q, control(Msg::ResendReq, b));
  }
}

} // namespace ckptsim::msglog
