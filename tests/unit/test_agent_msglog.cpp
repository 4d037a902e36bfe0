/* Agent-level tests of msglog on fake nodes (no SimGrid), after SPEC 3.6: sender-based logging,
 * determinants on the event logger, replay of the failed process alone in the logged order.
 * Three processes (nodes 0-2) in one cluster; the event logger is endpoint 3. No checkpoint is
 * taken (no period): a restarted process starts from the initial state and replays every
 * delivery. A determinant (owner, src, idx, rsn) says that @c owner's delivery number @c rsn was
 * message @c idx of the channel from @c src. */
#include "protocols/msglog/messages.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ckptsim {
namespace {

using test_support::FakeFederation;
using test_support::WireMessage;

constexpr NodeId kLogger = 3;

std::size_t msglog_count(const std::vector<FakeFederation::Delivered>& log, const std::string& type) {
  return std::count_if(log.begin(), log.end(), [&](const auto& d) { return d.type == type; });
}

const msglog::Piggyback& msglog_piggyback(const PayloadPtr& pb) { return static_cast<const msglog::Piggyback&>(*pb); }

/** (src, seq) of each delivery of @p node, in order. */
std::vector<std::pair<NodeId, std::uint64_t>> msglog_deliveries(FakeFederation& fed, NodeId node) {
  std::vector<std::pair<NodeId, std::uint64_t>> out;
  for (const auto& [msg, pb] : fed.node(node).delivered) out.emplace_back(msg.src, msg.seq);
  return out;
}

class MsglogAgent : public ::testing::Test {
 protected:
  explicit MsglogAgent(const std::string& variant = "pessimistic")
      : fed(test_support::one_cluster(3), "msglog", {{"variant", variant}}) {
    fed.start();
  }
  FakeFederation fed;
};

class MsglogAgentCausal : public MsglogAgent {
 protected:
  MsglogAgentCausal()
      : MsglogAgent("causal") {}
};

TEST_F(MsglogAgent, ADeliveryIsLoggedAndItsDeterminantAcknowledged) {
  fed.app_send(0, 1);
  auto log = fed.settle();
  // The message, one DET (node 1's delivery 1) to the logger, its DET_ACK.
  EXPECT_EQ(log.size(), 3u);
  EXPECT_EQ(msglog_count(log, "DET"), 1u);
  EXPECT_EQ(msglog_count(log, "DET_ACK"), 1u);
  EXPECT_EQ(fed.node(1).delivered.size(), 1u);
  const auto& pb = msglog_piggyback(fed.node(0).app_sent.at(0).second);
  EXPECT_EQ(pb.idx, 0u);
  EXPECT_EQ(pb.rsn, 0u); // node 0 had delivered nothing
  EXPECT_FALSE(pb.causal);
  EXPECT_EQ(fed.stats().get("log.entries"), 1); // the payload in its sender's memory
}

TEST_F(MsglogAgent, PessimisticSendWaitsUntilTheDeterminantsItDependsOnAreStable) {
  fed.hold = [](const WireMessage& m) { return m.to == kLogger; }; // the logger is slow
  fed.app_send(0, 1);
  fed.settle();
  EXPECT_EQ(fed.node(1).delivered.size(), 1u);
  fed.app_send(1, 2); // depends on node 1's delivery 1, not stable yet: held
  fed.settle();
  EXPECT_TRUE(fed.node(1).app_sent.empty());
  EXPECT_EQ(fed.stats().get("msglog.held"), 1);

  fed.hold = nullptr;
  for (const auto& m : fed.take_held()) fed.hand(m);
  fed.settle(); // DET_ACK: the send leaves
  ASSERT_EQ(fed.node(1).app_sent.size(), 1u);
  const auto& pb = msglog_piggyback(fed.node(1).app_sent[0].second);
  EXPECT_EQ(pb.rsn, 1u);
  EXPECT_TRUE(pb.dets.empty());
  EXPECT_EQ(fed.node(2).delivered.size(), 1u);
}

TEST_F(MsglogAgentCausal, CausalSendCarriesTheUnstableDeterminantInstead) {
  fed.hold = [](const WireMessage& m) { return m.to == kLogger; };
  fed.app_send(0, 1);
  fed.settle();
  fed.app_send(1, 2); // leaves at once, with node 1's determinant that the logger lacks
  fed.settle();
  EXPECT_EQ(fed.stats().get("msglog.held"), 0);
  ASSERT_EQ(fed.node(1).app_sent.size(), 1u);
  const auto& pb = msglog_piggyback(fed.node(1).app_sent[0].second);
  EXPECT_TRUE(pb.causal);
  EXPECT_EQ(pb.stable, 0u);
  EXPECT_EQ(pb.dets, (std::vector<msglog::Det>{{1, 0, 0, 1}}));
  EXPECT_EQ(fed.node(2).delivered.size(), 1u);
}

/* Node 1 delivers b (from 2), a (from 0), c (from 2), then fails. Its determinants at the logger
 * say: rsn 1 = channel 2 index 0, rsn 2 = channel 0 index 0, rsn 3 = channel 2 index 1. The
 * senders re-send a, b, c from their logs; the replay delivers b, a, c whatever the order the
 * copies arrive in across the two channels (each channel stays FIFO). */
struct MsglogArrival {
  const char* name;
  std::vector<int> order;  // indices into the held messages: a, CATCHUP from 0, b, c, CATCHUP from 2
  std::size_t after_first; // deliveries once the first message is handed
};

class MsglogAgentReplay : public MsglogAgent, public ::testing::WithParamInterface<MsglogArrival> {};

TEST_P(MsglogAgentReplay, TheRestartedProcessReplaysInTheLoggedOrder) {
  const AppMessage b = fed.app_send(2, 1);
  fed.settle();
  const AppMessage a = fed.app_send(0, 1);
  fed.settle();
  const AppMessage c = fed.app_send(2, 1);
  fed.settle();
  const std::vector<std::pair<NodeId, std::uint64_t>> logged{{2, b.seq}, {0, a.seq}, {2, c.seq}};
  ASSERT_EQ(msglog_deliveries(fed, 1), logged);

  fed.at(5);
  const FailureNotice notice = fed.fail(1, 1);
  fed.hold = [](const WireMessage& m) { return m.to == 1 && m.from != kLogger; };
  fed.restart(notice);
  auto log = fed.settle();
  // REPLAY_REQ, REPLAY; RESEND_REQ to both peers (their re-sends and CATCHUPs are held).
  EXPECT_EQ(msglog_count(log, "REPLAY"), 1u);
  EXPECT_EQ(msglog_count(log, "RESEND_REQ"), 2u);
  EXPECT_EQ(fed.node(1).restores.size(), 1u); // the initial state
  fed.advance_to(5);                          // the restart overhead (0) is paid
  EXPECT_EQ(fed.node(1).restarts_completed, 1);

  const auto held = fed.take_held();
  ASSERT_EQ(held.size(), 5u);
  const std::vector<std::pair<NodeId, std::string>> sent{
      {0, "resent"}, {0, "CATCHUP"}, {2, "resent"}, {2, "resent"}, {2, "CATCHUP"}};
  for (std::size_t i = 0; i < held.size(); i++) EXPECT_EQ(std::make_pair(held[i].from, held[i].type()), sent[i]) << i;
  fed.hold = nullptr;
  const auto& arrival = GetParam();
  for (std::size_t i = 0; i < arrival.order.size(); i++) {
    fed.hand(held[static_cast<std::size_t>(arrival.order[i])]);
    if (i == 0) {
      EXPECT_EQ(fed.node(1).delivered.size(), arrival.after_first);
    }
  }
  fed.settle();
  EXPECT_EQ(msglog_deliveries(fed, 1), logged);
  EXPECT_EQ(fed.stats().get("msglog.replayed"), 3);
  // The determinants came from the logger: the replay sends none again.
  EXPECT_EQ(fed.node(1).control_names(), (std::vector<std::string>{"REPLAY_REQ", "RESEND_REQ", "RESEND_REQ"}));
  // No process but the failed one rolls back; everyone reports its part of the recovery.
  for (NodeId p : {0, 2}) {
    EXPECT_TRUE(fed.node(p).restores.empty()) << p;
    EXPECT_EQ(fed.node(p).reported, std::vector<FailureId>{1}) << p;
  }
  EXPECT_EQ(fed.node(1).reported, std::vector<FailureId>{1});
}

INSTANTIATE_TEST_SUITE_P(Arrivals, MsglogAgentReplay,
                         ::testing::Values(MsglogArrival{"ChannelFromZeroFirst", {0, 1, 2, 3, 4}, 0}, // a waits for b
                                           MsglogArrival{"ChannelFromTwoFirst", {2, 3, 4, 0, 1}, 1},  // c waits for a
                                           MsglogArrival{"Interleaved", {2, 0, 1, 3, 4}, 1}),
                         [](const auto& info) { return std::string(info.param.name); });

/* Causal: node 1 delivers b (from 2) and, before its determinant reaches the logger, sends d to
 * node 0, which keeps a copy of the determinant. Node 1 fails with the logger knowing nothing:
 * its replay takes b's determinant from node 0's copy (CATCHUP). */
TEST_F(MsglogAgentCausal, TheReplayTakesTheDeterminantsTheLoggerLacksFromThePeers) {
  fed.hold = [](const WireMessage& m) { return m.to == kLogger; };
  const AppMessage b = fed.app_send(2, 1);
  fed.settle();
  const AppMessage d = fed.app_send(1, 0);
  fed.settle();
  EXPECT_EQ(fed.node(0).delivered.size(), 1u);

  const FailureNotice notice = fed.fail(1, 1); // its DET, held on the way, is lost with it
  fed.hold = nullptr;
  const auto held = fed.take_held();
  ASSERT_EQ(held.size(), 1u); // node 0's DET (of d's delivery) only
  EXPECT_EQ(held[0].from, 0);
  fed.hand(held[0]);
  fed.restart(notice);
  fed.settle();
  fed.advance_to(0);
  fed.settle();
  EXPECT_EQ(fed.stats().get("msglog.replay_from_peers"), 1);
  EXPECT_EQ(msglog_deliveries(fed, 1), (std::vector<std::pair<NodeId, std::uint64_t>>{{2, b.seq}}));
  // The logger lacked it: the replayed delivery's determinant goes to the logger now.
  const auto names = fed.node(1).control_names();
  EXPECT_EQ(std::count(names.begin(), names.end(), "DET"), 1);
  // The re-execution sends d again: node 0 has it (a duplicate), and node 1's recovery is over.
  EXPECT_TRUE(fed.node(1).reported.empty());
  fed.app_send(1, 0);
  fed.settle();
  EXPECT_EQ(fed.node(1).app_sent.at(0).first.seq, d.seq);
  EXPECT_EQ(fed.stats().get("msglog.duplicates"), 1);
  EXPECT_EQ(fed.node(0).delivered.size(), 1u);
  EXPECT_EQ(fed.node(1).reported, std::vector<FailureId>{1});
}

} // namespace
} // namespace ckptsim
