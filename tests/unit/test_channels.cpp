/* FIFO channels (sim/net/channels): in-order delivery over a network that reorders, duplicates
 * dropped, old incarnations ignored, a failed sender's buffered messages forgotten, and quiet
 * channels forgotten at both ends. */
#include "sim/net/channels.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

namespace {
constexpr NodeId kDst = 9; // the receiver of every test, incarnation 0

std::unique_ptr<Envelope> env(NodeId src, Incarnation inc, std::uint64_t seq) {
  auto e = std::make_unique<Envelope>();
  e->src = src;
  e->src_inc = inc;
  e->dst = kDst;
  e->chan_seq = seq;
  return e;
}
std::vector<std::uint64_t> seqs(const std::vector<std::unique_ptr<Envelope>>& v) {
  std::vector<std::uint64_t> out;
  for (const auto& e : v) out.push_back(e->chan_seq);
  return out;
}
// The receiver's side alone; @p on_wire: other envelopes of the pair still under way.
std::vector<std::unique_ptr<Envelope>> accept(ChannelTable& t, std::unique_ptr<Envelope> e, std::size_t on_wire = 1) {
  return t.accept(kDst, 0, std::move(e), on_wire);
}
} // namespace

TEST(Channels, NumbersPerDestinationIncarnation) {
  ChannelTable t;
  EXPECT_EQ(t.next(1, 0, 3, 0), 0u);
  EXPECT_EQ(t.next(1, 0, 3, 0), 1u);
  EXPECT_EQ(t.next(1, 0, 4, 0), 0u);
  EXPECT_EQ(t.next(1, 0, 3, 1), 0u) << "a restarted destination starts a new channel";
  EXPECT_EQ(t.next(1, 0, 3, 1), 1u);
  EXPECT_EQ(t.next(1, 1, 3, 1), 0u) << "so does a restarted sender";
}

