/* Application messages under independent checkpointing. A message to another unit carries the
 * sender unit's epoch and interval and its index on the channel; the sender logs it. The
 * receiver drops the orphans of a rolled-back sender (sent in an interval its rollback undid),
 * delivers each channel in index order (an early message waits for the gap to fill, a message
 * already delivered is a duplicate) and raises D[sender unit] to the interval. Messages inside a
 * cluster unit carry the unit's epoch only. */
#include "protocols/independent/process.hpp"

#include <fmt/format.h>

namespace ckptsim::independent {

Process::Process(const Units& units, NodeId self, NodeId manager)
    : units_(units)
    , self_(self)
    , unit_(units.unit_of(self))
    , manager_(manager)
    , leader_(units.leader(units.unit_of(self)) == self)
    , members_(static_cast<int>(units.members(units.unit_of(self)).size())) {
  cur_.deps.assign(static_cast<std::size_t>(units.count()), -1);
  epochs_.assign(static_cast<std::size_t>(units.count()), 0);
  history_.resize(static_cast<std::size_t>(units.count()));
}

void Process::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const Body& b = body(msg);
  switch (control_kind<Msg>(msg)) {
  case Msg::Init:
    return on_init(ctx, b);
  case Msg::Flush:
    return on_flush(ctx, b);
  case Msg::Ack:
    return on_ack(ctx, from, b);
  case Msg::Commit:
    return on_commit(ctx, b);
  case Msg::RecoverReq:
    return on_recover_req(ctx, b);
  case Msg::Rollback:
    return on_rollback(ctx, b);
  case Msg::Gc:
    return on_gc(ctx, b);
  case Msg::CkptRecord:
  case Msg::State:
  case Msg::Restarted:
    break; // the recovery manager's
  }
  unexpected_control("independent", msg);
}

void Process::on_gc(NodeContext& ctx, const Body& b) {
  // Checkpoints below the line can never be restored; log entries whose delivery the receiver's
  // checkpoint on the line holds can never be asked for again.
  for (auto it = stored_.begin(); it != stored_.end() && *it < b.line[static_cast<std::size_t>(unit_)];) {
    ctx.discard_checkpoint(static_cast<std::uint64_t>(*it));
    it = stored_.erase(it);
  }
  for (const auto& [receiver, below] : b.channels) {
    auto log = cur_.log.find(receiver);
    if (log == cur_.log.end()) continue;
    for (auto e = log->second.begin(); e != log->second.end() && e->first < below;) e = log->second.erase(e);
  }
  count_log(ctx);
}

void Process::update_app(NodeContext& ctx) {
  const bool hold = part_.number != 0 || holding_ || loading_ || restarting() || !waiting_for_.empty();
  if (hold)
    ctx.pause_app();
  else
    ctx.resume_app();
}

bool Process::idle() const {
  if (part_.number != 0 || round_.number != 0 || recovering() || !waiting_for_.empty()) return false;
  return held_.empty() && early_intra_.empty() && resend_from_.empty() && early_.empty();
}

void Process::on_app_send(NodeContext& ctx, const AppMessage& msg) {
  auto pb = std::make_shared<Piggyback>();
  pb->epoch = epochs_[static_cast<std::size_t>(unit_)];
  if (units_.unit_of(msg.dst) == unit_) {
    ctx.send_app(msg, pb);
    return;
  }
  pb->inter = true;
  pb->interval = cur_.interval;
  pb->index = cur_.sent[msg.dst]++;
  cur_.log[msg.dst][pb->index] = LogEntry{msg, pb};
  count_log(ctx);
  ctx.send_app(msg, pb);
}

void Process::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  if (holding_ || loading_ || restarting()) { // the recovery decides what becomes of it
    held_.emplace_back(msg, pb);
    return;
  }
  const auto& p = static_cast<const Piggyback&>(*pb);
  if (p.inter) {
    receive_inter(ctx, msg, pb);
    return;
  }
  const std::uint64_t mine = epochs_[static_cast<std::size_t>(unit_)];
  if (p.epoch < mine) { // sent by an execution of this unit that a rollback undid
    ctx.stats().add("independent.stale_dropped");
  } else if (p.epoch > mine) { // sent after a rollback of this unit this node has not applied yet
    early_intra_.emplace_back(msg, pb);
  } else {
    ctx.deliver(msg, pb);
  }
}

bool Process::orphan(int unit, std::uint64_t epoch, std::int64_t interval) const {
  for (const auto& [after, restored] : history_[static_cast<std::size_t>(unit)])
    if (after > epoch && interval >= restored) return true;
  return false;
}

void Process::receive_inter(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  const auto& p = static_cast<const Piggyback&>(*pb);
  const int from = units_.unit_of(msg.src);
  if (p.epoch > epochs_[static_cast<std::size_t>(from)]) {
    // Its sender applied a rollback this node has not heard of: it waits for the next order.
    held_.emplace_back(msg, pb);
    return;
  }
  if (orphan(from, p.epoch, p.interval)) {
    ctx.stats().add("independent.orphans_dropped");
    ctx.trace_event(1, "orphan_dropped",
                    {{"src", msg.src}, {"seq", msg.seq}, {"interval", p.interval}, {"epoch", p.epoch}});
    return;
  }
  // A re-send may bring an index twice: the first copy is kept.
  const auto filed = early_.file(msg.src, p.index, cur_.expected[msg.src], {msg, pb});
  if (filed == Arrivals::Filed::Delivered) {
    ctx.stats().add("independent.duplicates_dropped");
    return;
  }
  deliver_ready(ctx, msg.src);
}

void Process::deliver_ready(NodeContext& ctx, NodeId src) {
  std::uint64_t& next = cur_.expected[src];
  while (auto item = early_.take(src, next)) {
    auto [msg, pb] = std::move(*item);
    next++;
    const auto& p = static_cast<const Piggyback&>(*pb);
    auto& d = cur_.deps[static_cast<std::size_t>(units_.unit_of(src))];
    d = std::max(d, p.interval);
    ctx.deliver(msg, pb);
  }
}

void Process::purge_orphans(NodeContext& ctx) {
  early_.drop_if([&](NodeId src, const auto& item) {
    const auto& p = static_cast<const Piggyback&>(*item.second);
    const bool gone = orphan(units_.unit_of(src), p.epoch, p.interval);
    if (gone) ctx.stats().add("independent.orphans_dropped");
    return gone;
  });
}

void Process::count_log(NodeContext& ctx) {
  // The shared log levels (log.entries / log.bytes): a restarted node's level replaces its dead
  // incarnation's, so a restored log is not counted twice.
  double bytes = 0;
  std::size_t entries = 0;
  for (const auto& [dst, log] : cur_.log)
    for (const auto& [index, e] : log) {
      bytes += e.msg.size;
      entries++;
    }
  count_logged(ctx.stats(), self_, static_cast<double>(entries), bytes);
}

} // namespace ckptsim::independent
