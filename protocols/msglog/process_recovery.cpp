/* msglog process: the recovery of a failed process alone. The restarted process asks the logger
 * for its checkpoint and the determinants after it (REPLAY_REQ), restores the checkpoint, asks
 * every peer to re-send what it logged for it (RESEND_REQ), replays its deliveries in the logged
 * order, and reports its recovery once its re-execution has also re-sent every message a peer
 * kept (CATCHUP). A peer re-sends, answers, and has nothing to undo. */
#include "protocols/msglog/process.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace ckptsim::msglog {

void Process::on_restart(NodeContext& ctx, const FailureNotice& own) {
  epoch_ = optimistic() ? ctx.incarnation() * kEpochStride : ctx.incarnation();
  victim_ = true;
  period_ = ctx.timer_period("checkpoint_period");
  failure_ = own.id;
  failure_date_ = own.date;
  restored_ = false;
  restart_delay_.begin();
  recount_log(); // nothing: the volatile log died with the process
  account_log(ctx);
  account_dets(ctx);
  auto b = std::make_shared<Body>();
  b->inc = epoch_;
  b->ints = {{"failure", own.id}};
  if (optimistic()) b->ints["optimistic"] = 1; // the answer also lists the rollbacks announced so far
  ctx.send_control(logger_, control(Msg::ReplayReq, b));
}

