/* Agent-level tests of CCK's checkpoint wave on fake nodes (no SimGrid), after SPEC 3.3 and the
 * CCK thesis (4.2.5): the coordinator's INIT; each process stops, PINGs only the processes V_i
 * it still expects data from (receive tasks left in its graph), answers PINGs with PONG once
 * stopped, saves once its PONGs are in, sends CONT to V_i, resumes once it has as many CONT as
 * PINGs, and ACKs: 2N + 3 sum(V_i) messages.
 * The application is a Jacobi 1D stencil of 6 cells, 1 iteration, on 3 processes (2 cells each)
 * run by the fake federation: each process sends the border value of version 0 to each
 * neighbour, receives the neighbours' and computes its 2 cells. V_i before any progress: {1},
 * {0, 2}, {1}. The coordinator is endpoint 3; waves every 100 s. */
#include "protocols/cck/dataflow.hpp"
#include "sim/app/stencil/workload.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using test_support::FakeFederation;
using test_support::WireMessage;

constexpr NodeId kCckCoordinator = 3;

class CckAgent : public ::testing::Test {
 protected:
  CckAgent()
      : workload(test_support::stencil_app(1, 6, 1, 1), test_support::layout_of(3))
      , fed(test_support::one_cluster(3), "cck", {}, &workload) {
    fed.node(kCckCoordinator).periods["checkpoint_period"] = 100;
    fed.start();
  }
  /** Runs the applications, routing their messages, until none can go on. */
  void run_apps() {
    for (bool moved = true; moved;) {
      moved = false;
      for (NodeId p = 0; p < 3; p++) moved = fed.run_app(p) || moved;
      fed.route();
    }
  }
  /** The control messages of the wave by type (the statistics count every send). */
  double sent(const std::string& type) { return fed.stats().get("ctrl." + type); }
  /** The wave the coordinator committed: its measured message count and sum(V_i). */
  std::pair<double, long> committed_wave() {
    const auto& waves = fed.stats().series("cck.waves");
    if (waves.size() != 1) return {-1, -1};
    return {waves[0]["messages"].get<double>(), waves[0]["sum_v"].get<long>()};
  }
  StencilWorkload workload;
  FakeFederation fed;
};

TEST_F(CckAgent, BeforeAnyProgressEveryProcessPingsEachNeighbour) {
  fed.advance_to(100);
  fed.settle();
  // sum(V_i) = 1 + 2 + 1 = 4: 2 * 3 + 3 * 4 = 18 messages.
  EXPECT_EQ(sent("INIT"), 3);
  EXPECT_EQ(sent("PING"), 4);
  EXPECT_EQ(sent("PONG"), 4);
  EXPECT_EQ(sent("CONT"), 4);
  EXPECT_EQ(sent("ACK"), 3);
  EXPECT_EQ(committed_wave(), std::make_pair(18.0, 4L));
  EXPECT_EQ(cck::wave_message_count({1, 2, 1}), 18u);
  for (NodeId p = 0; p < 3; p++) {
    EXPECT_EQ(fed.node(p).saves, std::vector<std::uint64_t>{1}) << p;
    EXPECT_FALSE(fed.node(p).app_paused()) << p;
  }
}

TEST_F(CckAgent, OnlyTheProcessesStillExpectedToSendDataArePinged) {
  // Everything is delivered but node 0's value to node 1, late on its channel: nodes 0 and 2
  // have received all they need and finished, node 1 still expects data from node 0.
  fed.hold = [](const WireMessage& m) { return m.from == 0 && m.to == 1; };
  run_apps();
  EXPECT_TRUE(fed.node(0).app->finished);
  EXPECT_TRUE(fed.node(2).app->finished);
  EXPECT_FALSE(fed.node(1).app->finished);
  // V = {}, {0}, {}: node 1 PINGs node 0 only; nodes 0 and 2 save at once.
  fed.advance_to(100);
  fed.settle();
  EXPECT_EQ(sent("PING"), 1);
  EXPECT_EQ(fed.node(0).saves, std::vector<std::uint64_t>{1});
  EXPECT_EQ(fed.node(2).saves, std::vector<std::uint64_t>{1});
  EXPECT_TRUE(fed.node(1).saves.empty()); // its PONG follows node 0's value on the channel
  EXPECT_TRUE(fed.node(0).app_paused());  // node 1's CONT is still to come
  EXPECT_FALSE(fed.node(2).app_paused()); // nobody PINGed it: resumed after its save

  fed.hold = nullptr;
  const auto held = fed.take_held();
  ASSERT_EQ(held.size(), 2u);
  EXPECT_EQ(held[0].type(), "app");
  EXPECT_EQ(held[1].type(), "PONG");
  for (const auto& m : held) fed.hand(m);
  fed.settle();
  // 2 * 3 + 3 * 1 = 9 messages; node 1's checkpoint holds the value it waited for.
  EXPECT_EQ(sent("INIT"), 3);
  EXPECT_EQ(sent("PONG"), 1);
  EXPECT_EQ(sent("CONT"), 1);
  EXPECT_EQ(sent("ACK"), 3);
  EXPECT_EQ(committed_wave(), std::make_pair(9.0, 1L));
  EXPECT_EQ(fed.node(1).saves, std::vector<std::uint64_t>{1});
  EXPECT_EQ(fed.node(1).saved.at(1).app->delivered, 2u);
}

TEST_F(CckAgent, AfterTheLastReceiveAWaveIsInitAndAckOnly) {
  run_apps();
  for (NodeId p = 0; p < 3; p++) EXPECT_TRUE(fed.node(p).app->finished) << p;
  fed.advance_to(100);
  auto log = fed.settle();
  EXPECT_EQ(log.size(), 6u); // 2N, sum(V_i) = 0
  EXPECT_EQ(committed_wave(), std::make_pair(6.0, 0L));
  for (NodeId p = 0; p < 3; p++) EXPECT_EQ(fed.node(p).saves, std::vector<std::uint64_t>{1}) << p;
}

} // namespace
} // namespace ckptsim
