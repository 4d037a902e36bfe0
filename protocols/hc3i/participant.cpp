/* HC3I: the participant side of a cluster-level checkpoint. */
#include "protocols/hc3i/participant.hpp"
#include "protocols/hc3i/leader.hpp"
#include "protocols/hc3i/mailbox.hpp"

#include <fmt/format.h>

namespace ckptsim::hc3i {

std::string ClcParticipant::pending() const {
  if (!clc_.active) return {};
  return fmt::format("{}: in CLC {} (saved: {})", place_.name(place_.self()), clc_.number, clc_.saved);
}

void ClcParticipant::on_req(NodeContext& ctx, const Body& b) {
  if (b.get("epoch") != deps_.epoch() || b.get("number") != deps_.sn() + 1) return; // from an undone execution
  clc_ = Clc{};
  clc_.active = true;
  clc_.number = b.get("number");
  clc_.epoch = b.get("epoch");
  clc_.ddv = b.ddv;
  gate_.update_app(ctx); // stops the application: nothing is sent until the commit
  auto r = std::make_shared<Body>();
  r->ints = {{"number", clc_.number}, {"epoch", clc_.epoch}};
  const auto& sent = mailbox_.counts().sent;
  r->counts.reserve(sent.size());
  for (const auto& [peer, n] : sent) r->counts.emplace_hint(r->counts.end(), peer, n); // both sorted
  if (place_.is_leader())
    leader_.on_ready(ctx, place_.self(), *r);
  else
    ctx.send_control(place_.leader(), control(Msg::ClcReady, r));
}

bool ClcParticipant::of_clc(const Body& b) const {
  return clc_.active && b.get("number") == clc_.number && b.get("epoch") == clc_.epoch;
}

void ClcParticipant::on_save(NodeContext& ctx, const Body& b) {
  if (!of_clc(b)) return;
  clc_.expected.reserve(b.counts.size());
  for (const auto& [peer, n] : b.counts) clc_.expected.emplace_hint(clc_.expected.end(), static_cast<NodeId>(peer), n);
  clc_.have_expected = true;
  check_drained(ctx);
}

void ClcParticipant::check_drained(NodeContext& ctx) {
  if (!clc_.active || !clc_.have_expected || clc_.drained) return;
  // Both sorted by peer: one walk.
  const auto& received = mailbox_.counts().received;
  auto it = received.begin();
  for (const auto& [peer, n] : clc_.expected) {
    while (it != received.end() && it->first < peer) ++it;
    if ((it == received.end() || it->first != peer ? 0 : it->second) < n) return;
  }
  clc_.drained = true;
  // The state a rollback to this CLC restores: its SN, and the dependencies of what it has
  // delivered (the DDV before the merge: the message that forced this CLC is not delivered yet).
  SavedState st;
  st.sn = clc_.number;
  st.ddv = deps_.intern(deps_.base_ddv(clc_.number));
  st.channels = mailbox_.saved_counts();
  st.log = log_.saved_copy();
  ctx.save_checkpoint(clc_.number, ctx.snapshot(std::move(st)));
}

void ClcParticipant::on_saved(NodeContext& ctx, std::uint64_t number) {
  if (!clc_.active || !clc_.drained || clc_.saved || number != clc_.number) return; // an aborted CLC's save
  clc_.saved = true;
  auto a = std::make_shared<Body>();
  a->ints = {{"number", number}, {"epoch", clc_.epoch}};
  if (place_.is_leader())
    leader_.on_ack(ctx, *a);
  else
    ctx.send_control(place_.leader(), control(Msg::ClcAck, a));
}

void ClcParticipant::on_commit(NodeContext& ctx, const Body& b) {
  if (!of_clc(b)) return;
  SharedDdv base = deps_.intern(deps_.base_ddv(clc_.number));
  deps_.commit(StoredClc{clc_.number, clc_.ddv, b.get("forced") != 0, std::move(base)});
  clc_ = Clc{};
  mailbox_.forget_force_requests();
  deps_.record_storage(ctx);
  gate_.update_app(ctx);
  mailbox_.process_inbox(ctx);
}

std::optional<StoredClc> ClcParticipant::abort(NodeContext& ctx, bool keep_saved) {
  std::optional<StoredClc> in_doubt;
  if (keep_saved && clc_.active && clc_.saved) {
    // Saved and acknowledged: the leader may have had every acknowledgement and committed before
    // it heard of the failure (the two-phase commit's in-doubt participant). The recovery
    // leader's order says which (Recovery::rollback_to). Whether the CLC was forced only the
    // commit says: kept as unforced.
    in_doubt = StoredClc{clc_.number, clc_.ddv, false, deps_.intern(deps_.base_ddv(clc_.number))};
  } else if (clc_.active && clc_.drained) {
    ctx.discard_checkpoint(clc_.number);
  }
  clc_ = Clc{};
  return in_doubt;
}

} // namespace ckptsim::hc3i
