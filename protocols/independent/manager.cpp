#include "protocols/independent/manager.hpp"

namespace ckptsim::independent {

namespace {
constexpr PeriodTimer kGcTimer{1, "gc_period"};

nlohmann::ordered_json line_json(const Line& line) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const auto& l : line) j.push_back(l ? nlohmann::ordered_json(*l) : nlohmann::ordered_json(nullptr));
  return j;
}
} // namespace

void RecoveryManager::on_start(NodeContext& ctx) {
  const auto n = static_cast<std::size_t>(units_.count());
  records_.resize(n);
  max_number_.assign(n, 0);
  epochs_.assign(n, 0);
  history_.resize(n);
  kGcTimer.arm(ctx);
  record_storage(ctx);
}

void RecoveryManager::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  const Body& b = body(msg);
  switch (control_kind<Msg>(msg)) {
  case Msg::CkptRecord:
    return on_record(ctx, b);
  case Msg::State:
    return on_state(ctx, from, b);
  case Msg::Restarted:
    return on_restarted(ctx, from, b);
  case Msg::Init:
  case Msg::Flush:
  case Msg::Ack:
  case Msg::Commit:
  case Msg::RecoverReq:
  case Msg::Rollback:
  case Msg::Gc:
    break; // the processes'
  }
  unexpected_control("independent", msg);
}

void RecoveryManager::on_record(NodeContext& ctx, const Body& b) {
  const auto u = static_cast<std::size_t>(b.get("unit"));
  const std::int64_t number = b.get("number");
  records_[u][number] = Record{b.deps, b.pairs, static_cast<double>(b.get("bytes"))};
  max_number_[u] = std::max(max_number_[u], number);
  record_storage(ctx);
}

void RecoveryManager::on_state(NodeContext& ctx, NodeId from, const Body& b) {
  if (!active_ || computed_ || static_cast<FailureId>(b.get("failure")) != failure_) return;
  states_[from] = NodeState{b.deps, b.channels};
  if (states_.size() + victims_.size() == static_cast<std::size_t>(ctx.layout().num_nodes())) compute(ctx);
}

void RecoveryManager::on_restarted(NodeContext& ctx, NodeId from, const Body& b) {
  const auto f = static_cast<FailureId>(b.get("failure"));
  if (f > failure_) { // the restart came before the failure notice: its victims from the message
    std::vector<NodeId> victims(b.victims.begin(), b.victims.end());
    victims.push_back(from);
    std::sort(victims.begin(), victims.end());
    start(ctx, f, std::move(victims));
  }
  if (f != failure_) return;
  restarted_.insert(from);
  if (computed_) send_order(ctx, from);
}

void RecoveryManager::on_failure_detected(NodeContext& ctx, const FailureNotice& notice) {
  if (notice.id > failure_) start(ctx, notice.id, notice.victims);
}

void RecoveryManager::start(NodeContext& ctx, FailureId id, std::vector<NodeId> victims) {
  // One failure at a time (the engine defers the others): a new one means the last is over.
  active_ = true;
  failure_ = id;
  victims_ = std::move(victims);
  states_.clear();
  computed_ = false;
  restarted_.clear();
  auto b = std::make_shared<Body>();
  b->ints = {{"failure", static_cast<std::int64_t>(id)}};
  for (NodeId n = 0; n < ctx.layout().num_nodes(); n++)
    if (!victim(n)) ctx.send_control(n, control(Msg::RecoverReq, b));
  if (victims_.size() == static_cast<std::size_t>(ctx.layout().num_nodes())) compute(ctx); // nobody to ask
}

std::vector<UnitView> RecoveryManager::views() const {
  std::vector<UnitView> v(static_cast<std::size_t>(units_.count()));
  for (std::size_t u = 0; u < v.size(); u++) {
    for (const auto& [number, rec] : records_[u]) v[u].checkpoints.push_back({number, rec.deps});
    v[u].current.assign(v.size(), -1);
  }
  return v;
}

void RecoveryManager::compute(NodeContext& ctx) {
  computed_ = true;
  auto v = views();
  for (const auto& [node, st] : states_) { // a unit's state depends on what any of its members delivered
    auto& cur = v[static_cast<std::size_t>(units_.unit_of(node))].current;
    for (std::size_t w = 0; w < st.deps.size(); w++) cur[w] = std::max(cur[w], st.deps[w]);
  }
  std::set<int> failed; // the line starts from every unit the failure struck
  for (NodeId n : victims_) failed.insert(units_.unit_of(n));
  for (int u : failed) v[static_cast<std::size_t>(u)].failed = true;
  const LineResult r = recovery_line(v);
  line_ = r.restored;
  for (std::size_t u = 0; u < line_.size(); u++) {
    if (!line_[u]) continue;
    epochs_[u]++;
    history_[u].emplace_back(epochs_[u], *line_[u]);
    std::erase_if(records_[u], [&](const auto& item) { return item.first > *line_[u]; });
  }
  Stats& st = ctx.stats();
  st.add("independent.recoveries");
  st.add("independent.rollbacks", r.units_rolled_back());
  st.add("independent.rolled_over", r.total_rolled_over());
  st.max("independent.max_depth", r.max_depth());
  st.add("independent.to_initial", r.units_to_initial());
  nlohmann::ordered_json rec{{"failure", failure_}, {"date", ctx.now()}, {"victim", victims_.front()}};
  if (victims_.size() > 1) rec["victims"] = victims_; // "victim" is the first of them
  rec["units_rolled_back"] = r.units_rolled_back();
  rec["rolled_over"] = r.total_rolled_over();
  rec["max_depth"] = r.max_depth();
  rec["to_initial"] = r.units_to_initial();
  rec["line"] = line_json(line_);
  st.record("independent.recoveries", rec);
  nlohmann::ordered_json event{{"failure", failure_}};
  if (victims_.size() == 1) {
    event["victim"] = victims_.front();
    event["failed_unit"] = *failed.begin();
  } else {
    event["victims"] = victims_;
    event["failed_units"] = failed;
  }
  event["line"] = line_json(line_);
  event["rolled_over"] = r.rolled_over;
  ctx.trace_event(0, "recovery_line", event);
  record_storage(ctx);
  for (NodeId n = 0; n < ctx.layout().num_nodes(); n++)
    if (!victim(n)) send_order(ctx, n);
  for (NodeId n : restarted_) send_order(ctx, n);
}

