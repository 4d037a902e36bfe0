/* The consistency oracle's folding (oracle.hpp): what lies behind every process' oldest pinned
 * position leaves the records, and the checks still catch what a rollback or a restart from the
 * initial state breaks there. */
#include "sim/observe/oracle.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

namespace {

// Process 0 sends @p n messages (numbers from @p first, content 100 + number) to process 1,
// which delivers them.
void exchange(ConsistencyOracle& o, std::uint64_t first, std::uint64_t n, std::uint64_t content = 100) {
  for (std::uint64_t s = first; s < first + n; s++) {
    o.on_send(0, s, 1, content + s);
    o.on_deliver(1, 0, s, content + s);
  }
}

bool mentions(const std::vector<Violation>& v, const std::string& what) {
  for (const auto& x : v)
    if (x.what.find(what) != std::string::npos) return true;
  return false;
}

} // namespace

TEST(OracleFold, WithoutMarksEverySettledMessageLeaves) {
  ConsistencyOracle o(2);
  exchange(o, 0, 10);
  o.on_send(0, 10, 1, 110); // in flight: stays, and so does nothing behind it on process 0
  o.fold();
  EXPECT_EQ(o.folded_events(), 20u);
  EXPECT_EQ(o.kept_events(), 1u);
  EXPECT_EQ(o.position(0), 11u); // positions count the folded events
  EXPECT_EQ(o.position(1), 10u);
  EXPECT_TRUE(o.check(false).empty());
  EXPECT_TRUE(mentions(o.check(true), "lost message 0#10"));
  o.on_deliver(1, 0, 10, 110);
  EXPECT_TRUE(o.check(true).empty());
}

TEST(OracleFold, AMarkKeepsWhatItsRestoreWouldUndo) {
  ConsistencyOracle o(2);
  exchange(o, 0, 3);
  auto ckpt = o.mark(1); // the receiver's checkpoint after three deliveries
  exchange(o, 3, 4);
  o.fold();
  EXPECT_EQ(o.folded_events(), 6u); // messages 0-2, both ends
  EXPECT_EQ(o.kept_events(), 8u);
  // The receiver rolls back: messages 3-6 were sent in the kept execution and are lost, named
  // one by one as without folding.
  o.truncate(1, ckpt->position);
  auto v = o.check(true);
  EXPECT_EQ(v.size(), 4u);
  EXPECT_TRUE(mentions(v, "lost message 0#3"));
  EXPECT_TRUE(mentions(v, "lost message 0#6"));
}

TEST(OracleFold, AReleasedMarkLetsFoldingGoOn) {
  ConsistencyOracle o(2);
  auto ckpt = o.mark(1);
  auto copy = ckpt; // a snapshot's copies share its mark
  exchange(o, 0, 5);
  o.fold();
  EXPECT_EQ(o.folded_events(), 0u);
  ckpt.reset();
  o.fold();
  EXPECT_EQ(o.folded_events(), 0u); // the copy still pins it
  copy.reset();
  o.fold();
  EXPECT_EQ(o.folded_events(), 10u);
  EXPECT_TRUE(o.check(true).empty());
}

TEST(OracleFold, DeterministicRestartFromTheInitialStateBalances) {
  ConsistencyOracle o(2);
  exchange(o, 0, 5);
  o.fold();
  o.truncate(0, 0); // the sender restarts from scratch; the receiver keeps its deliveries
  EXPECT_TRUE(mentions(o.check(true), "does not balance"));
  for (std::uint64_t s = 0; s < 5; s++) o.on_send(0, s, 1, 100 + s); // the same sends again
  EXPECT_TRUE(o.check(true).empty());
}

TEST(OracleFold, ReexecutionWithOtherContentIsCaughtByTheSums) {
  ConsistencyOracle o(2);
  exchange(o, 0, 5);
  o.fold();
  o.truncate(0, 0);
  for (std::uint64_t s = 0; s < 5; s++) o.on_send(0, s, 1, s == 3 ? 7 : 100 + s);
  auto v = o.check(true);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].what.find("does not balance"), std::string::npos) << v[0].what;
  EXPECT_NE(v[0].what.find("across folded history: 0"), std::string::npos) << v[0].what;
}

TEST(OracleFold, GlobalRestartWithFreshContentBalances) {
  // Protocol none: everybody restarts from scratch and the new execution draws other numbers.
  ConsistencyOracle o(2);
  exchange(o, 0, 5);
  o.fold();
  o.truncate(0, 0);
  o.truncate(1, 0);
  exchange(o, 0, 8, 500);
  EXPECT_TRUE(o.check(true).empty());
  o.fold();
  EXPECT_EQ(o.kept_events(), 0u);
  EXPECT_TRUE(o.check(true).empty());
  // ... and a message of the new execution never delivered is caught, folded number or not.
  o.on_send(0, 2, 1, 1);
  EXPECT_TRUE(mentions(o.check(true), "does not balance"));
}

TEST(OracleFold, ReceiverRestartWithoutRedeliveryIsCaught) {
  ConsistencyOracle o(2);
  exchange(o, 0, 5);
  o.fold();
  o.truncate(1, 0); // the receiver restarts from scratch, the sender keeps its sends
  EXPECT_TRUE(mentions(o.check(true), "does not balance"));
  for (std::uint64_t s = 0; s < 5; s++) o.on_deliver(1, 0, s, 100 + s); // delivered again from a log
  EXPECT_TRUE(o.check(true).empty());
}

TEST(OracleFold, SecondDeliveryOfASettledMessageIsCaught) {
  ConsistencyOracle o(2);
  exchange(o, 0, 5);
  o.fold();
  o.on_deliver(1, 0, 2, 102);
  EXPECT_TRUE(mentions(o.check(true), "does not balance"));
  // Undone by the receiver's rollback, it no longer counts.
  o.truncate(1, 5);
  EXPECT_TRUE(o.check(true).empty());
}

TEST(OracleFold, SettledDeliveryStillInTheHistoryIsNotCheckedTwice) {
  ConsistencyOracle o(3);
  // Process 2 delivers an unsettled message first, so its front cannot fold; 0 -> 2 settles
  // from the sender's side and its delivery stays in 2's history, marked.
  auto hold = o.mark(1); // 1's send may still be undone
  o.on_send(1, 0, 2, 9);
  o.on_deliver(2, 1, 0, 9);
  o.on_send(0, 0, 2, 5);
  o.on_deliver(2, 0, 0, 5);
  o.fold();
  EXPECT_EQ(o.folded_events(), 1u); // 0's send
  EXPECT_TRUE(o.check(true).empty());
  o.on_redeliver(2, 0, 0, 5); // a settled delivery re-executed (CCK): accepted
  EXPECT_TRUE(o.check(true).empty());
}

TEST(OracleFold, RestoreBehindTheFoldIsAnEngineBug) {
  ConsistencyOracle o(2);
  exchange(o, 0, 5);
  o.fold();
  o.truncate(1, 2);
  EXPECT_TRUE(mentions(o.check(false), "behind the part folded"));
}

TEST(OracleFold, FoldsByItselfAsHistoriesGrow) {
  ConsistencyOracle o(2);
  exchange(o, 0, 50000);
  EXPECT_GT(o.folded_events(), 90000u);
  EXPECT_LE(o.peak_events(), 4096u); // the smallest fold period: 4,096 events
  EXPECT_TRUE(o.check(true).empty());
}
