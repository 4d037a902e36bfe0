#include "protocols/msglog/inbox.hpp"

#include "protocols/msglog/determinants.hpp"
#include "protocols/msglog/orphans.hpp"
#include "protocols/msglog/recovery.hpp"
#include "protocols/msglog/replay.hpp"

#include <optional>
#include <stdexcept>

namespace ckptsim::msglog {

void Inbox::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  auto p = std::dynamic_pointer_cast<const Piggyback>(pb);
  if (!p) throw std::logic_error("msglog: an application message without its piggyback");
  if (!recovery_.restored()) { // the channel indices it is checked against are in the checkpoint
    before_restore_.push_back({msg, p});
    return;
  }
  accept(ctx, msg, p);
  try_deliver(ctx);
}

void Inbox::accept_early(NodeContext& ctx) {
  for (auto& a : before_restore_) accept(ctx, a.msg, a.pb);
  before_restore_.clear();
}

void Inbox::accept(NodeContext& ctx, const AppMessage& msg, const std::shared_ptr<const Piggyback>& pb) {
  const NodeId src = msg.src;
  if (id_.optimistic()) {
    // An epoch is not enough: what an older epoch sent up to the announced target is kept (the
    // sender's re-execution may not send it again); only undone intervals are dropped.
    if (orphans_.undone(src, pb->epoch, pb->rsn)) {
      ctx.stats().add("msglog.stale");
      return;
    }
  } else {
    auto& known = known_epoch_[src];
    if (pb->epoch < known) { // sent by an incarnation that failed since: its re-execution re-sends
      ctx.stats().add("msglog.stale");
      return;
    }
    if (pb->epoch > known) {
      known = pb->epoch;
      buffer_.drop_if(src, [&](const Arrived& a) { return a.pb->epoch < known; });
    }
  }
  const IndexSet& delivered = exec_.state().delivered[src];
  if (delivered.contains(pb->idx) ||
      buffer_.file(src, pb->idx, delivered.next(), Arrived{msg, pb}) != Arrivals::Filed::Held)
    ctx.stats().add("msglog.duplicates");
}

void Inbox::peer_restarted(NodeId from, std::uint64_t inc) {
  if (id_.optimistic()) return; // an undone interval is told by the notices, not by an epoch
  auto& known = known_epoch_[from];
  if (inc <= known) return;
  known = inc;
  buffer_.drop_if(from, [&](const Arrived& a) { return a.pb->epoch < known; });
}

std::size_t Inbox::drop_undone(NodeId who) {
  return buffer_.drop_if(who, [&](const Arrived& a) { return orphans_.undone(who, a.pb->epoch, a.pb->rsn); });
}

void Inbox::try_deliver(NodeContext& ctx) {
  if (!recovery_.restored() || recovery_.restarting()) return;
  if (recovery_.active() && !replay_.started()) return; // the replay order is not known yet
  State& st = exec_.state();
  while (true) {
    if (!replay_.done()) {
      const Det d = replay_.next();
      if (st.delivered[d.src].contains(d.idx) || d.rsn != st.rsn + 1)
        throw std::logic_error("msglog: a determinant names a delivered message or does not follow the delivery order");
      std::optional<Arrived> a = buffer_.take(d.src, d.idx);
      if (!a) return; // its sender has not re-sent it yet
      replay_.pop(ctx);
      deliver(ctx, a->msg, a->pb, true);
      if (replay_.done()) {
        replay_.trace_end(ctx, recovery_.failure());
        recovery_.check_recovered(ctx);
      }
      continue;
    }
    // Normal delivery: any message whose turn it is on its channel (every message its sender sent
    // before it is delivered), lowest source first.
    std::optional<Arrived> a;
    for (NodeId src : buffer_.senders()) {
      const IndexSet& delivered = st.delivered[src];
      if ((a = buffer_.take_first(
               src, [&](std::uint64_t idx, const Arrived& x) { return delivered.all_below(idx, x.msg.overtook); })))
        break;
    }
    if (!a) return;
    deliver(ctx, a->msg, a->pb, false);
  }
}

void Inbox::deliver(NodeContext& ctx, const AppMessage& msg, const std::shared_ptr<const Piggyback>& pb,
                    bool replayed) {
  State& st = exec_.state();
  st.delivered[msg.src].insert(pb->idx);
  st.rsn++;
  const Det d{id_.self(), msg.src, pb->idx, st.rsn};
  ctx.deliver(msg, pb);
  if (id_.optimistic()) orphans_.record_delivery(d, pb->epoch, pb->rsn);
  dets_.on_delivered(ctx, d, *pb, replayed);
}

} // namespace ckptsim::msglog
