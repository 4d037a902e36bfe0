/* Cluster-level checkpoints. The report's two-phase commit (request, acknowledgements, commit)
 * with one more round so that no intra-cluster message is in transit across the CLC: on the
 * request (CLC_REQ) every node stops its application and answers CLC_READY with how many
 * messages it sent to each peer; the leader tells each node how many it must have received
 * (CLC_SAVE); a node saves (own memory + buddy) once it has them all and acknowledges (CLC_ACK);
 * after every acknowledgement the leader commits (CLC_COMMIT). Inter-cluster messages arriving
 * meanwhile are queued and delivered after the commit. 5 (n - 1) messages per CLC in a cluster of
 * n nodes (the leader's messages to itself are local calls). */
#include "protocols/hc3i/node.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim::hc3i {

void Node::maybe_start_clc(NodeContext& ctx) {
  if (!place_.is_leader() || round_.active || loading_ || waiting_order_ || restarting() || failure_ != 0 ||
      !alerts_.empty())
    return;
  if (deps_.sn() == 0 || clc_wanted_ || timer_due_) start_clc(ctx);
}

void Node::start_clc(NodeContext& ctx) {
  round_ = Round{};
  round_.active = true;
  round_.number = deps_.sn() + 1;
  round_.initial = deps_.sn() == 0;
  round_.ddv = deps_.ddv();
  for (int c = 0; c < place_.clusters(); c++) {
    if (c == place_.cluster()) continue;
    if (wanted_[c] > deps_.ddv()[c]) round_.forced = true;
    round_.ddv[c] = std::max(round_.ddv[c], wanted_[c]);
  }
  round_.ddv[place_.cluster()] = round_.number;
  round_.started = ctx.now();
  clc_wanted_ = false;
  timer_due_ = false;
  kClcTimer.cancel(ctx);
  ctx.trace_event(1, "ckpt_begin",
                  {{"unit", place_.layout().cluster(place_.cluster()).name},
                   {"cluster", place_.cluster()},
                   {"number", round_.number},
                   {"forced", round_.forced},
                   {"ddv", round_.ddv}});
  auto b = std::make_shared<Body>();
  b->ints = {{"number", round_.number}, {"epoch", deps_.epoch()}};
  b->ddv = round_.ddv;
  place_.broadcast(ctx, Msg::ClcReq, b, place_.self());
  on_req(ctx, *b);
}

void Node::on_req(NodeContext& ctx, const Body& b) {
  if (loading_ && b.get("epoch") == deps_.epoch()) {
    // The leader restored its CLC from its own memory and asks for the next one while this node
    // still loads it over the network: its SN is not the restored one yet. Answered once loaded.
    held_req_ = std::make_shared<Body>(b);
    return;
  }
  if (b.get("epoch") != deps_.epoch() || b.get("number") != deps_.sn() + 1) return; // from an undone execution
  part_ = Participation{};
  part_.active = true;
  part_.number = b.get("number");
  part_.ddv = b.ddv;
  update_app(ctx); // stops the application: nothing is sent until the commit
  auto r = std::make_shared<Body>();
  r->ints = {{"number", part_.number}};
  r->counts.reserve(channels_.sent.size());
  for (const auto& [peer, n] : channels_.sent) r->counts.emplace_hint(r->counts.end(), peer, n); // both sorted
  if (place_.is_leader())
    on_ready(ctx, place_.self(), *r);
  else
    ctx.send_control(place_.leader(), control(Msg::ClcReady, r));
}

void Node::on_ready(NodeContext& ctx, NodeId from, const Body& b) {
  if (!round_.active || b.get("number") != round_.number) return;
  for (const auto& [peer, n] : b.counts)
    if (peer != from) round_.to_receive[static_cast<NodeId>(peer)].emplace_back(from, n);
  if (++round_.readies < static_cast<int>(place_.members().size())) return;
  // Every node has stopped: node r must receive what each peer says it sent to r.
  for (NodeId r : place_.members()) {
    auto s = std::make_shared<Body>();
    s->ints = {{"number", round_.number}};
    if (auto row = round_.to_receive.find(r); row != round_.to_receive.end()) {
      std::sort(row->second.begin(), row->second.end());
      s->counts.insert(boost::container::ordered_unique_range, row->second.begin(), row->second.end());
    }
    if (r == place_.self())
      on_save(ctx, *s);
    else
      ctx.send_control(r, control(Msg::ClcSave, s));
  }
}

void Node::on_save(NodeContext& ctx, const Body& b) {
  if (!part_.active || b.get("number") != part_.number) return;
  part_.expected.reserve(b.counts.size());
  for (const auto& [peer, n] : b.counts)
    part_.expected.emplace_hint(part_.expected.end(), static_cast<NodeId>(peer), n);
  part_.have_expected = true;
  check_drained(ctx);
}

