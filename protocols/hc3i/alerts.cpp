/* HC3I: rollback alerts (alerts.hpp). */
#include "protocols/hc3i/alerts.hpp"
#include "protocols/hc3i/leader.hpp"
#include "protocols/hc3i/mailbox.hpp"
#include "protocols/hc3i/participant.hpp"
#include "protocols/hc3i/recovery.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace ckptsim::hc3i {

std::string Alerts::pending() const {
  std::vector<std::string> what;
  if (!queue_.empty()) what.push_back(fmt::format("{} alert(s) to handle", queue_.size()));
  if (!asked_.empty()) what.push_back(fmt::format("waits for the rollbacks of cluster(s) {}", fmt::join(asked_, ", ")));
  if (!queries_.empty()) what.push_back(fmt::format("{} query(ies) to answer once recovered", queries_.size()));
  if (what.empty()) return {};
  return fmt::format("{}: {}", place_.name(place_.self()), fmt::join(what, ", "));
}

void Alerts::send(NodeContext& ctx, Sn restored_sn) {
  const Sn s = alert_value(restored_sn);
  const int cluster = place_.cluster();
  ctx.stats().add_cluster("hc3i.alerts_sent", cluster);
  for (int c = 0; c < place_.clusters(); c++) {
    if (c == cluster) continue;
    auto b = std::make_shared<Body>();
    b->ints = {{"cluster", static_cast<std::uint64_t>(cluster)}, {"sn", s}, {"epoch", deps_.epoch()}};
    ctx.send_control(place_.leader_of(c), control(Msg::Alert, b));
  }
  ctx.trace_event(1, "alert_sent", {{"cluster", cluster}, {"sn", s}, {"epoch", deps_.epoch()}});
}

void Alerts::on_alert(NodeContext& ctx, const Body& b) {
  const int f = static_cast<int>(b.get("cluster"));
  if (known(f, b.get("epoch"))) { // also in a reply to this leader's query: handled once
    ctx.stats().add("hc3i.alerts_duplicate");
    return;
  }
  queue_.push_back(std::make_shared<Body>(b));
  process(ctx);
}

bool Alerts::known(int cluster, std::uint64_t epoch) const {
  if (deps_.heard_rollback(cluster, epoch)) return true;
  return std::any_of(queue_.begin(), queue_.end(), [&](const auto& a) {
    return static_cast<int>(a->get("cluster")) == cluster && a->get("epoch") == epoch;
  });
}

void Alerts::query(NodeContext& ctx) {
  for (int c = 0; c < place_.clusters(); c++)
    if (c != place_.cluster()) ask(ctx, c);
}

void Alerts::ask(NodeContext& ctx, int cluster) {
  asked_.insert(cluster);
  auto b = std::make_shared<Body>();
  b->ints = {{"cluster", static_cast<std::uint64_t>(place_.cluster())}, {"known", deps_.known_epoch(cluster)}};
  ctx.send_control(place_.leader_of(cluster), control(Msg::AlertQuery, b));
}

void Alerts::on_node_back(NodeContext& ctx, const FailureNotice& notice) {
  // Copied: ask() inserts into asked_ (the same clusters) while this loops.
  for (int c : std::vector<int>(asked_.begin(), asked_.end()))
    if (notice.struck(place_.leader_of(c))) ask(ctx, c); // the query died with it
}

void Alerts::on_query(NodeContext& ctx, NodeId from, const Body& b) {
  // While this cluster recovers, its newest rollback is not alerted yet (the others would re-send
  // to a node still down): the answer waits until the alerts are out.
  if (recovery_.recovering()) {
    queries_.emplace_back(from, b);
    return;
  }
  answer(ctx, from, b);
}

void Alerts::answer_queries(NodeContext& ctx) {
  if (recovery_.recovering()) return;
  for (const auto& [from, b] : std::exchange(queries_, {})) answer(ctx, from, b);
}

