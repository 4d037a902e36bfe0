/* The rendezvous board (sim/engine/rendezvous.hpp): who holds messages for whom, and one wake-up
 * on its way per holder. */
#include "sim/engine/rendezvous.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

TEST(RendezvousBoard, HoldersAwaitTheirReceiverOnceAndLeaveWhenSettled) {
  RendezvousBoard b;
  b.resize(4);
  EXPECT_FALSE(b.awaited(2));
  b.await(2, 0);
  b.await(2, 1);
  b.await(2, 0); // a second message of the same holder: one entry
  EXPECT_TRUE(b.awaited(2));
  EXPECT_FALSE(b.awaited(1));
  std::vector<NodeId> seen;
  b.settle(2, [&](NodeId h) {
    seen.push_back(h);
    return h == 1; // 1 is woken, 0 keeps waiting
  });
  EXPECT_EQ(seen, (std::vector<NodeId>{0, 1}));
  seen.clear();
  b.settle(2, [&](NodeId h) {
    seen.push_back(h);
    return true;
  });
  EXPECT_EQ(seen, (std::vector<NodeId>{0}));
  EXPECT_FALSE(b.awaited(2));
}

TEST(RendezvousBoard, OneWakeUpOnItsWayPerHolder) {
  RendezvousBoard b;
  b.resize(3);
  EXPECT_TRUE(b.ring(1));
  EXPECT_FALSE(b.ring(1)); // already on its way
  EXPECT_TRUE(b.ring(2));
  b.answered(1);
  EXPECT_TRUE(b.ring(1));
}
