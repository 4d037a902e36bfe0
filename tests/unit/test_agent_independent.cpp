/* Agent-level tests of independent checkpointing on fake nodes (no SimGrid), after SPEC 3.5 and
 * protocols/independent/: every process (unit=process) checkpoints on its own timer, with no
 * message to the others (only CKPT_RECORD to the recovery manager); a message carries its
 * sender's epoch, interval (the number of its last checkpoint) and channel index; on a failure
 * the manager stops everyone (RECOVER_REQ), collects their dependencies (STATE), computes the
 * recovery line and orders the rollbacks (ROLLBACK), and the senders re-send from their logs
 * what a rollback undid once the victim is back. Three processes (nodes 0-2), one cluster; the
 * recovery manager is endpoint 3. */
#include "protocols/independent/messages.hpp"
#include "protocols/independent/process.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ckptsim {
namespace {

using test_support::FakeFederation;

constexpr NodeId kManager = 3;
constexpr double kPeriod = 100;

std::size_t independent_count(const std::vector<FakeFederation::Delivered>& log, const std::string& type) {
  return std::count_if(log.begin(), log.end(), [&](const auto& d) { return d.type == type; });
}

const independent::Piggyback& independent_piggyback(const PayloadPtr& pb) {
  return static_cast<const independent::Piggyback&>(*pb);
}

/** The first checkpoint date of unit @p u: P * frac((u + 1) * golden ratio) (process_ckpt.cpp),
 *  phases spread over the period. */
double independent_phase(int u) { return kPeriod * std::fmod((u + 1) * 0.6180339887498949, 1.0); }

class IndependentAgent : public ::testing::Test {
 protected:
  IndependentAgent()
      : fed(test_support::one_cluster(3), "independent") {
    for (NodeId p = 0; p < 3; p++) fed.node(p).periods["checkpoint_period"] = kPeriod;
    fed.start();
  }
  FakeFederation fed;
};

TEST_F(IndependentAgent, EachProcessCheckpointsOnItsOwnTimerWithoutCoordination) {
  // Dates 61.8, 23.6 and 85.4 s: phases spread by the golden ratio.
  for (NodeId p = 0; p < 3; p++)
    EXPECT_DOUBLE_EQ(fed.node(p).timer(independent::kCheckpointTimer.id()), independent_phase(p));
  auto log = fed.run_until(30); // node 1's
  EXPECT_EQ(log.size(), 1u);
  EXPECT_EQ(independent_count(log, "CKPT_RECORD"), 1u);
  EXPECT_EQ(fed.node(1).saves, std::vector<std::uint64_t>{1});
  EXPECT_TRUE(fed.node(0).saves.empty());
  EXPECT_TRUE(fed.node(2).saves.empty());
  EXPECT_FALSE(fed.node(1).paused);
  // The next one a period after this one.
  EXPECT_DOUBLE_EQ(fed.node(1).timer(independent::kCheckpointTimer.id()), independent_phase(1) + kPeriod);
  log = fed.run_until(200); // 61.8, 85.4, 123.6, 161.8, 185.4: in turn, no coordination
  EXPECT_EQ(independent_count(log, "CKPT_RECORD"), 5u);
  EXPECT_EQ(log.size(), 5u);
  EXPECT_EQ(fed.node(0).saves, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(fed.node(1).saves, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(fed.node(2).saves, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(fed.stats().get("independent.checkpoints"), 6);
}

TEST_F(IndependentAgent, AMessageCarriesItsSendersIntervalAndChannelIndex) {
  fed.app_send(0, 1);
  fed.run_until(70); // node 1's checkpoint 1 at 23.6, node 0's at 61.8
  fed.app_send(0, 1);
  fed.app_send(0, 2);
  fed.settle();
  const auto& sent = fed.node(0).app_sent;
  ASSERT_EQ(sent.size(), 3u);
  const std::vector<std::pair<std::int64_t, std::uint64_t>> expected{{0, 0}, {1, 1}, {1, 0}}; // interval, index
  for (std::size_t i = 0; i < sent.size(); i++) {
    const auto& pb = independent_piggyback(sent[i].second);
    EXPECT_TRUE(pb.inter);
    EXPECT_EQ(pb.epoch, 0u);
    EXPECT_EQ(std::make_pair(pb.interval, pb.index), expected[i]) << i;
  }
  EXPECT_EQ(fed.node(1).delivered.size(), 2u);
  EXPECT_EQ(fed.node(2).delivered.size(), 1u);
}

/* The recovery line, by hand. Checkpoints: node 1's 1 at 23.6 s, node 0's 1 at 61.8 s, node 2's
 * 1 at 85.4 s. Messages: m1 0 -> 1 in node 0's interval 0 (after node 1's checkpoint), m2 1 -> 2 in
 * node 1's interval 1, m3 0 -> 1 in node 0's interval 1; node 2's checkpoint 1 then holds m2's
 * delivery (its D[1] = 1). Node 1 fails at 90 s: it starts from its checkpoint 1, undoing its
 * intervals >= 1, m2's send among them. Node 2's state and its checkpoint 1 both hold m2's
 * delivery (D[1] = 1 >= 1): node 2 goes back to checkpoint 0, the initial state. Node 0
 * delivered nothing: it keeps its state. Line: [keep, 1, 0]. Node 1's checkpoint had
 * delivered nothing from node 0: node 0 re-sends m1 and m3 (indices 0 and 1) from its log once
 * node 1 is back. */
TEST_F(IndependentAgent, AFailureRollsBackToTheRecoveryLineAndTheSendersReSendWhatItUndid) {
  fed.run_until(30);
  const AppMessage m1 = fed.app_send(0, 1);
  fed.settle();
  fed.run_until(70);
  fed.app_send(1, 2);
  fed.settle();
  const AppMessage m3 = fed.app_send(0, 1);
  fed.settle();
  fed.run_until(90);
  EXPECT_EQ(fed.node(2).saves, std::vector<std::uint64_t>{1});

  const FailureNotice notice = fed.fail(1, 1);
  auto log = fed.settle();
  EXPECT_EQ(independent_count(log, "RECOVER_REQ"), 2u); // the survivors
  EXPECT_EQ(independent_count(log, "STATE"), 2u);
  EXPECT_EQ(independent_count(log, "ROLLBACK"), 2u); // the victim's when it restarts
  EXPECT_EQ(log.size(), 6u);
  const auto& rec = fed.stats().series("independent.recoveries");
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0]["line"], nlohmann::json::parse("[null, 1, 0]"));
  EXPECT_EQ(fed.stats().get("independent.rollbacks"), 2);   // units 1 and 2
  EXPECT_EQ(fed.stats().get("independent.rolled_over"), 1); // node 2's checkpoint 1
  EXPECT_EQ(fed.stats().get("independent.to_initial"), 1);
  // Node 2: its checkpoint 1 is discarded, the initial state restored; node 0 keeps its state.
  EXPECT_EQ(fed.node(2).discards, std::vector<std::uint64_t>{1});
  ASSERT_EQ(fed.node(2).restores.size(), 1u);
  EXPECT_EQ(fed.node(2).app->delivered, 0u);
  EXPECT_TRUE(fed.node(0).restores.empty());
  EXPECT_TRUE(fed.node(0).paused); // until the victim is back

  fed.restart(notice);
  log = fed.settle();
  EXPECT_EQ(independent_count(log, "RESTARTED"), 1u);
  EXPECT_EQ(independent_count(log, "ROLLBACK"), 1u);
  EXPECT_EQ(fed.node(1).loads, std::vector<std::uint64_t>{1});
  fed.advance_to(90); // the restart overhead (0)
  EXPECT_EQ(fed.node(1).restarts_completed, 1);
  EXPECT_TRUE(fed.node(0).app_resent.empty()); // not while a victim is down

  fed.node_back(notice);
  log = fed.settle();
  EXPECT_EQ(independent_count(log, "resent"), 2u);
  EXPECT_EQ(log.size(), 2u);
  ASSERT_EQ(fed.node(0).app_resent.size(), 2u);
  EXPECT_EQ(fed.node(0).app_resent[0].first.seq, m1.seq);
  EXPECT_EQ(fed.node(0).app_resent[1].first.seq, m3.seq);
  EXPECT_EQ(fed.stats().get("independent.replays"), 2);
  // Node 1, back to its checkpoint 1, delivers both again, in their channel order.
  ASSERT_EQ(fed.node(1).delivered.size(), 2u);
  EXPECT_EQ(fed.node(1).delivered[0].first.seq, m1.seq);
  EXPECT_EQ(fed.node(1).delivered[1].first.seq, m3.seq);
  for (NodeId p = 0; p < 3; p++) {
    EXPECT_EQ(fed.node(p).reported, std::vector<FailureId>{1}) << p;
    EXPECT_FALSE(fed.node(p).paused) << p;
  }
  for (NodeId e = 0; e < 4; e++) EXPECT_TRUE(fed.agent(e).idle()) << e;
}

} // namespace
} // namespace ckptsim
