/* HC3I: the leader side of a cluster-level checkpoint (leader.hpp). */
#include "protocols/hc3i/leader.hpp"
#include "protocols/hc3i/alerts.hpp"
#include "protocols/hc3i/participant.hpp"
#include "protocols/hc3i/recovery.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim::hc3i {

ClcLeader::ClcLeader(const Membership& place, const Dependencies& deps, ClcParticipant& participant,
                     const Recovery& recovery, Alerts& alerts)
    : place_(place)
    , deps_(deps)
    , participant_(participant)
    , recovery_(recovery)
    , alerts_(alerts) {
  wanted_.assign(static_cast<std::size_t>(place_.clusters()), 0);
}

std::string ClcLeader::pending() const {
  if (!round_.active) return {};
  return fmt::format("{}: CLC {} has {} of {} READY and {} ACK", place_.name(place_.self()), round_.number,
                     round_.readies, place_.members().size(), round_.acks);
}

void ClcLeader::maybe_start(NodeContext& ctx) {
  if (!place_.is_leader() || round_.active || recovery_.busy() || alerts_.holding()) return;
  if (deps_.sn() == 0 || clc_wanted_ || timer_due_) start(ctx);
}

void ClcLeader::on_timer(NodeContext& ctx) {
  timer_due_ = true;
  maybe_start(ctx);
}

void ClcLeader::arm_timer(NodeContext& ctx) const {
  if (place_.is_leader()) kClcTimer.arm(ctx);
}

void ClcLeader::start(NodeContext& ctx) {
  const int cluster = place_.cluster();
  round_ = Round{};
  round_.active = true;
  round_.number = deps_.sn() + 1;
  round_.initial = deps_.sn() == 0;
  round_.ddv = deps_.ddv();
  for (int c = 0; c < place_.clusters(); c++) {
    if (c == cluster) continue;
    if (wanted_[c] > deps_.ddv()[c]) round_.forced = true;
    round_.ddv[c] = std::max(round_.ddv[c], wanted_[c]);
  }
  round_.ddv[cluster] = round_.number;
  round_.started = ctx.now();
  round_.epoch = deps_.epoch();
  clc_wanted_ = false;
  timer_due_ = false;
  kClcTimer.cancel(ctx);
  ctx.trace_event(1, "ckpt_begin",
                  {{"unit", place_.layout().cluster(cluster).name},
                   {"cluster", cluster},
                   {"number", round_.number},
                   {"forced", round_.forced},
                   {"ddv", round_.ddv}});
  auto b = std::make_shared<Body>();
  b->ints = {{"number", round_.number}, {"epoch", deps_.epoch()}};
  b->ddv = round_.ddv;
  place_.broadcast(ctx, Msg::ClcReq, b, place_.self());
  participant_.on_req(ctx, *b);
}

// A READY or an ACK of a round a rollback aborted (delayed by a cut link) may come during the
// next round, which has the same number: the epoch tells them apart.
bool ClcLeader::of_round(const Body& b) const {
  return round_.active && b.get("number") == round_.number && b.get("epoch") == round_.epoch;
}

void ClcLeader::on_ready(NodeContext& ctx, NodeId from, const Body& b) {
  if (!of_round(b)) return;
  for (const auto& [peer, n] : b.counts)
    if (peer != from) round_.to_receive[static_cast<NodeId>(peer)].emplace_back(from, n);
  if (++round_.readies < static_cast<int>(place_.members().size())) return;
  // Every node has stopped: node r must receive what each peer says it sent to r.
  for (NodeId r : place_.members()) {
    auto s = std::make_shared<Body>();
    s->ints = {{"number", round_.number}, {"epoch", round_.epoch}};
    if (auto row = round_.to_receive.find(r); row != round_.to_receive.end()) {
      std::sort(row->second.begin(), row->second.end());
      s->counts.insert(boost::container::ordered_unique_range, row->second.begin(), row->second.end());
    }
    if (r == place_.self())
      participant_.on_save(ctx, *s);
    else
      ctx.send_control(r, control(Msg::ClcSave, s));
  }
}

void ClcLeader::on_ack(NodeContext& ctx, const Body& b) {
  if (!of_round(b)) return;
  if (++round_.acks < static_cast<int>(place_.members().size())) return;
  const Round r = round_;
  round_ = Round{};
  const int cluster = place_.cluster();
  Stats& st = ctx.stats();
  const char* kind = r.initial ? "hc3i.clc_initial" : r.forced ? "hc3i.clc_forced" : "hc3i.clc_unforced";
  st.add_cluster(kind, cluster);
  st.add_cluster("hc3i.clc_time", cluster, ctx.now() - r.started);
  // The leader takes part in its CLC: its participation, saved and acknowledged, holds r.number.
  const Ddv base = deps_.base_ddv(participant_.number()); // what the CLC's state depends on (StoredClc::base)
  ctx.trace_event(0, "ckpt_commit",
                  {{"unit", place_.layout().cluster(cluster).name},
                   {"cluster", cluster},
                   {"number", r.number},
                   {"sn", r.number},
                   {"ddv", r.ddv},
                   {"base", base},
                   {"forced", r.forced},
                   {"initial", r.initial}});
  auto c = std::make_shared<Body>();
  c->ints = {{"number", r.number}, {"epoch", r.epoch}, {"forced", r.forced ? 1u : 0u}};
  place_.broadcast(ctx, Msg::ClcCommit, c, place_.self());
  participant_.on_commit(ctx, *c);
  arm_timer(ctx); // committing any CLC, forced ones included, resets the timer
  // Entries asked for during the CLC and not in it want a forced CLC now (a message delivered at
  // the commit, Mailbox::process_inbox, may have started it already).
  if (wants_forced_clc()) clc_wanted_ = true;
  alerts_.process(ctx);
  maybe_start(ctx);
}

void ClcLeader::on_force(NodeContext& ctx, const Body& b) {
  const int from = static_cast<int>(b.get("cluster"));
  wanted_[from] = std::max(wanted_[from], b.get("sn"));
  for (int c = 0; c < static_cast<int>(b.ddv.size()); c++) // transitive variant: the whole DDV
    if (c != place_.cluster()) wanted_[c] = std::max(wanted_[c], b.ddv[c]);
  if (wants_forced_clc()) clc_wanted_ = true;
  maybe_start(ctx);
}

void ClcLeader::forget_wanted() {
  std::fill(wanted_.begin(), wanted_.end(), 0);
  clc_wanted_ = false;
}

bool ClcLeader::wants_forced_clc() const {
  // What the cluster's CLCs will hold: the DDV of the CLC under way if there is one (its start
  // took every entry asked for until then), else the last committed one. Comparing with the
  // committed DDV while a CLC runs that already holds the entry would want one more CLC after
  // it, started unforced and useless at its commit.
  const Ddv& covered = round_.active ? round_.ddv : deps_.ddv().get();
  for (int c = 0; c < place_.clusters(); c++)
    if (c != place_.cluster() && wanted_[c] > covered[c]) return true;
  return false;
}

} // namespace ckptsim::hc3i
