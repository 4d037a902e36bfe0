/* Centralized garbage collection (HC3I report section 3.5), run by the leader of cluster 0 every
 * gc_period: GC_REQ to the leader of every other cluster (N-1), GC_RESP with the DDVs of its
 * stored CLCs (N-1), worst SN per cluster over a simulated failure of each cluster (worst_sns),
 * GC_COLLECT with the worst SNs to every other leader (N-1), each leader broadcasting GC_APPLY in
 * its cluster. Each node then removes its CLCs numbered below its cluster's worst SN and the
 * logged messages acknowledged with an SN below the receiver cluster's worst SN. A round that
 * overlaps a failure is abandoned as soon as the collector hears of it: its lists may predate the
 * rollbacks, and a leader that died before answering never will (its GC_REQ was lost with it). */
#include "protocols/hc3i/gc.hpp"

#include <fmt/format.h>
#include <string>
#include <vector>

namespace ckptsim::hc3i {

void GarbageCollector::start(NodeContext& ctx, bool recovery_under_way) {
  arm_timer(ctx);
  if (active_ || deps_.failures_open() || recovery_under_way) {
    ctx.stats().add("hc3i.gc_skipped");
    ctx.trace_event(1, "gc_skipped", {{"reason", "a recovery is under way"}});
    return;
  }
  round_++;
  active_ = true;
  base_ = deps_.latest_failure();
  lists_.clear();
  views_.clear();
  lists_[place_.cluster()] = deps_.clcs();
  epochs_.assign(static_cast<std::size_t>(place_.clusters()), 0);
  epochs_[static_cast<std::size_t>(place_.cluster())] = deps_.epoch();
  ctx.trace_event(2, "gc_begin", {{"round", round_}});
  for (int c = 0; c < place_.clusters(); c++) {
    if (c == place_.cluster()) continue;
    auto b = std::make_shared<Body>();
    b->ints = {{"round", round_}};
    ctx.send_control(place_.leader_of(c), control(Msg::GcReq, b));
  }
  if (place_.clusters() == 1) on_resp(ctx, place_.self(), Body{});
}

void GarbageCollector::abandon(NodeContext& ctx) {
  if (!active_) return;
  active_ = false;
  ctx.stats().add("hc3i.gc_aborted");
  ctx.trace_event(1, "gc_aborted", {{"round", round_}});
}

void GarbageCollector::arm_timer(NodeContext& ctx) const {
  if (place_.self() == place_.leader_of(0)) kGcTimer.arm(ctx);
}

std::string GarbageCollector::pending() const {
  if (!active_) return {};
  std::vector<std::string> missing;
  for (int c = 0; c < place_.clusters(); c++)
    if (!lists_.count(c)) missing.push_back(place_.name(place_.leader_of(c)));
  return fmt::format("GC round {} waits for {}", round_, fmt::join(missing, ", "));
}

void GarbageCollector::on_req(NodeContext& ctx, NodeId from, const Body& b) const {
  auto r = std::make_shared<Body>();
  r->ints = {{"round", b.get("round")}, {"failure", deps_.latest_failure()}, {"epoch", deps_.epoch()}};
  r->clcs = deps_.clcs();
  for (int c = 0; c < place_.clusters(); c++) r->epochs.push_back(deps_.known_epoch(c)); // the rollbacks it processed
  ctx.send_control(from, control(Msg::GcResp, r));
}

void GarbageCollector::on_resp(NodeContext& ctx, NodeId from, const Body& b) {
  if (!active_) return;
  if (from != place_.self()) {
    if (b.get("round") != round_) return;
    if (b.get("failure") > base_) { // its leader heard of a failure since the round began
      abandon(ctx);
      return;
    }
    lists_[place_.cluster_of(from)] = b.clcs;
    epochs_[static_cast<std::size_t>(place_.cluster_of(from))] = b.get("epoch");
    views_[place_.cluster_of(from)] = b.epochs;
  }
  if (static_cast<int>(lists_.size()) < place_.clusters()) return;
  if (deps_.latest_failure() > base_) {
    abandon(ctx);
    return;
  }
  // A rollback alert a leader has not processed yet (on its way, or held while its cluster's CLC
  // goes on) takes its cluster further back than the simulated failures of worst_sns, which read
  // the lists as they are: collect only once every leader knows every cluster's epoch.
  auto& mine = views_[place_.cluster()];
  mine.clear();
  for (int c = 0; c < place_.clusters(); c++) mine.push_back(deps_.known_epoch(c));
  for (const auto& [leader, view] : views_)
    for (int c = 0; c < place_.clusters(); c++) {
      const auto ci = static_cast<std::size_t>(c);
      if (view.size() <= ci || view[ci] != epochs_[ci]) {
        abandon(ctx);
        return;
      }
    }
  active_ = false;
  std::vector<ClcList> lists;
  for (auto& [c, l] : lists_) lists.push_back(l);
  const auto worst = worst_sns(lists);
  nlohmann::ordered_json before = nlohmann::ordered_json::array(), after = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < lists.size(); c++) {
    before.push_back(lists[c].size());
    after.push_back(
        std::count_if(lists[c].begin(), lists[c].end(), [&](const StoredClc& x) { return x.sn >= worst[c]; }));
  }
  Stats& st = ctx.stats();
  st.add("hc3i.gc_rounds");
  st.record("hc3i.gc",
            {{"round", round_}, {"date", ctx.now()}, {"before", before}, {"after", after}, {"worst_sn", worst}});
  ctx.trace_event(0, "gc", {{"round", round_}, {"before", before}, {"after", after}, {"worst_sn", worst}});
  for (int c = 0; c < place_.clusters(); c++) {
    auto b2 = std::make_shared<Body>();
    b2->ints = {{"round", round_}, {"failure", base_}};
    b2->ddv = worst;
    b2->epochs = epochs_;
    if (c == place_.cluster())
      on_collect(ctx, *b2);
    else
      ctx.send_control(place_.leader_of(c), control(Msg::GcCollect, b2));
  }
}

void GarbageCollector::on_collect(NodeContext& ctx, const Body& b) {
  place_.broadcast(ctx, Msg::GcApply, std::make_shared<Body>(b), place_.self());
  apply(ctx, b);
}

void GarbageCollector::apply(NodeContext& ctx, const Body& b) {
  // A failure since the lists were gathered, or a rollback of this cluster since.
  if (deps_.latest_failure() > b.get("failure") ||
      (!b.epochs.empty() && b.epochs[static_cast<std::size_t>(place_.cluster())] != deps_.epoch())) {
    ctx.stats().add("hc3i.gc_ignored");
    return;
  }
  const Sn worst = b.ddv[static_cast<std::size_t>(place_.cluster())];
  deps_.collect(ctx, worst);
  log_.collect(ctx, b.ddv, b.epochs);
  deps_.record_storage(ctx);
}

} // namespace ckptsim::hc3i