void Process::on_replay(NodeContext& ctx, const Body& b) {
  if (restored_ || have_replay_) return;
  have_replay_ = true;
  logger_dets_.clear();
  for (const Det& d : b.dets) {
    if (d.src >= 0) {
      logger_dets_.push_back(d);
      continue;
    }
    // optimistic: a rollback announced before this process restarted (owner, epoch, target),
    // which tells its undone messages still on the wire apart.
    notices_seen_.insert({d.owner, d.idx});
    notices_.push_back({d.owner, d.idx, d.rsn});
    auto& known = known_epoch_[d.owner];
    known = std::max(known, d.idx);
  }
  logger_stable_ = b.get("stable");
  if (optimistic()) {
    // Its deliveries after the stable prefix are lost: whoever depends on them is an orphan.
    ctx.trace_event(1, "rollback_notice", {{"failure", failure_}, {"epoch", epoch_}, {"target", logger_stable_}});
    for (NodeId q = 0; q < nodes_; q++) {
      if (q == self_) continue;
      auto n = std::make_shared<Body>();
      n->inc = epoch_;
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

void Process::on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) {
  if (restored_) return;
  restore_from(ctx, s, number);
}

void Process::restore_from(NodeContext& ctx, const Snapshot& s, std::uint64_t number) {
  ctx.restore(s, number == 0 ? fmt::format("msglog restart from the initial state (failure {})", failure_)
                             : fmt::format("msglog restart from checkpoint {} (failure {})", number, failure_));
  st_ = s.protocol.has_value() ? std::any_cast<const State&>(s.protocol) : State{};
  kept_ = number;
  max_number_ = std::max(max_number_, number);
  restored_ = true;
  if (optimistic()) {
    kept_snaps_.clear();
    kept_snaps_.push_back({number, st_.rsn, s});
  }
  recount_log();
  account_log(ctx);
  // Every determinant the logger has is stable, and those before the checkpoint do not matter.
  stable_ = std::max(st_.rsn, logger_stable_);
  request_resends(ctx);
  for (auto& a : before_restore_) accept(ctx, a.msg, a.pb);
  before_restore_.clear();
  release_held(ctx); // the checkpoint's held sends depend on deliveries it contains
  restart_delay_.pay(ctx);
  maybe_start_replay(ctx);
  auto early = std::move(early_notices_);
  early_notices_.clear();
  for (const auto& [who, n] : early) on_notice(ctx, who, *n);
  auto asks = std::move(early_resend_);
  early_resend_.clear();
  for (const auto& [who, n] : asks) on_resend_req(ctx, who, *n);
}

void Process::on_resend_req(NodeContext& ctx, NodeId from, const Body& b) {
  if (!restored_) { // optimistic: an orphan asks a restarted process whose log is not restored yet
    early_resend_.emplace_back(from, std::make_shared<Body>(b));
    return;
  }
  auto& known = known_epoch_[from];
  if (b.inc > known && !optimistic()) {
    known = b.inc;
    // What its failed incarnation sent and this process has not delivered: its re-execution
    // sends it again.
    buffer_.drop_if(from, [&](const Arrived& a) { return a.pb->epoch < known; });
  }
  const IndexSet delivered = get_set(b);
  std::uint64_t resent = 0;
  for (const auto& e : st_.log[from]) {
    if (delivered.contains(e.idx)) continue;
    ctx.resend_app(e.msg, piggyback(e.idx, e.rsn, from));
    resent++;
  }
  ctx.stats().add("msglog.resent", static_cast<double>(resent));
  auto c = std::make_shared<Body>();
  c->inc = epoch_;
  c->ints = {{"failure", b.get("failure")}, {"resent", resent}, {"round", b.inc}};
  put_set(*c, st_.delivered[from]);
  if (causal())
    if (auto it = others_.find(from); it != others_.end())
      for (const auto& [r, d] : it->second) c->dets.push_back(d);
  ctx.send_control(from, control(Msg::Catchup, c));
  ctx.recovered(b.get("failure")); // nothing to undo here
}

void Process::on_catchup(NodeContext& ctx, NodeId from, const Body& b) {
  if (failure_ == 0 || b.get("failure") != failure_) return;
  if (optimistic() && b.get("round") != epoch_) return; // asked before a later rollback of this process
  IndexSet delivered = get_set(b);
  // What this process sent to the peer before its checkpoint and the peer never received (in
  // transfer when it died, lost with it): the re-execution starts after those sends, so they go
  // again from the restored log (a duplicate is dropped by its index). What the re-execution
  // has sent since is in the log too: a duplicate as well.
  if (victim_) {
    std::uint64_t lost = 0;
    for (const auto& e : st_.log[from])
      if (!delivered.contains(e.idx)) {
        ctx.resend_app(e.msg, piggyback(e.idx, e.rsn, from));
        lost++;
      }
    ctx.stats().add("msglog.resent_lost_in_transfer", static_cast<double>(lost));
  }
  if (auto cap = caps_.find(from); cap != caps_.end()) delivered = delivered.intersection(cap->second);
  catchup_[from] = delivered;
  peers_resent_ += b.get("resent");
  peer_dets_.insert(peer_dets_.end(), b.dets.begin(), b.dets.end());
  maybe_start_replay(ctx);
  try_deliver(ctx);
  check_recovered(ctx);
}

void Process::maybe_start_replay(NodeContext& ctx) {
  if (failure_ == 0 || replay_started_ || !restored_) return;
  // Causal: the determinants the logger lacks are in the peers' copies, all of which must be in.
  if (causal() && static_cast<int>(catchup_.size()) < nodes_ - 1) return;
  std::set<std::uint64_t> from_logger;
  std::map<std::uint64_t, Det> all;
  for (const Det& d : logger_dets_) {
    if (d.rsn <= st_.rsn) continue;
    all.emplace(d.rsn, d);
    from_logger.insert(d.rsn);
  }
  for (const Det& d : peer_dets_)
    if (d.owner == self_ && d.rsn > st_.rsn) all.emplace(d.rsn, d);
  // The replay is the longest run of consecutive delivery numbers after the checkpoint: a
  // delivery no copy names was seen by nobody and may happen in any order.
  std::uint64_t next = st_.rsn + 1, peers = 0;
  for (const auto& [rsn, d] : all) {
    if (rsn != next) break;
    replay_.push_back(d);
    peers += from_logger.count(rsn) ? 0 : 1;
    next++;
  }
  replay_started_ = true;
  ctx.stats().add("msglog.replay_from_peers", static_cast<double>(peers));
  ctx.trace_event(0, "replay_begin",
                  {{"failure", failure_},
                   {"checkpoint", kept_},
                   {"rsn", st_.rsn},
                   {"determinants", replay_.size()},
                   {"from_logger", replay_.size() - peers},
                   {"from_peers", peers}});
  if (replay_.empty()) ctx.trace_event(0, "replay_end", {{"failure", failure_}, {"rsn", st_.rsn}, {"replayed", 0}});
  try_deliver(ctx);
}

void Process::check_recovered(NodeContext& ctx) {
  if (failure_ == 0 || restart_delay_.restarting() || !replay_started_ || !replay_.empty()) return;
  if (static_cast<int>(catchup_.size()) < nodes_ - 1) return;
  // The recovery ends when the re-execution has sent again every message a peer kept: the
  // oracle checks the state then. A finished application sends no more (a non-deterministic
  // re-execution may never reach the count: the oracle then reports the missing sends). Not
  // ctx.app_finished(): it is already true while the last step's sends are being made; and the
  // held sends are still to come.
  if (!app_done_ || !st_.held.empty())
    for (const auto& [q, delivered] : catchup_)
      if (!st_.sent[q].covers(delivered)) return;
  if (victim_)
    ctx.stats().record("msglog.recoveries", {{"failure", failure_},
                                             {"victim", self_},
                                             {"rolled_back", 1},
                                             {"checkpoint", kept_},
                                             {"replayed", replayed_},
                                             {"resent", peers_resent_},
                                             {"duration", ctx.now() - failure_date_}});
  ctx.trace_event(1, "msglog_recovered",
                  {{"failure", failure_}, {"replayed", replayed_}, {"resent", peers_resent_}, {"orphan", !victim_}});
  ctx.recovered(failure_);
  failure_ = 0;
  victim_ = false;
  caps_.clear();
  have_replay_ = false;
  logger_dets_.clear();
  peer_dets_.clear();
  catchup_.clear();
  peers_resent_ = 0;
  replay_started_ = false;
  replayed_ = 0;
  try_deliver(ctx);
}

} // namespace ckptsim::msglog
