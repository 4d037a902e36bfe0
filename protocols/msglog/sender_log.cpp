#include "protocols/msglog/sender_log.hpp"

#include "protocols/msglog/determinants.hpp"
#include "protocols/msglog/inbox.hpp"
#include "protocols/msglog/recovery.hpp"

namespace ckptsim::msglog {

void SenderLog::on_app_send(NodeContext& ctx, const AppMessage& msg) {
  State& st = exec_.state();
  ctx.stats().add("msglog.sends");
  // Pessimistic: nothing leaves that depends on a delivery whose determinant is not stable; the
  // held sends keep their order (a later send may not overtake an earlier held one).
  if (id_.pessimistic() && (dets_.stable() < st.rsn || !st.held.empty())) {
    st.held.push_back({msg, st.rsn, ctx.now()});
    ctx.stats().add("msglog.held");
    return;
  }
  send_now(ctx, msg, st.rsn);
}

std::shared_ptr<Piggyback> SenderLog::piggyback(std::uint64_t idx, std::uint64_t rsn, NodeId dst) const {
  auto pb = std::make_shared<Piggyback>();
  pb->idx = idx;
  pb->epoch = exec_.epoch();
  pb->rsn = rsn;
  if (id_.causal()) {
    pb->causal = true;
    dets_.fill(*pb, dst);
  }
  return pb;
}

void SenderLog::send_now(NodeContext& ctx, const AppMessage& msg, std::uint64_t rsn) {
  State& st = exec_.state();
  // The channel index a re-execution gives the message again: with eager sends its rank in send
  // order; with rendezvous sends, whose order depends on when receivers post (a re-executed
  // sender's receivers are ahead, so it may send in another order), its rank in production order.
  auto& sent = st.sent[msg.dst];
  const std::uint64_t idx = msg.chan ? *msg.chan : sent.next();
  sent.insert(idx);
  st.log[msg.dst].push_back({msg, idx, rsn});
  entries_ += 1;
  bytes_ += msg.size;
  account(ctx);
  auto pb = piggyback(idx, rsn, msg.dst);
  if (id_.causal()) {
    ctx.stats().add("msglog.piggyback_dets", static_cast<double>(pb->dets.size()));
    ctx.stats().add("msglog.piggyback_bytes", pb->bytes());
  }
  ctx.send_app(msg, std::move(pb));
  recovery_.check_recovered(ctx); // a re-execution is over once it has sent again what peers kept
}

void SenderLog::release_held(NodeContext& ctx) {
  auto& held = exec_.state().held;
  while (!held.empty() && held.front().rsn <= dets_.stable()) {
    const HeldSend h = held.front();
    held.pop_front();
    const double waited = ctx.now() - h.since;
    ctx.stats().add("msglog.hold_time", waited);
    ctx.stats().max("msglog.hold_max", waited);
    send_now(ctx, h.msg, h.rsn); // it depends on the deliveries before the application sent it
  }
}

void SenderLog::on_gc(NodeContext& ctx, NodeId from, const Body& b) {
  auto& log = exec_.state().log;
  auto it = log.find(from);
  if (it == log.end()) return;
  const IndexSet delivered = get_set(b);
  const std::size_t dropped = std::erase_if(it->second, [&](const LogEntry& e) {
    if (!delivered.contains(e.idx)) return false;
    entries_ -= 1;
    bytes_ -= e.msg.size;
    return true;
  });
  ctx.stats().add("msglog.log_gc_dropped", static_cast<double>(dropped));
  account(ctx);
}

std::uint64_t SenderLog::resend_missing(NodeContext& ctx, NodeId to, const IndexSet& delivered) {
  std::uint64_t resent = 0;
  for (const auto& e : exec_.state().log[to]) {
    if (delivered.contains(e.idx)) continue;
    ctx.resend_app(e.msg, piggyback(e.idx, e.rsn, to));
    resent++;
  }
  return resent;
}

void SenderLog::on_resend_req(NodeContext& ctx, NodeId from, const Body& b) {
  // What its failed incarnation sent and this process has not delivered: its re-execution sends
  // it again.
  inbox_.peer_restarted(from, b.inc);
  const std::uint64_t resent = resend_missing(ctx, from, get_set(b));
  ctx.stats().add("msglog.resent", static_cast<double>(resent));
  auto c = std::make_shared<Body>();
  c->inc = exec_.epoch();
  c->ints = {{"failure", b.get("failure")}, {"resent", resent}, {"round", b.inc}};
  put_set(*c, exec_.state().delivered[from]);
  if (id_.causal()) {
    c->dets = dets_.copies_of(from);
    // A fellow victim of the same failure lost its volatile copies: those its checkpoint saved
    // are the ones its restored state depends on (the causal invariant), which the requester's
    // replay must reach.
    if (recovery_.victim())
      if (auto it = exec_.state().copies.find(from); it != exec_.state().copies.end())
        for (const auto& [rsn, d] : it->second) c->dets.push_back(d);
  }
  ctx.send_control(from, control(Msg::Catchup, c));
  // Nothing to undo here, unless this process is a victim of the failure too: it reports once
  // its own replay and catch-up are over (Recovery::check_recovered).
  if (!recovery_.victim()) ctx.recovered(b.get("failure"));
}

void SenderLog::recount(NodeContext& ctx) {
  entries_ = 0;
  bytes_ = 0;
  for (const auto& [dst, list] : exec_.state().log) {
    entries_ += static_cast<double>(list.size());
    for (const auto& e : list) bytes_ += e.msg.size;
  }
  account(ctx);
}

void SenderLog::account(NodeContext& ctx) const { count_logged(ctx.stats(), id_.self(), entries_, bytes_); }

} // namespace ckptsim::msglog
