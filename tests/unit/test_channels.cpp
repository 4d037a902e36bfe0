/* FIFO channels (sim/net/channels): in-order delivery over a network that reorders, duplicates
 * dropped, old incarnations ignored, a failed sender's buffered messages forgotten. */
#include "sim/net/channels.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

namespace {
std::unique_ptr<Envelope> env(NodeId src, Incarnation inc, std::uint64_t seq) {
  auto e = std::make_unique<Envelope>();
  e->src = src;
  e->src_inc = inc;
  e->chan_seq = seq;
  return e;
}
std::vector<std::uint64_t> seqs(const std::vector<std::unique_ptr<Envelope>>& v) {
  std::vector<std::uint64_t> out;
  for (const auto& e : v) out.push_back(e->chan_seq);
  return out;
}
} // namespace

TEST(ChannelSender, NumbersPerDestinationIncarnation) {
  ChannelSender s;
  EXPECT_EQ(s.next(3, 0), 0u);
  EXPECT_EQ(s.next(3, 0), 1u);
  EXPECT_EQ(s.next(4, 0), 0u);
  EXPECT_EQ(s.next(3, 1), 0u) << "a restarted destination starts a new channel";
  EXPECT_EQ(s.next(3, 1), 1u);
}

TEST(ChannelReceiver, DeliversInSendOrderWhateverTheArrivalOrder) {
  ChannelReceiver r;
  EXPECT_TRUE(r.accept(env(1, 0, 2)).empty());
  EXPECT_TRUE(r.accept(env(1, 0, 1)).empty());
  EXPECT_EQ(seqs(r.accept(env(1, 0, 0))), (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(seqs(r.accept(env(1, 0, 3))), (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(r.counters().reordered, 2u);
}

TEST(ChannelReceiver, ChannelsAreIndependent) {
  ChannelReceiver r;
  EXPECT_TRUE(r.accept(env(1, 0, 1)).empty());
  EXPECT_EQ(seqs(r.accept(env(2, 0, 0))), (std::vector<std::uint64_t>{0}));
}

TEST(ChannelReceiver, DropsDuplicates) {
  ChannelReceiver r;
  EXPECT_EQ(r.accept(env(1, 0, 0)).size(), 1u);
  EXPECT_TRUE(r.accept(env(1, 0, 0)).empty());
  EXPECT_TRUE(r.accept(env(1, 0, 2)).empty());
  EXPECT_TRUE(r.accept(env(1, 0, 2)).empty()) << "a duplicate of a buffered message";
  EXPECT_EQ(r.counters().duplicates, 2u);
}

TEST(ChannelReceiver, NewIncarnationResetsAndOldOneIsStale) {
  ChannelReceiver r;
  EXPECT_EQ(r.accept(env(1, 0, 0)).size(), 1u);
  EXPECT_TRUE(r.accept(env(1, 0, 2)).empty()); // waits for 1, which died with the sender
  EXPECT_EQ(seqs(r.accept(env(1, 1, 0))), (std::vector<std::uint64_t>{0}));
  EXPECT_TRUE(r.accept(env(1, 0, 1)).empty()) << "a late message of the dead incarnation";
  EXPECT_EQ(r.counters().stale, 1u);
}

TEST(ChannelReceiver, ForgetDropsWhatAFailedSenderLeftBuffered) {
  ChannelReceiver r;
  EXPECT_TRUE(r.accept(env(1, 0, 1)).empty());
  r.forget(1);
  // Even if the missing predecessor shows up, the forgotten successor is gone.
  EXPECT_EQ(seqs(r.accept(env(1, 0, 0))), (std::vector<std::uint64_t>{0}));
}
