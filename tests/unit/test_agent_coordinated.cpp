/* Agent-level tests of the blocking coordinated protocol on fake nodes (no SimGrid): the wave
 * state machine (INIT, FLUSH on every channel, the save, ACK, CONT) and its abort by a failure,
 * with exact message counts. Two clusters of 2 nodes: nodes 0-3, the coordinator is endpoint 4. */
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ckptsim {
namespace {

using test_support::FakeFederation;

Topology two_by_two() {
  Topology t;
  for (const char* name : {"c0", "c1"}) {
    ClusterSpec c;
    c.name = name;
    c.nodes = 2;
    t.clusters.push_back(c);
  }
  return t;
}

std::size_t count(const std::vector<FakeFederation::Delivered>& log, const std::string& type) {
  return std::count_if(log.begin(), log.end(), [&](const auto& d) { return d.type == type; });
}

constexpr NodeId kCoordinator = 4;
constexpr int kWaveTimer = 1; // the coordinator's period timer

class CoordinatedWave : public ::testing::Test {
 protected:
  CoordinatedWave()
      : fed(two_by_two(), "coordinated") {
    fed.node(kCoordinator).periods["checkpoint_period"] = 100;
    fed.start();
  }
  /** The coordinator's timer fires at 100 s and the INIT / FLUSH exchange runs to the saves. */
  std::vector<FakeFederation::Delivered> start_wave() {
    EXPECT_EQ(fed.node(kCoordinator).timer(kWaveTimer), 100);
    fed.at(100);
    fed.agent(kCoordinator).on_timer(fed.node(kCoordinator), kWaveTimer);
    return fed.route();
  }
  FakeFederation fed;
};

TEST_F(CoordinatedWave, InitThenAFlushOnEveryChannelThenTheSave) {
  auto log = start_wave();
  // INIT to the 4 processes, then each floods FLUSH to all 4 (itself included): N + N^2.
  EXPECT_EQ(log.size(), 4u + 16u);
  EXPECT_EQ(count(log, "INIT"), 4u);
  EXPECT_EQ(count(log, "FLUSH"), 16u);
  for (NodeId p = 0; p < 4; p++) {
    EXPECT_EQ(fed.node(p).saves, std::vector<std::uint64_t>{1}) << p; // wave 1, once its 4 FLUSH arrived
    EXPECT_TRUE(fed.node(p).paused) << p;                             // blocking: no computation
  }
}

TEST_F(CoordinatedWave, NoSaveBeforeTheLastFlush) {
  fed.at(100);
  fed.agent(kCoordinator).on_timer(fed.node(kCoordinator), kWaveTimer);
  // Everything to node 3 is lost: it never flushes, so the others hold 3 FLUSH of 4 and wait.
  auto log = fed.route({3});
  EXPECT_EQ(count(log, "INIT"), 3u);
  EXPECT_EQ(count(log, "FLUSH"), 9u);
  for (NodeId p = 0; p < 3; p++) {
    EXPECT_TRUE(fed.node(p).saves.empty()) << p;
    EXPECT_TRUE(fed.node(p).paused) << p;
  }
}

TEST_F(CoordinatedWave, AcksThenContCommitAndResume) {
  start_wave();
  fed.complete_saves();
  auto log = fed.route();
  EXPECT_EQ(count(log, "ACK"), 4u);
  EXPECT_EQ(count(log, "CONT"), 4u);
  EXPECT_EQ(log.size(), 8u);
  EXPECT_EQ(fed.node(kCoordinator).statistics.get("coordinated.waves_committed"), 1);
  for (NodeId p = 0; p < 4; p++) EXPECT_FALSE(fed.node(p).paused) << p;
  // The wave took no time (instant messages): the next one is a period after the commit.
  EXPECT_EQ(fed.node(kCoordinator).timer(kWaveTimer), 200);
}

TEST_F(CoordinatedWave, AFailureDuringTheWaveAbortsItAndRollsBackToTheInitialState) {
  start_wave();
  // Node 1 fails before the saves complete: the wave is aborted, the survivors roll back to the
  // last committed wave (none: the initial state) and discard the aborted wave's checkpoint.
  FailureNotice notice;
  notice.id = 1;
  notice.victims = {1};
  notice.date = 100;
  fed.agent(kCoordinator).on_failure_detected(fed.node(kCoordinator), notice);
  for (NodeId p : {0, 2, 3}) fed.agent(p).on_failure_detected(fed.node(p), notice);
  auto log = fed.route({1});
  EXPECT_EQ(count(log, "ROLLBACK"), 3u); // not to the victim, still down
  EXPECT_EQ(log.size(), 3u);
  EXPECT_EQ(fed.node(kCoordinator).statistics.get("coordinated.waves_aborted"), 1);
  for (NodeId p : {0, 2, 3}) {
    EXPECT_EQ(fed.node(p).discards, std::vector<std::uint64_t>{1}) << p;
    ASSERT_EQ(fed.node(p).restores.size(), 1u) << p;
    EXPECT_EQ(fed.node(p).restores[0].reason, "global rollback to the initial state (failure 1)");
    EXPECT_EQ(fed.node(p).reported, std::vector<FailureId>{1}) << p; // its part of the recovery done
    EXPECT_TRUE(fed.node(p).paused) << p;                            // until the victim is back
  }
  // A late save completion of the aborted wave sends no ACK.
  fed.complete_saves({1});
  EXPECT_TRUE(fed.route().empty());
}

} // namespace
} // namespace ckptsim
