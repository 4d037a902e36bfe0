/* Unit tests of hc3i::Alerts (protocols/hc3i/alerts.hpp): a leader's decision on a rollback
 * alert, its broadcast, the alerts it passes on and the re-sends, on fake nodes. Three clusters
 * of two nodes: c0 = {0, 1}, c1 = {2, 3}, c2 = {4, 5}. c1 stores CLC 1 (DDV [0, 1, 0]) and
 * CLC 2, forced by c0's interval 2 (DDV [2, 2, 0]). */
#include "tests/unit/test_hc3i_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using hc3i::Ddv;
using hc3i_test::body_of;
using hc3i_test::Parts;
using hc3i_test::sent_hc3i_body;

class Hc3iAlerts : public ::testing::Test {
 protected:
  Hc3iAlerts()
      : fed(hc3i_test::federation(3, 2), "hc3i") {}
  /** Node @p n of c1 with its two CLCs. */
  std::unique_ptr<Parts> c1_node(NodeId n) {
    auto p = std::make_unique<Parts>(fed.layout(), n);
    hc3i_test::commit_clc(*p, 1, {0, 1, 0});
    hc3i_test::commit_clc(*p, 2, {2, 2, 0}, true);
    return p;
  }
  /** Logs a message of node @p p to node @p dst, sent in interval @p sn, unacknowledged. */
  static void log_to(Parts& p, test_support::FakeNode& ctx, NodeId dst, std::uint64_t seq, hc3i::Sn sn) {
    AppMessage m;
    m.src = p.place.self();
    m.dst = dst;
    m.seq = seq;
    p.log.record(ctx, hc3i::LogEntry{m, sn, 0, p.place.cluster_of(dst), std::nullopt, {}, 0, 0, seq});
  }
  test_support::FakeFederation fed;
};

TEST_F(Hc3iAlerts, AnAlertTheClusterDependsOnRollsItBackAndIsPassedOn) {
  auto p = c1_node(2);
  auto& ctx = fed.node(2);
  // c0 rolled back to CLC 2: c1 delivered from c0's interval 2 (DDV_c1[c0] = 2), back to CLC 2.
  p->alerts.on_alert(ctx, body_of({{"cluster", 0}, {"sn", 2}, {"epoch", 1}}));
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"ALERT_BCAST", "ALERT", "ALERT"}));
  const auto& bcast = sent_hc3i_body(ctx, 0);
  EXPECT_EQ(ctx.controls[0].to, 3);
  EXPECT_EQ(bcast.get("rollback"), 1u);
  EXPECT_EQ(bcast.get("target"), 2u);
  EXPECT_EQ(bcast.get("new_epoch"), 1u);
  // Its own alert (c1, 2) to the leaders of c0 and c2, in its new epoch.
  EXPECT_EQ(ctx.controls[1].to, 0);
  EXPECT_EQ(ctx.controls[2].to, 4);
  EXPECT_EQ(sent_hc3i_body(ctx, 1).get("cluster"), 1u);
  EXPECT_EQ(sent_hc3i_body(ctx, 1).get("sn"), 2u);
  EXPECT_EQ(sent_hc3i_body(ctx, 1).get("epoch"), 1u);
  EXPECT_EQ(ctx.loads, std::vector<std::uint64_t>{2});
  EXPECT_EQ(p->deps.epoch(), 1u);
  EXPECT_EQ(p->deps.known_epoch(0), 1u);
  EXPECT_EQ(ctx.events, (std::vector<std::string>{"alert", "cluster_rollback", "alert_sent"}));
  EXPECT_EQ(fed.stats().cluster_values("hc3i.rollbacks"), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(fed.stats().cluster_values("hc3i.alerts_sent"), (std::vector<double>{0, 1, 0}));
}

TEST_F(Hc3iAlerts, AnAlertTheClusterDoesNotDependOnOnlyReSends) {
  auto p = c1_node(2);
  auto& ctx = fed.node(2);
  log_to(*p, ctx, 4, 7, 1); // to c2, never acknowledged
  log_to(*p, ctx, 0, 8, 1); // to c0: not concerned
  p->alerts.on_alert(ctx, body_of({{"cluster", 2}, {"sn", 1}, {"epoch", 1}}));
  EXPECT_EQ(ctx.control_names(), std::vector<std::string>{"ALERT_BCAST"});
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("rollback"), 0u);
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("new_epoch"), 0u);
  EXPECT_TRUE(ctx.loads.empty());
  ASSERT_EQ(ctx.app_resent.size(), 1u);
  EXPECT_EQ(ctx.app_resent[0].first.seq, 7u);
  EXPECT_EQ(p->deps.known_epoch(2), 1u);
  EXPECT_TRUE(fed.stats().cluster_values("hc3i.alerts_sent").empty());
}

TEST_F(Hc3iAlerts, AlertsWaitForTheClcUnderWay) {
  auto p = c1_node(2);
  auto& ctx = fed.node(2);
  p->leader.on_timer(ctx); // CLC 3
  ASSERT_TRUE(p->leader.active());
  p->alerts.on_alert(ctx, body_of({{"cluster", 2}, {"sn", 1}, {"epoch", 1}}));
  EXPECT_TRUE(p->alerts.holding());
  EXPECT_EQ(p->alerts.pending(), fed.layout().host_name(2) + ": 1 alert(s) to handle");
  EXPECT_EQ(ctx.control_names(), std::vector<std::string>{"CLC_REQ"});
  p->leader.on_ready(ctx, 3, body_of({{"number", 3}}));
  p->participant.on_saved(ctx, 3);
  p->leader.on_ack(ctx, body_of({{"number", 3}}));
  // At the commit, the alert: its broadcast follows the commit's.
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"CLC_REQ", "CLC_SAVE", "CLC_COMMIT", "ALERT_BCAST"}));
  EXPECT_FALSE(p->alerts.holding());
}

TEST_F(Hc3iAlerts, AMemberRollsBackAsItsLeaderDecidedThenReSends) {
  auto p = c1_node(3);
  auto& ctx = fed.node(3);
  log_to(*p, ctx, 1, 5, 1); // to c0, sent in interval 1: survives the rollback to CLC 2
  hc3i::Body b = body_of({{"cluster", 0}, {"sn", 2}, {"epoch", 1}, {"rollback", 1}, {"target", 2}, {"new_epoch", 1}});
  p->alerts.on_bcast(ctx, b);
  EXPECT_EQ(ctx.loads, std::vector<std::uint64_t>{2});
  EXPECT_TRUE(ctx.app_resent.empty()); // once restored
  EXPECT_TRUE(ctx.paused);
  p->recovery.on_loaded(ctx, 2, hc3i_test::clc_snapshot(ctx, 2, {2, 2, 0}));
  ASSERT_EQ(ctx.app_resent.size(), 1u);
  EXPECT_EQ(ctx.app_resent[0].first.seq, 5u);
  EXPECT_FALSE(ctx.paused);
}

} // namespace
} // namespace ckptsim
