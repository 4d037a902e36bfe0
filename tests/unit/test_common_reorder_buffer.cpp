/* The per-sender reorder buffer of independent and msglog (protocols/common/reorder_buffer.hpp):
 * messages come out in channel-index order, copies of delivered or held messages are dropped,
 * senders are kept apart. Items are strings naming the copy. */
#include "protocols/common/reorder_buffer.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ckptsim {
namespace {

using Buffer = ReorderBuffer<std::string>;
using Filed = Buffer::Filed;

TEST(CommonReorderBuffer, MessagesComeOutInIndexOrderOnlyWhenTheirTurnCame) {
  Buffer b;
  EXPECT_EQ(b.file(1, 2, 0, "m2"), Filed::Held);
  EXPECT_EQ(b.file(1, 0, 0, "m0"), Filed::Held);
  EXPECT_EQ(b.take(1, 0), "m0");
  EXPECT_EQ(b.take(1, 1), std::nullopt) << "m1 has not arrived: m2 waits";
  EXPECT_EQ(b.file(1, 1, 1, "m1"), Filed::Held);
  EXPECT_EQ(b.take(1, 1), "m1");
  EXPECT_EQ(b.take(1, 2), "m2");
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.take(1, 3), std::nullopt);
}

TEST(CommonReorderBuffer, CopiesOfDeliveredAndOfHeldMessagesAreDropped) {
  Buffer b;
  EXPECT_EQ(b.file(4, 3, 5, "re-sent m3"), Filed::Delivered);
  EXPECT_TRUE(b.empty()) << "a copy of a delivered message is not kept";
  EXPECT_EQ(b.file(4, 6, 5, "first m6"), Filed::Held);
  EXPECT_EQ(b.file(4, 6, 5, "second m6"), Filed::Twice);
  EXPECT_EQ(b.take(4, 5), std::nullopt);
  EXPECT_EQ(b.take(4, 6), "first m6");
  EXPECT_TRUE(b.empty());
}

TEST(CommonReorderBuffer, SendersAreKeptApartAndListedInIncreasingOrder) {
  Buffer b;
  b.file(3, 0, 0, "from 3");
  b.file(1, 0, 0, "from 1");
  b.file(1, 1, 0, "from 1, next");
  EXPECT_EQ(b.senders(), (std::vector<NodeId>{1, 3}));
  EXPECT_EQ(b.take(3, 0), "from 3");
  EXPECT_EQ(b.senders(), (std::vector<NodeId>{1})) << "a sender with nothing held is not listed";
  EXPECT_EQ(b.take(2, 0), std::nullopt);
  b.clear();
  EXPECT_TRUE(b.empty());
  EXPECT_TRUE(b.senders().empty());
}

TEST(CommonReorderBuffer, DropsWhatAPredicateSaysIsGoneAndCountsIt) {
  Buffer b;
  b.file(1, 0, 0, "old");
  b.file(1, 1, 0, "new");
  b.file(2, 0, 0, "old");
  b.file(2, 4, 0, "old");
  EXPECT_EQ(b.drop_if(1, [](const std::string& m) { return m == "old"; }), 1u) << "sender 1 only";
  EXPECT_EQ(b.drop_if(7, [](const std::string&) { return true; }), 0u) << "a sender never heard of";
  EXPECT_EQ(b.take(1, 1), "new");
  EXPECT_EQ(b.senders(), (std::vector<NodeId>{2}));
  std::vector<NodeId> asked;
  EXPECT_EQ(b.drop_if([&](NodeId src, const std::string& m) {
    asked.push_back(src);
    return m == "old";
  }),
            2u);
  EXPECT_EQ(asked, (std::vector<NodeId>{2, 2}));
  EXPECT_TRUE(b.empty());
}

} // namespace
} // namespace ckptsim
