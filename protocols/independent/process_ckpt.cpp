/* A unit's checkpoints, with no coordination between units. The unit's leader starts one on
 * its timer: INIT to every member; a member stops its application, sends FLUSH to the other
 * members and saves once it has all their FLUSHes (channels are FIFO, so no message of the unit
 * crosses the checkpoint), then ACKs with its D and its channels' next expected indices; after
 * every ACK the leader COMMITs, records the checkpoint with the recovery manager (CKPT_RECORD:
 * the unit's merged D, the expected indices) and the members resume. A process unit is a unit of
 * one member: INIT, save, ACK and COMMIT are local calls. Messages from other units are
 * delivered all along (D is read at the snapshot). A recovery freezes a checkpoint under way:
 * the manager's order says whether it was committed. */
#include "protocols/independent/process.hpp"

#include <cmath>

namespace ckptsim::independent {

namespace {
constexpr double kGoldenFraction = 0.6180339887498949;
} // namespace

void Process::on_start(NodeContext& ctx) {
  // Units whose timers are equal would checkpoint in lockstep, an artificial synchrony: the
  // first checkpoint of unit u comes at P * frac((u + 1) * golden ratio), deterministic phases
  // spread over the period (u + 1 so that no unit checkpoints its initial state at date 0).
  if (leader_) {
    const double phase = std::fmod((unit_ + 1) * kGoldenFraction, 1.0);
    kCheckpointTimer.arm_in(ctx, kCheckpointTimer.period(ctx) * phase);
  }
}

void Process::arm_timer(NodeContext& ctx) {
  if (leader_) kCheckpointTimer.arm(ctx);
}

void Process::on_timer(NodeContext& ctx, int id) {
  if (restart_delay_.end(ctx, id)) {
    restored(ctx);
  } else if (kCheckpointTimer.is(id)) {
    timer_due_ = true;
    maybe_start_checkpoint(ctx);
  }
}

void Process::maybe_start_checkpoint(NodeContext& ctx) {
  if (!leader_ || !timer_due_ || round_.number != 0 || part_.number != 0 || recovering() || !waiting_for_.empty())
    return;
  timer_due_ = false;
  if (members_ == 1 && ctx.app_finished()) return; // nothing left to protect; a rollback re-arms the timer
  round_ = Round{};
  round_.number = next_number_++;
  round_.deps.assign(static_cast<std::size_t>(units_.count()), -1);
  round_.started = ctx.now();
  auto b = std::make_shared<Body>();
  b->ints = {{"number", round_.number}, {"generation", static_cast<std::int64_t>(generation_)}};
  for (NodeId m : units_.members(unit_)) send_to(ctx, m, Msg::Init, b);
}

void Process::send_to(NodeContext& ctx, NodeId to, Msg kind, const std::shared_ptr<Body>& b) {
  if (to == self_)
    on_control(ctx, self_, control(kind, b));
  else
    ctx.send_control(to, control(kind, b));
}

void Process::on_init(NodeContext& ctx, const Body& b) {
  const auto gen = static_cast<FailureId>(b.get("generation"));
  if (gen < generation_ || (gen == generation_ && (holding_ || restarting()))) return; // frozen by a recovery
  if (gen > generation_ || loading_ || restarting()) { // started after a recovery this node has not applied yet
    early_inits_.push_back(std::make_shared<Body>(b));
    return;
  }
  part_ = Participation{};
  part_.number = b.get("number");
  part_.generation = gen;
  update_app(ctx); // stops the application until the commit
  ctx.trace_event(1, "ckpt_begin", {{"unit", unit_}, {"number", part_.number}});
  auto f = std::make_shared<Body>();
  f->ints = {{"number", part_.number}, {"generation", static_cast<std::int64_t>(gen)}};
  for (NodeId m : units_.members(unit_))
    if (m != self_) ctx.send_control(m, control(Msg::Flush, f));
  check_flushed(ctx);
}

void Process::on_flush(NodeContext& ctx, const Body& b) {
  const auto gen = static_cast<FailureId>(b.get("generation"));
  if (gen < generation_) return;
  flushes_[{gen, b.get("number")}]++;
  check_flushed(ctx);
}

void Process::check_flushed(NodeContext& ctx) {
  if (part_.number == 0 || part_.saving || part_.frozen) return;
  const auto key = std::make_pair(part_.generation, part_.number);
  if (members_ > 1 && flushes_[key] < members_ - 1) return;
  flushes_.erase(key);
  part_.saving = true;
  // The execution after this snapshot is the unit's interval `number`, committed or not: labels
  // only need to grow with the unit's history and stay below its next checkpoint's number.
  cur_.interval = part_.number;
  part_.snap = cur_;
  ctx.save_checkpoint(static_cast<std::uint64_t>(part_.number), ctx.snapshot(part_.snap));
  part_.snap.log.clear(); // what the ACK needs is D and the channels
}

void Process::on_saved(NodeContext& ctx, std::uint64_t number) {
  if (part_.number != static_cast<std::int64_t>(number) || !part_.saving || part_.saved || part_.frozen) return;
  part_.saved = true;
  auto a = std::make_shared<Body>();
  a->ints = {{"number", part_.number},
             {"generation", static_cast<std::int64_t>(part_.generation)},
             {"bytes", static_cast<std::int64_t>(ctx.checkpoint_bytes())}};
  a->deps = part_.snap.deps;
  a->channels = part_.snap.expected;
  send_to(ctx, units_.leader(unit_), Msg::Ack, a);
}

void Process::on_ack(NodeContext& ctx, NodeId from, const Body& b) {
  if (round_.number == 0 || b.get("number") != round_.number ||
      static_cast<FailureId>(b.get("generation")) != generation_)
    return;
  for (std::size_t w = 0; w < b.deps.size(); w++) round_.deps[w] = std::max(round_.deps[w], b.deps[w]);
  for (const auto& [sender, next] : b.channels)
    if (next > 0) round_.pairs[{from, sender}] = next;
  round_.bytes += static_cast<double>(b.get("bytes"));
  if (++round_.acks < members_) return;
  const Round r = std::move(round_);
  round_ = Round{};
  Stats& st = ctx.stats();
  st.add("independent.checkpoints");
  st.add_cluster("independent.checkpoints", ctx.cluster());
  st.add("independent.checkpoint_time", ctx.now() - r.started);
  ctx.trace_event(0, "ckpt_commit",
                  {{"unit", unit_}, {"kind", units_.kind_name()}, {"number", r.number}, {"deps", r.deps}});
  auto rec = std::make_shared<Body>();
  rec->ints = {{"unit", unit_}, {"number", r.number}, {"bytes", static_cast<std::int64_t>(r.bytes)}};
  rec->deps = r.deps;
  rec->pairs = r.pairs;
  ctx.send_control(manager_, control(Msg::CkptRecord, rec));
  auto c = std::make_shared<Body>();
  c->ints = {{"number", r.number}, {"generation", static_cast<std::int64_t>(generation_)}};
  for (NodeId m : units_.members(unit_)) send_to(ctx, m, Msg::Commit, c);
  arm_timer(ctx); // the next one a period after this one completed
}

void Process::on_commit(NodeContext& ctx, const Body& b) {
  if (part_.number == 0 || b.get("number") != part_.number || part_.frozen ||
      static_cast<FailureId>(b.get("generation")) != part_.generation)
    return;
  commit_locally(part_.number);
  update_app(ctx);
}

void Process::commit_locally(std::int64_t number) {
  stored_.insert(number);
  part_ = Participation{};
}

void Process::freeze_checkpoint() {
  if (part_.number != 0) part_.frozen = true;
  round_ = Round{}; // the manager's order says whether it committed
}

void Process::resolve_frozen(NodeContext& ctx, std::int64_t committed) {
  if (part_.number == 0) return;
  if (part_.saved && part_.number <= committed) { // the leader committed it before the recovery
    commit_locally(part_.number);
    return;
  }
  if (part_.saving) ctx.discard_checkpoint(static_cast<std::uint64_t>(part_.number));
  if (leader_) ctx.stats().add("independent.checkpoints_aborted");
  ctx.trace_event(1, "ckpt_abort", {{"unit", unit_}, {"number", part_.number}});
  part_ = Participation{};
}

} // namespace ckptsim::independent
