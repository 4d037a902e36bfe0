/* IndexSet (protocols/common/index_set.hpp): the channel indices a receiver delivered or a sender
 * sent, kept as a prefix plus the members above it. */
#include "sim/protocol/index_set.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

TEST(IndexSet, InOrderItIsAPrefix) {
  IndexSet s;
  for (std::uint64_t i = 0; i < 5; i++) s.insert(i);
  EXPECT_EQ(s.next(), 5u);
  EXPECT_TRUE(s.prefix());
  EXPECT_TRUE(s.contains(4));
  EXPECT_FALSE(s.contains(5));
  s.insert(3); // a duplicate changes nothing
  EXPECT_EQ(s, IndexSet(5, {}));
}

TEST(IndexSet, OutOfOrderMembersWaitAboveThePrefixUntilTheGapFills) {
  IndexSet s;
  s.insert(0);
  s.insert(2);
  s.insert(3);
  EXPECT_EQ(s.next(), 1u);
  EXPECT_EQ(s.above(), (std::vector<std::uint64_t>{2, 3}));
  EXPECT_TRUE(s.contains(2));
  EXPECT_FALSE(s.contains(1));
  s.insert(1);
  EXPECT_EQ(s.next(), 4u);
  EXPECT_TRUE(s.prefix());
}

TEST(IndexSet, EraseEndsThePrefixAtTheUndoneMember) {
  IndexSet s(6, {8});
  s.erase(3);
  EXPECT_EQ(s.next(), 3u);
  EXPECT_EQ(s.above(), (std::vector<std::uint64_t>{4, 5, 8}));
  s.erase(8);
  s.erase(5);
  EXPECT_EQ(s.above(), (std::vector<std::uint64_t>{4}));
  // Undoing a channel's last deliveries newest first, as an orphan rollback does, leaves a prefix.
  IndexSet t(4, {});
  t.erase(3);
  t.erase(2);
  EXPECT_EQ(t, IndexSet(2, {}));
}

TEST(IndexSet, CoversAndIntersection) {
  const IndexSet a(3, {5, 6});
  EXPECT_TRUE(a.covers(IndexSet(2, {5})));
  EXPECT_TRUE(a.covers(IndexSet(3, {6})));
  EXPECT_FALSE(a.covers(IndexSet(4, {})));
  EXPECT_FALSE(a.covers(IndexSet(0, {4})));
  EXPECT_TRUE(IndexSet(7, {}).covers(a));
  EXPECT_EQ(a.intersection(IndexSet(6, {})), IndexSet(3, {5}));
  EXPECT_EQ(IndexSet(6, {}).intersection(a), IndexSet(3, {5}));
  EXPECT_EQ(a.intersection(IndexSet(1, {6, 9})), IndexSet(1, {6}));
}

TEST(IndexSet, AllBelowSkipsTheIndicesStillHeldBySender) {
  const IndexSet delivered(2, {4});
  EXPECT_TRUE(delivered.all_below(2, {}));
  EXPECT_FALSE(delivered.all_below(3, {}));  // 2 missing
  EXPECT_TRUE(delivered.all_below(3, {2}));  // 2 was still held when 3 left
  EXPECT_FALSE(delivered.all_below(6, {2})); // 3 and 5 missing
  EXPECT_TRUE(delivered.all_below(6, {2, 3, 5}));
}