void Alerts::answer(NodeContext& ctx, NodeId from, const Body& b) {
  auto r = std::make_shared<Body>();
  r->ints = {{"cluster", static_cast<std::uint64_t>(place_.cluster())}};
  r->rollbacks = {deps_.own_rollbacks_after(b.get("known"))};
  ctx.send_control(from, control(Msg::AlertReply, r));
}

void Alerts::on_reply(NodeContext& ctx, const Body& b) {
  const int f = static_cast<int>(b.get("cluster"));
  asked_.erase(f);
  for (const auto& [epoch, s] : b.rollbacks.front()) {
    if (known(f, epoch)) continue;
    ctx.stats().add("hc3i.alerts_recovered");
    ctx.trace_event(1, "alert_recovered", {{"cluster", place_.cluster()}, {"from", f}, {"sn", s}, {"epoch", epoch}});
    auto a = std::make_shared<Body>();
    a->ints = {{"cluster", static_cast<std::uint64_t>(f)}, {"sn", s}, {"epoch", epoch}};
    queue_.push_back(std::move(a));
  }
  process(ctx);
}

void Alerts::process(NodeContext& ctx) {
  const int cluster = place_.cluster();
  // One at a time, between CLCs: the decision reads the committed CLCs and DDV.
  while (!queue_.empty() && !leader_.active() && !participant_.active() && !recovery_.busy()) {
    const auto a = queue_.front();
    queue_.pop_front();
    const int f = static_cast<int>(a->get("cluster"));
    const Sn s = a->get("sn");
    const auto target = rollback_target(deps_.clcs(), deps_.ddv(), f, s);
    auto b = std::make_shared<Body>(*a);
    b->ints["rollback"] = target ? 1 : 0;
    b->ints["target"] = target.value_or(0);
    b->ints["new_epoch"] = target ? deps_.epoch() + 1 : deps_.epoch();
    nlohmann::ordered_json ev{
        {"cluster", cluster}, {"from", f}, {"sn", s}, {"ddv_entry", deps_.ddv()[f]}, {"ddv", deps_.ddv()}};
    ev["rollback_to"] = target ? nlohmann::ordered_json(*target) : nlohmann::ordered_json(nullptr);
    ctx.trace_event(0, "alert", ev);
    if (target) {
      ctx.trace_event(0, "cluster_rollback",
                      {{"cluster", cluster},
                       {"to_sn", *target},
                       {"cause", "alert"},
                       {"from", f},
                       {"sn", s},
                       {"epoch", deps_.epoch() + 1}});
      ctx.stats().add_cluster("hc3i.rollbacks", cluster);
      ctx.stats().record("hc3i.rollbacks", {{"failure", deps_.latest_failure()},
                                            {"date", ctx.now()},
                                            {"cluster", cluster},
                                            {"to_sn", *target},
                                            {"cause", "alert"},
                                            {"from", f}});
    }
    place_.broadcast(ctx, Msg::AlertBcast, b, place_.self());
    on_bcast(ctx, *b);
    if (target) send(ctx, *target);
  }
}

void Alerts::on_bcast(NodeContext& ctx, const Body& b) {
  const int f = static_cast<int>(b.get("cluster"));
  const Sn s = b.get("sn");
  deps_.learn_rollback(f, b.get("epoch"), s);
  if (b.get("rollback") != 0 && b.get("new_epoch") > deps_.epoch()) {
    replay_after_load_ = std::make_pair(f, s); // re-sent from the log that survives the rollback
    recovery_.rollback_to(
        ctx, b.get("target"), b.get("new_epoch"),
        fmt::format("hc3i alert ({}, {}): cluster {} back to CLC {}", f, s, place_.cluster(), b.get("target")));
  } else {
    log_.replay(ctx, f, s);
    mailbox_.process_inbox(ctx); // messages that waited for this alert
  }
}

void Alerts::replay_after_restore(NodeContext& ctx) {
  if (!replay_after_load_) return;
  const auto [to, s] = *replay_after_load_;
  replay_after_load_.reset();
  log_.replay(ctx, to, s);
}

} // namespace ckptsim::hc3i