TEST(Channels, DeliversInSendOrderWhateverTheArrivalOrder) {
  ChannelTable t;
  EXPECT_TRUE(accept(t, env(1, 0, 2)).empty());
  EXPECT_TRUE(accept(t, env(1, 0, 1)).empty());
  EXPECT_EQ(seqs(accept(t, env(1, 0, 0))), (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(seqs(accept(t, env(1, 0, 3))), (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(t.counters().reordered, 2u);
}

TEST(Channels, ChannelsAreIndependent) {
  ChannelTable t;
  EXPECT_TRUE(accept(t, env(1, 0, 1)).empty());
  EXPECT_EQ(seqs(accept(t, env(2, 0, 0))), (std::vector<std::uint64_t>{0}));
}

TEST(Channels, DropsDuplicates) {
  ChannelTable t;
  EXPECT_EQ(accept(t, env(1, 0, 0)).size(), 1u);
  EXPECT_TRUE(accept(t, env(1, 0, 0)).empty());
  EXPECT_TRUE(accept(t, env(1, 0, 2)).empty());
  EXPECT_TRUE(accept(t, env(1, 0, 2)).empty()) << "a duplicate of a buffered message";
  EXPECT_EQ(t.counters().duplicates, 2u);
}

TEST(Channels, NewIncarnationResetsAndOldOneIsStale) {
  ChannelTable t;
  EXPECT_EQ(accept(t, env(1, 0, 0)).size(), 1u);
  EXPECT_TRUE(accept(t, env(1, 0, 2)).empty()); // waits for 1, which died with the sender
  EXPECT_EQ(seqs(accept(t, env(1, 1, 0))), (std::vector<std::uint64_t>{0}));
  EXPECT_TRUE(accept(t, env(1, 0, 1)).empty()) << "a late message of the dead incarnation";
  EXPECT_EQ(t.counters().stale, 1u);
}

TEST(Channels, ARestartedReceiverHearsAFreshChannel) {
  ChannelTable t;
  EXPECT_EQ(accept(t, env(1, 0, 0)).size(), 1u);
  EXPECT_TRUE(accept(t, env(1, 0, 2)).empty());
  // Incarnation 1 of the receiver: what incarnation 0 held is not its own.
  EXPECT_EQ(seqs(t.accept(kDst, 1, env(1, 0, 0), 1)), (std::vector<std::uint64_t>{0}));
}

TEST(Channels, ForgetDropsWhatAFailedSenderLeftBuffered) {
  ChannelTable t;
  EXPECT_TRUE(accept(t, env(1, 0, 1)).empty());
  t.forget(kDst, 0, 1);
  // Even if the missing predecessor shows up, the forgotten successor is gone.
  EXPECT_EQ(seqs(accept(t, env(1, 0, 0))), (std::vector<std::uint64_t>{0}));
}

TEST(Channels, AQuietChannelIsForgottenAndNumbersFromZeroAtBothEnds) {
  ChannelTable t;
  for (std::uint64_t i = 0; i < 3; i++) EXPECT_EQ(t.next(1, 0, kDst, 0), i);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(seqs(accept(t, env(1, 0, 1), 1)), (std::vector<std::uint64_t>{}));
  EXPECT_EQ(seqs(accept(t, env(1, 0, 0), 1)), (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(t.size(), 1u) << "message 2 is still under way";
  EXPECT_EQ(seqs(accept(t, env(1, 0, 2), 0)), (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(t.size(), 0u) << "all three delivered, nothing on the wire";
  EXPECT_EQ(t.next(1, 0, kDst, 0), 0u);
  EXPECT_EQ(seqs(accept(t, env(1, 0, 0), 0)), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(t.size(), 0u);
}

TEST(Channels, AChannelIsKeptWhileAnOlderIncarnationMaySpeak) {
  ChannelTable t;
  EXPECT_EQ(t.next(1, 1, kDst, 0), 0u);
  // Delivered, but a message of the sender's incarnation 0 is still on the wire: the receiver
  // must keep knowing that incarnation 1 spoke, to drop it as stale.
  EXPECT_EQ(seqs(accept(t, env(1, 1, 0), 1)), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(t.size(), 1u);
  EXPECT_TRUE(accept(t, env(1, 0, 5), 0).empty());
  EXPECT_EQ(t.counters().stale, 1u);
}

TEST(Channels, AChannelWithALostMessageIsKept) {
  ChannelTable t;
  EXPECT_EQ(t.next(1, 0, kDst, 0), 0u);
  EXPECT_EQ(t.next(1, 0, kDst, 0), 1u); // lost on the way
  EXPECT_EQ(seqs(accept(t, env(1, 0, 0), 0)), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(t.size(), 1u) << "numbered 2, delivered 1: not quiet";
}

// A control message that arrived before its predecessors is off the wire but not seen by the
// receiver's protocol: it counts as under way (early_control) until delivered or dropped. A
// recovery that waits for quiescence ended once with such an ALERT buffered, and the consistency
// check found the orphan that ALERT was about to undo (stress.py --partitions, hc3i, seed 123).
TEST(Channels, ControlMessagesBufferedEarlyCountUntilDeliveredOrDropped) {
  ChannelTable t;
  auto control = [](NodeId src, Incarnation inc, std::uint64_t seq) {
    auto e = env(src, inc, seq);
    e->kind = Envelope::Kind::Control;
    return e;
  };
  EXPECT_TRUE(accept(t, control(1, 0, 1)).empty());
  EXPECT_TRUE(accept(t, env(1, 0, 2)).empty()); // an application message: not counted
  EXPECT_TRUE(accept(t, control(2, 0, 1)).empty());
  EXPECT_EQ(t.early_control(), 2u);
  EXPECT_EQ(seqs(accept(t, env(1, 0, 0))), (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(t.early_control(), 1u) << "delivered with its predecessor";
  t.forget(kDst, 0, 2);
  EXPECT_EQ(t.early_control(), 0u) << "dropped with its failed sender's stream";
  EXPECT_TRUE(accept(t, control(3, 0, 1)).empty());
  EXPECT_EQ(t.early_control(), 1u);
  EXPECT_EQ(seqs(accept(t, control(3, 1, 0))), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(t.early_control(), 0u) << "dropped when a newer incarnation of its sender speaks";
}