std::uint64_t RecoveryManager::expected_at(const Line& line, NodeId receiver, NodeId sender) const {
  const auto u = static_cast<std::size_t>(units_.unit_of(receiver));
  if (line[u]) { // what its checkpoint on the line had delivered
    if (*line[u] == 0) return 0;
    const auto& pairs = records_[u].at(*line[u]).pairs;
    auto it = pairs.find({receiver, sender});
    return it == pairs.end() ? 0 : it->second;
  }
  auto st = states_.find(receiver);
  if (st == states_.end()) return 0;
  auto it = st->second.expected.find(sender);
  return it == st->second.expected.end() ? 0 : it->second;
}

void RecoveryManager::send_order(NodeContext& ctx, NodeId node) {
  const int u = units_.unit_of(node);
  const auto& recs = records_[static_cast<std::size_t>(u)];
  auto b = std::make_shared<Body>();
  b->ints = {{"failure", static_cast<std::int64_t>(failure_)}, {"committed", recs.empty() ? 0 : recs.rbegin()->first}};
  for (const auto& l : line_) b->line.push_back(l ? *l : -1);
  b->epochs = epochs_;
  // The channels from this node that a rollback touched (its unit's or the receiver's): the
  // receiver lost deliveries, or this node lost sends; it re-sends from what the receiver keeps.
  for (NodeId y = 0; y < ctx.layout().num_nodes(); y++) {
    const int uy = units_.unit_of(y);
    if (uy == u || (!line_[static_cast<std::size_t>(u)] && !line_[static_cast<std::size_t>(uy)])) continue;
    b->channels[y] = expected_at(line_, y, node);
  }
  if (victim(node)) { // it lost its memory: the stable knowledge comes with its order
    b->ints["next_number"] = max_number_[static_cast<std::size_t>(u)] + 1;
    b->history = history_;
    for (const auto& [number, rec] : recs) b->stored.push_back(number);
  }
  ctx.send_control(node, control(Msg::Rollback, b));
}

void RecoveryManager::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  if (notice.id != failure_) return;
  active_ = false;
  if (gc_due_) run_gc(ctx);
}

void RecoveryManager::on_timer(NodeContext& ctx, int id) {
  if (!kGcTimer.is(id)) return;
  kGcTimer.arm(ctx);
  if (active_)
    gc_due_ = true; // after the recovery
  else
    run_gc(ctx);
}

void RecoveryManager::run_gc(NodeContext& ctx) {
  gc_due_ = false;
  const std::size_t before = stored();
  const Line line = gc_line(views()).restored;
  for (std::size_t u = 0; u < line.size(); u++)
    std::erase_if(records_[u], [&](const auto& item) { return item.first < *line[u]; });
  const std::size_t after = stored();
  ctx.stats().add("independent.gcs");
  ctx.stats().record("independent.gc", {{"date", ctx.now()}, {"stored_before", before}, {"stored_after", after}});
  ctx.trace_event(0, "gc", {{"line", line_json(line)}, {"before", before}, {"after", after}});
  record_storage(ctx);
  for (NodeId n = 0; n < ctx.layout().num_nodes(); n++) {
    auto b = std::make_shared<Body>();
    for (const auto& l : line) b->line.push_back(*l);
    // Log entries whose delivery the receiver's checkpoint on the line holds are never re-sent.
    for (NodeId y = 0; y < ctx.layout().num_nodes(); y++) {
      if (units_.unit_of(y) == units_.unit_of(n)) continue;
      const std::uint64_t below = expected_at(line, y, n); // every unit is on the line: records only
      if (below > 0) b->channels[y] = below;
    }
    ctx.send_control(n, control(Msg::Gc, b));
  }
}

std::size_t RecoveryManager::stored() const {
  std::size_t n = 0;
  for (const auto& r : records_) n += r.size();
  return n;
}

void RecoveryManager::record_storage(NodeContext& ctx) const {
  double bytes = 0;
  for (const auto& r : records_)
    for (const auto& [number, rec] : r) bytes += rec.bytes;
  Stats& st = ctx.stats();
  const auto n = static_cast<double>(stored());
  st.set("independent.stored", n);
  st.max("independent.stored_max", n);
  st.set("independent.stored_bytes", bytes);
  st.max("independent.stored_bytes_max", bytes);
}

} // namespace ckptsim::independent
