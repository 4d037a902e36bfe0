/* HC3I: the inter-cluster log of a node (optimistic sender-side logging). */
#include "protocols/hc3i/log.hpp"

namespace ckptsim::hc3i {

void InterClusterLog::record(NodeContext& ctx, LogEntry e) {
  log_.push_back(std::move(e));
  count(ctx);
}

void InterClusterLog::on_ack(NodeContext& ctx, const Body& b) {
  // An acknowledgement answers one copy: the one sent in the epoch it names (a re-executed send
  // has the same sequence number as the undone one), and not from an execution of the receiver
  // cluster this node already knows was rolled back.
  for (auto& e : log_)
    if (e.msg.seq == b.get("seq") && e.sent_epoch == b.get("sender_epoch") &&
        b.get("epoch") >= deps_.known_epoch(e.dst_cluster)) {
      e.ack = b.get("sn");
      e.ack_epoch = b.get("epoch");
      ctx.trace_event(2, "log_ack", {{"seq", e.msg.seq}, {"dst", e.msg.dst}, {"ack_sn", *e.ack}});
      return;
    }
}

void InterClusterLog::replay(NodeContext& ctx, int to_cluster, Sn s) {
  int found = 0;
  for (auto& e : log_) {
    if (e.dst_cluster != to_cluster || (e.ack && *e.ack < s)) continue;
    e.ack.reset(); // the receiver acknowledges the new delivery
    resend(ctx, e, e.epoch);
    found++;
  }
  ctx.trace_event(2, "log_search", {{"to_cluster", to_cluster}, {"sn", s}, {"resent", found}, {"logged", log_.size()}});
}

void InterClusterLog::resend_all(NodeContext& ctx, std::uint64_t epoch) {
  for (auto& e : log_) resend(ctx, e, epoch);
}

void InterClusterLog::resend(NodeContext& ctx, LogEntry& e, std::uint64_t epoch) {
  e.sent_epoch = epoch;
  auto pb = std::make_shared<Piggyback>();
  pb->inter = true;
  pb->sn = e.sn;
  pb->epoch = epoch;
  pb->view = deps_.known_epoch(e.dst_cluster);
  pb->ddv = e.ddv;
  pb->idx = e.idx;
  ctx.resend_app(e.msg, pb);
  ctx.stats().add_cluster("hc3i.replays", place_.cluster());
}

std::shared_ptr<const Log> InterClusterLog::saved_copy() { return shared_copy(saved_, log_); }

void InterClusterLog::restore(NodeContext& ctx, const SavedState& st, Sn number, bool lost) {
  if (lost) {
    // The log in volatile memory was lost with the node: the CLC's copy, whose acknowledgements
    // may be stale (a receiver that rolled back since re-acknowledged with a newer SN): they
    // count as not acknowledged, so that an alert re-sends them (duplicates are dropped).
    log_ = st.log ? *st.log : Log{};
    for (auto& e : log_) e.ack.reset();
  } else { // the messages sent after the CLC are undone: their log entries go
    std::erase_if(log_, [number](const LogEntry& e) { return e.sn >= number; });
  }
  count(ctx);
}

void InterClusterLog::clear(NodeContext& ctx) {
  log_.clear();
  count(ctx);
}

void InterClusterLog::collect(NodeContext& ctx, const Ddv& worst, const std::vector<std::uint64_t>& epochs) {
  // An acknowledgement from an epoch of the receiver cluster older than the one the collection saw
  // tells of a delivery its rollback undid: that message is still to be re-sent on an alert.
  std::erase_if(log_, [&](const LogEntry& e) {
    const auto c = static_cast<std::size_t>(e.dst_cluster);
    return e.ack && *e.ack < worst[c] && e.ack_epoch == epochs[c];
  });
  count(ctx);
}

void InterClusterLog::count(NodeContext& ctx) const {
  Stats& st = ctx.stats();
  const NodeId self = place_.self();
  const int cluster = place_.cluster();
  // The change against what this node was counted for: after a restart, what its dead
  // incarnation held (its log died with it), so a restored log is not counted twice.
  const double change = static_cast<double>(log_.size()) - st.level_of("log.entries", self);
  double bytes = 0;
  for (const auto& e : log_) bytes += e.msg.size;
  count_logged(st, self, static_cast<double>(log_.size()), bytes);
  if (change == 0) return;
  st.add_cluster("hc3i.logged", cluster, change);
  st.max_cluster("hc3i.logged_max", cluster, st.cluster_values("hc3i.logged")[static_cast<std::size_t>(cluster)]);
  // The report's "at most 4 logged messages" is per node.
  st.max_cluster("hc3i.logged_node_max", cluster, static_cast<double>(log_.size()));
}

} // namespace ckptsim::hc3i