void Node::check_drained(NodeContext& ctx) {
  if (!part_.active || !part_.have_expected || part_.drained) return;
  // Both sorted by peer: one walk.
  auto it = channels_.received.begin();
  for (const auto& [peer, n] : part_.expected) {
    while (it != channels_.received.end() && it->first < peer) ++it;
    if ((it == channels_.received.end() || it->first != peer ? 0 : it->second) < n) return;
  }
  part_.drained = true;
  // The state a rollback to this CLC restores: its SN, and the dependencies of what it has
  // delivered (the DDV before the merge: the message that forced this CLC is not delivered yet).
  SavedState st;
  st.sn = part_.number;
  st.ddv = deps_.intern(deps_.base_ddv(part_.number));
  st.channels = channels_;
  st.log = log_.saved_copy();
  ctx.save_checkpoint(part_.number, ctx.snapshot(std::move(st)));
}

void Node::on_saved(NodeContext& ctx, std::uint64_t number) {
  if (!part_.active || !part_.drained || part_.saved || number != part_.number) return; // an aborted CLC's save
  part_.saved = true;
  auto a = std::make_shared<Body>();
  a->ints = {{"number", number}};
  if (place_.is_leader())
    on_ack(ctx, *a);
  else
    ctx.send_control(place_.leader(), control(Msg::ClcAck, a));
}

void Node::on_ack(NodeContext& ctx, const Body& b) {
  if (!round_.active || b.get("number") != round_.number) return;
  if (++round_.acks < static_cast<int>(place_.members().size())) return;
  const Round r = round_;
  round_ = Round{};
  Stats& st = ctx.stats();
  const char* kind = r.initial ? "hc3i.clc_initial" : r.forced ? "hc3i.clc_forced" : "hc3i.clc_unforced";
  st.add_cluster(kind, place_.cluster());
  st.add_cluster("hc3i.clc_time", place_.cluster(), ctx.now() - r.started);
  // The leader takes part in its CLC: its participation, saved and acknowledged, holds r.number.
  const Ddv base = deps_.base_ddv(part_.number); // what the CLC's state depends on (see StoredClc::base)
  ctx.trace_event(0, "ckpt_commit",
                  {{"unit", place_.layout().cluster(place_.cluster()).name},
                   {"cluster", place_.cluster()},
                   {"number", r.number},
                   {"sn", r.number},
                   {"ddv", r.ddv},
                   {"base", base},
                   {"forced", r.forced},
                   {"initial", r.initial}});
  auto c = std::make_shared<Body>();
  c->ints = {{"number", r.number}, {"forced", r.forced ? 1u : 0u}};
  place_.broadcast(ctx, Msg::ClcCommit, c, place_.self());
  on_commit(ctx, *c);
  arm_clc_timer(ctx); // committing any CLC, forced ones included, resets the timer
  // Entries asked for during the CLC and not in it want a forced CLC now (a message delivered at
  // the commit, process_inbox, may have started it already).
  if (wants_forced_clc()) clc_wanted_ = true;
  process_alerts(ctx);
  maybe_start_clc(ctx);
}

void Node::on_commit(NodeContext& ctx, const Body& b) {
  if (!part_.active || b.get("number") != part_.number) return;
  SharedDdv base = deps_.intern(deps_.base_ddv(part_.number));
  deps_.commit(StoredClc{part_.number, part_.ddv, b.get("forced") != 0, std::move(base)});
  part_ = Participation{};
  force_asked_.clear();
  deps_.record_storage(ctx);
  update_app(ctx);
  process_inbox(ctx);
}

void Node::on_force(NodeContext& ctx, const Body& b) {
  const int from = static_cast<int>(b.get("cluster"));
  wanted_[from] = std::max(wanted_[from], b.get("sn"));
  for (int c = 0; c < static_cast<int>(b.ddv.size()); c++) // transitive variant: the whole DDV
    if (c != place_.cluster()) wanted_[c] = std::max(wanted_[c], b.ddv[c]);
  if (wants_forced_clc()) clc_wanted_ = true;
  maybe_start_clc(ctx);
}

bool Node::wants_forced_clc() const {
  // What the cluster's CLCs will hold: the DDV of the CLC under way if there is one (its start
  // took every entry asked for until then), else the last committed one. Comparing with the
  // committed DDV while a CLC runs that already holds the entry would want one more CLC after
  // it, started unforced and useless at its commit.
  const Ddv& covered = round_.active ? round_.ddv : deps_.ddv().get();
  for (int c = 0; c < place_.clusters(); c++)
    if (c != place_.cluster() && wanted_[c] > covered[c]) return true;
  return false;
}

void Node::abort_clc(NodeContext& ctx, bool keep_saved) {
  if (keep_saved && part_.active && part_.saved) {
    // Saved and acknowledged: the leader may have had every acknowledgement and committed before
    // it heard of the failure (the two-phase commit's in-doubt participant). The recovery
    // leader's order says which (Node::rollback_to).
    in_doubt_ = StoredClc{part_.number, part_.ddv, part_.forced, deps_.intern(deps_.base_ddv(part_.number))};
  } else if (part_.active && part_.drained) {
    ctx.discard_checkpoint(part_.number);
  }
  if (part_.active || round_.active)
    ctx.stats().add_cluster("hc3i.clc_aborted", place_.cluster(), place_.is_leader() ? 1 : 0);
  part_ = Participation{};
  round_ = Round{};
}

void Node::arm_clc_timer(NodeContext& ctx) {
  if (place_.is_leader()) kClcTimer.arm(ctx);
}

} // namespace ckptsim::hc3i
