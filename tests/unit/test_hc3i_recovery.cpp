/* Unit tests of hc3i::Recovery (protocols/hc3i/recovery.hpp): failure notices, rollback orders,
 * restarts, the CLC in doubt, on fake nodes. Two clusters of three nodes: c0 = {0, 1, 2} led by
 * node 0, c1 = {3, 4, 5}. Every node of c0 stores CLCs 1 and 2 (DDV [n, 0]). */
#include "tests/unit/test_hc3i_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using hc3i::Ddv;
using hc3i_test::body_of;
using hc3i_test::Parts;
using hc3i_test::sent_hc3i_body;

class Hc3iRecovery : public ::testing::Test {
 protected:
  Hc3iRecovery()
      : fed(hc3i_test::federation(2, 3), "hc3i") {}
  std::unique_ptr<Parts> c0_node(NodeId n) {
    auto p = std::make_unique<Parts>(fed.layout(), n);
    hc3i_test::commit_clc(*p, 1, {1, 0});
    hc3i_test::commit_clc(*p, 2, {2, 0});
    return p;
  }
  static FailureNotice failure(FailureId id, NodeId victim) {
    FailureNotice n;
    n.id = id;
    n.victims = {victim};
    return n;
  }
  test_support::FakeFederation fed;
};

TEST_F(Hc3iRecovery, TheRecoveryLeaderOrdersItsClusterBackAndAlertsOnceTheVictimIsBack) {
  auto p = c0_node(0);
  auto& ctx = fed.node(0);
  ctx.periods["checkpoint_period"] = 100;
  const FailureNotice notice = failure(1, 1);
  p->recovery.on_failure_detected(ctx, notice);
  // ROLLBACK to CLC 2 to the survivors but itself (the victim gets its own once restarted).
  ASSERT_EQ(ctx.control_names(), std::vector<std::string>{"ROLLBACK"});
  EXPECT_EQ(ctx.controls[0].to, 2);
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("sn"), 2u);
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("epoch"), 1u);
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("failure"), 1u);
  EXPECT_EQ(ctx.loads, std::vector<std::uint64_t>{2});
  EXPECT_EQ(p->deps.epoch(), 1u);
  EXPECT_TRUE(ctx.paused);
  EXPECT_TRUE(p->recovery.recovering());
  EXPECT_EQ(ctx.events, std::vector<std::string>{"cluster_rollback"});
  EXPECT_EQ(fed.stats().cluster_values("hc3i.rollbacks"), (std::vector<double>{1, 0}));
  // The restarted node gets its order with the cluster's stable knowledge.
  p->recovery.on_restarted(ctx, 1, 1);
  ASSERT_EQ(ctx.controls.size(), 2u);
  EXPECT_EQ(ctx.controls[1].to, 1);
  const auto& order = sent_hc3i_body(ctx, 1);
  EXPECT_EQ(order.get("sn"), 2u);
  EXPECT_EQ(order.get("latest"), 1u);
  EXPECT_EQ(order.clcs.size(), 2u);
  p->recovery.on_loaded(ctx, 2, hc3i_test::clc_snapshot(ctx, 2, {2, 0}));
  EXPECT_TRUE(ctx.paused); // until the victim is back
  EXPECT_EQ(p->deps.sn(), 2u);
  p->recovery.on_node_back(ctx, notice);
  // Its CLCs replicated again, its alert (c0, 2) to c1's leader, the application resumed.
  EXPECT_EQ(ctx.replications, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(ctx.control_names(), (std::vector<std::string>{"ROLLBACK", "ROLLBACK", "ALERT"}));
  EXPECT_EQ(ctx.controls[2].to, 3);
  EXPECT_EQ(sent_hc3i_body(ctx, 2).get("sn"), 2u);
  EXPECT_EQ(sent_hc3i_body(ctx, 2).get("epoch"), 1u);
  EXPECT_FALSE(ctx.paused);
  EXPECT_FALSE(p->recovery.recovering());
  EXPECT_EQ(ctx.timer(hc3i::kClcTimer.id()), 100);
}

TEST_F(Hc3iRecovery, WhenTheLeaderFailsTheNextNodeLeadsTheRecovery) {
  auto p = c0_node(1);
  p->recovery.on_failure_detected(fed.node(1), failure(1, 0));
  ASSERT_EQ(fed.node(1).control_names(), std::vector<std::string>{"ROLLBACK"});
  EXPECT_EQ(fed.node(1).controls[0].to, 2);
  EXPECT_EQ(fed.node(1).loads, std::vector<std::uint64_t>{2});
}

TEST_F(Hc3iRecovery, AMemberWaitsForItsOrderAndAFailureElsewhereIsNotItsToRecover) {
  auto p = c0_node(2);
  auto& ctx = fed.node(2);
  p->recovery.on_failure_detected(ctx, failure(1, 4)); // in c1: its alert will tell
  EXPECT_FALSE(p->recovery.busy());
  EXPECT_TRUE(p->deps.failures_open());
  p->recovery.on_failure_detected(ctx, failure(2, 1));
  EXPECT_TRUE(p->recovery.state_pending());
  EXPECT_TRUE(ctx.paused);
  EXPECT_TRUE(ctx.controls.empty());
  EXPECT_TRUE(ctx.loads.empty());
  p->recovery.on_rollback_order(ctx, body_of({{"sn", 1}, {"epoch", 1}, {"failure", 2}}));
  EXPECT_EQ(ctx.loads, std::vector<std::uint64_t>{1});
  EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{2}); // CLC 2 can never be restored again
  p->recovery.on_rollback_order(ctx, body_of({{"sn", 1}, {"epoch", 1}, {"failure", 2}})); // applied already
  EXPECT_EQ(ctx.loads, std::vector<std::uint64_t>{1});
}

