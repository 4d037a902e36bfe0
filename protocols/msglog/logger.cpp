#include "protocols/msglog/logger.hpp"

#include <stdexcept>

namespace ckptsim::msglog {

void EventLogger::on_restart(NodeContext& /*ctx*/, const FailureNotice& /*own*/) {
  throw std::logic_error("msglog: the event logger runs on the controller, which never fails");
}

void EventLogger::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const Body& b = body(msg);
  Proc& p = procs_.at(static_cast<std::size_t>(from));
  if (b.inc < p.inc) return; // from an incarnation that failed since
  p.inc = b.inc;
  switch (control_kind<Msg>(msg)) {
  case Msg::Det:
    return on_det(ctx, from, b);
  case Msg::CkptDone:
    return on_ckpt_done(ctx, from, b);
  case Msg::ReplayReq:
    return on_replay_req(ctx, from, b);
  case Msg::RollbackNotice:
    return on_notice(ctx, from, b);
  case Msg::DetAck:
  case Msg::CkptAck:
  case Msg::LogGc:
  case Msg::Replay:
  case Msg::ResendReq:
  case Msg::Catchup:
    break; // the processes'
  }
  unexpected_control("msglog", msg);
}

void EventLogger::on_det(NodeContext& ctx, NodeId from, const Body& b) {
  Proc& p = procs_[static_cast<std::size_t>(from)];
  for (const Det& d : b.dets)
    if (d.rsn > p.ckpt_rsn) p.dets[d.rsn] = d;
  while (p.dets.count(p.stable + 1)) p.stable++;
  account(ctx, from);
  auto a = std::make_shared<Body>();
  a->inc = b.inc;
  a->ints = {{"stable", p.stable}};
  ctx.send_control(from, control(Msg::DetAck, a));
}

void EventLogger::on_ckpt_done(NodeContext& ctx, NodeId from, const Body& b) {
  Proc& p = procs_[static_cast<std::size_t>(from)];
  if (b.get("number") > p.number) {
    p.number = b.get("number");
    p.ckpt_rsn = b.get("rsn");
    const auto before = p.dets.size();
    std::erase_if(p.dets, [&](const auto& item) { return item.first <= p.ckpt_rsn; });
    ctx.stats().add("msglog.dets_collected", static_cast<double>(before - p.dets.size()));
    p.stable = std::max(p.stable, p.ckpt_rsn);
    while (p.dets.count(p.stable + 1)) p.stable++;
    account(ctx, from);
  }
  auto a = std::make_shared<Body>();
  a->inc = b.inc;
  a->ints = {{"number", b.get("number")}};
  ctx.send_control(from, control(Msg::CkptAck, a));
}

void EventLogger::on_replay_req(NodeContext& ctx, NodeId from, const Body& b) {
  Proc& p = procs_[static_cast<std::size_t>(from)];
  // What is beyond the stable prefix is lost with the process (optimistic: it is undone).
  std::erase_if(p.dets, [&](const auto& item) { return item.first > p.stable; });
  account(ctx, from);
  const bool optimistic = b.get("optimistic") != 0;
  if (optimistic) notices_.push_back(Det{from, -1, b.inc, p.stable}); // the restarted process announces it too
  auto a = std::make_shared<Body>();
  a->inc = b.inc;
  a->ints = {{"number", p.number}, {"rsn", p.ckpt_rsn}, {"stable", p.stable}};
  for (const auto& [rsn, d] : p.dets)
    if (rsn <= p.stable) a->dets.push_back(d);
  // optimistic: the rollbacks announced so far, as determinants of no source (owner, epoch in
  // idx, target rsn), so the restarted process drops their undone messages still on the wire.
  if (optimistic)
    for (const Det& n : notices_)
      if (n.owner != from) a->dets.push_back(n);
  ctx.send_control(from, control(Msg::Replay, a));
}

void EventLogger::on_notice(NodeContext& ctx, NodeId from, const Body& b) {
  // optimistic: an orphan went back to checkpoint "number" and replays up to "target": its
  // determinants after the checkpoint come again with the replay.
  Proc& p = procs_[static_cast<std::size_t>(from)];
  notices_.push_back(Det{from, -1, b.inc, b.get("target")});
  p.number = b.get("number");
  p.ckpt_rsn = b.get("rsn");
  std::erase_if(p.dets, [&](const auto& item) { return item.first <= p.ckpt_rsn || item.first > b.get("target"); });
  p.stable = p.ckpt_rsn;
  while (p.dets.count(p.stable + 1)) p.stable++;
  account(ctx, from);
}

void EventLogger::account(NodeContext& ctx, NodeId p) {
  ctx.stats().level("msglog.dets_held", p, static_cast<double>(procs_[static_cast<std::size_t>(p)].dets.size()));
}

} // namespace ckptsim::msglog
