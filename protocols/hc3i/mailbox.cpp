/* HC3I: the application messages of a node (mailbox.hpp). */
#include "protocols/hc3i/mailbox.hpp"
#include "protocols/hc3i/leader.hpp"
#include "protocols/hc3i/participant.hpp"
#include "protocols/hc3i/recovery.hpp"

#include <fmt/format.h>

namespace ckptsim::hc3i {

std::shared_ptr<const ChannelCounts> Mailbox::saved_counts() { return shared_copy(saved_, counts_); }

void Mailbox::restore(std::shared_ptr<const ChannelCounts> c) {
  counts_ = c ? *c : ChannelCounts{};
  saved_ = std::move(c);
}

void Mailbox::on_app_send(NodeContext& ctx, const AppMessage& msg) {
  const int to = place_.cluster_of(msg.dst);
  auto pb = std::make_shared<Piggyback>();
  pb->epoch = deps_.epoch();
  if (to == place_.cluster()) {
    counts_.sent[msg.dst]++;
    ctx.send_app(msg, pb);
    return;
  }
  pb->inter = true;
  pb->sn = deps_.sn();
  pb->view = deps_.known_epoch(to);
  if (transitive_) pb->ddv = deps_.ddv();
  pb->idx = counts_.inter_sent[msg.dst]++;
  log_.record(ctx, LogEntry{msg, deps_.sn(), deps_.epoch(), to, std::nullopt, pb->ddv, 0, deps_.epoch(), pb->idx});
  ctx.send_app(msg, pb);
}

void Mailbox::on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  const auto& p = static_cast<const Piggyback&>(*pb);
  if (p.inter) {
    inbox_.emplace_back(msg, pb);
    process_inbox(ctx);
    return;
  }
  if (p.epoch < deps_.epoch()) { // sent by an execution that a rollback of this cluster undid
    ctx.stats().add("hc3i.stale_dropped");
    return;
  }
  if (p.epoch > deps_.epoch() || recovery_.state_pending()) { // after a rollback not applied here yet
    early_intra_.emplace_back(msg, pb);
    return;
  }
  deliver_intra(ctx, msg, pb);
}

void Mailbox::deliver_intra(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  counts_.received[msg.src]++;
  ctx.deliver(msg, pb);
  participant_.check_drained(ctx);
}

void Mailbox::process_early_intra(NodeContext& ctx) {
  auto early = std::move(early_intra_);
  early_intra_.clear();
  for (auto& [msg, pb] : early) on_app_receive(ctx, msg, pb);
}

void Mailbox::process_inbox(NodeContext& ctx) {
  while (!inbox_.empty()) {
    if (participant_.active() || recovery_.state_pending()) return; // queued until the commit / rollback
    const AppMessage msg = inbox_.front().first;
    const PayloadPtr pb = inbox_.front().second;
    const auto& p = static_cast<const Piggyback&>(*pb);
    const int from = place_.cluster_of(msg.src);
    // A rollback this node has not heard of yet: the sender's cluster's (its alert is on the way),
    // or this cluster's (the message is a re-send answering it).
    if (p.epoch > deps_.known_epoch(from) || p.view > deps_.epoch()) return;
    if (p.view < deps_.epoch()) {
      // Sent to an execution of this cluster that a rollback undid, before its sender heard of
      // it: not acknowledged, so the sender re-sends it on our alert, in order with the
      // messages before it whose delivery the rollback undid.
      inbox_.pop_front();
      ctx.stats().add("hc3i.superseded_dropped");
      continue;
    }
    if (deps_.orphan(from, p.epoch, p.sn)) {
      inbox_.pop_front();
      ctx.stats().add("hc3i.orphans_dropped");
      ctx.trace_event(1, "orphan_dropped", {{"src", msg.src}, {"seq", msg.seq}, {"sn", p.sn}, {"epoch", p.epoch}});
      continue;
    }
    // Delivered already (a re-send): by its channel index, not by order, since a sender's
    // rendezvous messages may leave out of order (a later one of another tag first).
    if (auto d = counts_.inter_delivered.find(msg.src);
        d != counts_.inter_delivered.end() && d->second.contains(p.idx)) {
      inbox_.pop_front();
      ctx.stats().add("hc3i.duplicates_dropped");
      acknowledge(ctx, msg, p.epoch);
      continue;
    }
    if (needs_forced_clc(deps_.ddv(), from, p.sn)) {
      if (force_asked_.insert({from, p.sn}).second) {
        ctx.trace_event(1, "clc_forced",
                        {{"cluster", place_.cluster()},
                         {"from", from},
                         {"sn", p.sn},
                         {"ddv", deps_.ddv()},
                         {"src", msg.src},
                         {"seq", msg.seq},
                         {"label", msg.label}});
        auto f = std::make_shared<Body>();
        f->ints = {{"cluster", static_cast<std::uint64_t>(from)}, {"sn", p.sn}};
        f->ddv = p.ddv;
        if (place_.is_leader())
          leader_.on_force(ctx, *f);
        else
          ctx.send_control(place_.leader(), control(Msg::ClcForce, f));
      }
      return;
    }
    inbox_.pop_front();
    counts_.inter_delivered[msg.src].insert(p.idx);
    ctx.deliver(msg, pb);
    acknowledge(ctx, msg, p.epoch);
  }
}

void Mailbox::acknowledge(NodeContext& ctx, const AppMessage& msg, std::uint64_t sender_epoch) const {
  auto a = std::make_shared<Body>();
  a->ints = {{"seq", msg.seq}, {"sn", deps_.sn()}, {"epoch", deps_.epoch()}, {"sender_epoch", sender_epoch}};
  ctx.send_control(msg.src, control(Msg::LogAck, a));
}

void Mailbox::drop_inbox(std::uint64_t keep_from_view) {
  // A message sent once its sender knew of this rollback (its view of our cluster is the new
  // epoch or later) belongs to the execution after it: it may be the very re-send answering our
  // alert, which reached this node before its cluster's rollback order did (a delayed order: a
  // failed link). Nobody would send it again: it stays, and is handled after the rollback.
  std::erase_if(inbox_, [keep_from_view](const auto& held) {
    return static_cast<const Piggyback&>(*held.second).view < keep_from_view;
  });
  force_asked_.clear();
}

std::string Mailbox::pending() const {
  if (inbox_.empty()) return {};
  return fmt::format("{}: {} inter-cluster message(s) held", place_.name(place_.self()), inbox_.size());
}

} // namespace ckptsim::hc3i