TEST_F(Hc3iRecovery, ASavedAndAcknowledgedClcStaysInDoubtUntilTheOrderNamesIt) {
  for (hc3i::Sn target : {3, 2}) {
    test_support::FakeFederation f(hc3i_test::federation(2, 3), "hc3i");
    Parts p(f.layout(), 2);
    auto& ctx = f.node(2);
    hc3i_test::commit_clc(p, 1, {1, 0});
    hc3i_test::commit_clc(p, 2, {2, 0});
    hc3i::Body req = body_of({{"number", 3}, {"epoch", 0}});
    req.ddv = p.deps.intern({3, 0});
    p.participant.on_req(ctx, req);
    p.participant.on_save(ctx, body_of({{"number", 3}}));
    p.participant.on_saved(ctx, 3); // saved and acknowledged: the leader may commit it
    p.recovery.on_failure_detected(ctx, failure(1, 1));
    EXPECT_TRUE(ctx.discards.empty()) << target;
    p.recovery.on_rollback_order(ctx, body_of({{"sn", target}, {"epoch", 1}, {"failure", 1}}));
    EXPECT_EQ(ctx.loads, std::vector<std::uint64_t>{target});
    EXPECT_EQ(p.deps.last_clc(), target);
    if (target == 3)
      EXPECT_TRUE(ctx.discards.empty()); // committed: stored
    else
      EXPECT_EQ(ctx.discards, std::vector<std::uint64_t>{3}); // never committed
  }
}

TEST_F(Hc3iRecovery, ARequestForTheNextClcWaitsUntilTheRestoredOneIsLoaded) {
  auto p = c0_node(2);
  auto& ctx = fed.node(2);
  p->recovery.on_failure_detected(ctx, failure(1, 1));
  p->recovery.on_rollback_order(ctx, body_of({{"sn", 2}, {"epoch", 1}, {"failure", 1}}));
  EXPECT_FALSE(p->recovery.hold_request(body_of({{"number", 3}, {"epoch", 0}}))); // an undone execution's
  EXPECT_TRUE(p->recovery.hold_request(body_of({{"number", 3}, {"epoch", 1}})));
  EXPECT_TRUE(ctx.controls.empty());
  p->recovery.on_loaded(ctx, 2, hc3i_test::clc_snapshot(ctx, 2, {2, 0}));
  EXPECT_EQ(ctx.control_names(), std::vector<std::string>{"CLC_READY"});
  EXPECT_TRUE(p->participant.active());
}

TEST_F(Hc3iRecovery, ARestartedNodeAsksForItsOrderReloadsThenPaysItsOverhead) {
  Parts p(fed.layout(), 1);
  auto& ctx = fed.node(1);
  ctx.overhead = 5;
  ctx.clock = 10;
  FailureNotice own = failure(1, 1);
  own.latest = 1;
  p.recovery.on_restart(ctx, own);
  EXPECT_TRUE(p.recovery.restarting());
  EXPECT_TRUE(ctx.paused);
  ASSERT_EQ(ctx.control_names(), std::vector<std::string>{"RESTARTED"});
  EXPECT_EQ(ctx.controls[0].to, 0);
  EXPECT_EQ(sent_hc3i_body(ctx, 0).get("failure"), 1u);
  hc3i::Body order = body_of({{"sn", 2}, {"epoch", 1}, {"failure", 1}, {"latest", 1}});
  order.clcs = {hc3i::StoredClc{1, Ddv{1, 0}}, hc3i::StoredClc{2, Ddv{2, 0}}};
  order.rollbacks = {{}, {}};
  p.recovery.on_rollback_order(ctx, order);
  EXPECT_EQ(p.deps.clcs().size(), 2u);
  EXPECT_EQ(p.deps.epoch(), 1u);
  EXPECT_EQ(ctx.loads, std::vector<std::uint64_t>{2});
  p.recovery.on_loaded(ctx, 2, hc3i_test::clc_snapshot(ctx, 2, {2, 0}));
  EXPECT_EQ(ctx.timer(hc3i::kRestartTimer), 15);
  EXPECT_EQ(ctx.restarts_completed, 0);
  EXPECT_FALSE(p.recovery.on_timer(ctx, hc3i::kClcTimer.id()));
  ctx.clock = 15;
  EXPECT_TRUE(p.recovery.on_timer(ctx, hc3i::kRestartTimer));
  EXPECT_EQ(ctx.restarts_completed, 1);
  EXPECT_FALSE(p.recovery.restarting());
  EXPECT_TRUE(ctx.paused); // until it is back (on_node_back)
  p.recovery.on_node_back(ctx, own);
  EXPECT_FALSE(ctx.paused);
}

} // namespace
} // namespace ckptsim
