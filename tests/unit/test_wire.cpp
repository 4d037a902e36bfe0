/* The registry of envelopes on the wire (sim/engine/wire.hpp) without SimGrid: a transfer is an
 * int here (1: ended). What counts as on the wire, what a failure purges, and what the receiver
 * of a purged envelope gets. */
#include "sim/engine/wire.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace ckptsim;

namespace {
using TestWire = BasicWireRegistry<int>;
constexpr int kEnded = 1;

std::unique_ptr<Envelope> wire_envelope(Envelope::Kind kind, NodeId src, NodeId dst) {
  auto env = std::make_unique<Envelope>();
  env->kind = kind;
  env->src = src;
  env->dst = dst;
  return env;
}
bool ended(const int& transfer) { return transfer == kEnded; }
} // namespace

TEST(WireRegistry, NumbersEnvelopesAndCountsControlMessages) {
  TestWire w;
  auto app = wire_envelope(Envelope::Kind::App, 0, 1);
  Envelope* raw = app.get();
  EXPECT_EQ(w.add(std::move(app)), 1u);
  EXPECT_EQ(raw->wire_id, 1u);
  EXPECT_EQ(w.add(wire_envelope(Envelope::Kind::Control, 1, 0)), 2u);
  EXPECT_EQ(w.add(wire_envelope(Envelope::Kind::Control, 2, 0)), 3u);
  EXPECT_EQ(w.size(), 3u);
  EXPECT_EQ(w.control_messages(), 2);

  auto taken = w.take(2);
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(taken->src, 1);
  EXPECT_EQ(w.control_messages(), 1);
  EXPECT_TRUE(w.drop(3)); // the sender saw its transfer fail
  EXPECT_FALSE(w.drop(3));
  EXPECT_EQ(w.control_messages(), 0);
  EXPECT_EQ(w.take(1).get(), raw);
  EXPECT_TRUE(w.empty());
  EXPECT_THROW(w.take(1), std::logic_error); // taken twice: an engine bug
}

TEST(WireRegistry, AFailurePurgesWhatWasSentToTheNodeAndWhatItSentStillInTransfer) {
  TestWire w;
  const auto to_dead = w.add(wire_envelope(Envelope::Kind::Control, 0, 2));
  const auto from_dead_delivered = w.add(wire_envelope(Envelope::Kind::App, 2, 1));
  const auto from_dead_in_transfer = w.add(wire_envelope(Envelope::Kind::Control, 2, 0));
  const auto unrelated = w.add(wire_envelope(Envelope::Kind::Control, 0, 1));
  w.set_transfer(to_dead, kEnded); // in its mailbox, unread: gone with the receiver all the same
  w.set_transfer(from_dead_delivered, kEnded);
  w.purge(2, ended);
  EXPECT_EQ(w.size(), 2u);
  EXPECT_EQ(w.control_messages(), 1); // the unrelated one
  EXPECT_FALSE(w.drop(to_dead));
  EXPECT_NE(w.take(from_dead_delivered), nullptr); // reached its receiver before the failure
  // The receiver of a purged envelope got it as its sender died: lost, once.
  EXPECT_EQ(w.take(from_dead_in_transfer), nullptr);
  EXPECT_THROW(w.take(from_dead_in_transfer), std::logic_error);
  EXPECT_NE(w.take(unrelated), nullptr);
  EXPECT_TRUE(w.empty());
}

TEST(WireRegistry, ATransferStartedAfterThePurgeIsKeptWithThePurgedEnvelope) {
  TestWire w;
  // The sender posts, its transfer starts only after a failure struck it (put_async yielded).
  const auto id = w.add(wire_envelope(Envelope::Kind::App, 3, 4));
  w.purge(3, ended);
  EXPECT_TRUE(w.empty());
  w.set_transfer(id, kEnded); // no effect on the wire: the entry stays purged
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(w.take(id), nullptr);
}
