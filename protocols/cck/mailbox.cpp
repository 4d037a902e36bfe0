#include "protocols/cck/mailbox.hpp"

#include "protocols/cck/messages.hpp"
#include "protocols/cck/restart.hpp"

namespace ckptsim::cck {

void Mailbox::send(NodeContext& ctx, const AppMessage& msg) {
  replay_.send(ctx, msg, std::make_shared<Piggyback>(checkpoints_.last_saved(), lives_.life()));
}

void Mailbox::receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  const auto& p = static_cast<const Piggyback&>(*pb);
  if (lives_.stale(msg.src, p.life)) {
    ctx.stats().add("cck.stale_dropped"); // sent by an incarnation that died
    return;
  }
  // Sent after its sender's save of a wave this process has not saved yet (no such message is
  // held during a restart: the wave was aborted, and the flush needs it received).
  if (p.wave > checkpoints_.last_saved() && !restart_.active()) {
    held_.emplace_back(msg, pb);
    ctx.stats().add("cck.held");
    return;
  }
  deliver(ctx, msg, pb);
}

void Mailbox::deliver(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  const Tag tag = static_cast<Tag>(msg.seq);
  if (wl_.received(ctx.app_state(), tag)) { // would be a protocol bug: kept visible
    ctx.stats().add("cck.duplicates");
    ctx.trace_event(0, "cck_duplicate", {{"tag", tag}, {"from", msg.src}});
    return;
  }
  replay_.deliver(ctx, msg, pb);
}

void Mailbox::deliver_held(NodeContext& ctx) {
  auto held = std::move(held_);
  held_.clear();
  for (auto& [msg, pb] : held) receive(ctx, msg, pb);
}

} // namespace ckptsim::cck
