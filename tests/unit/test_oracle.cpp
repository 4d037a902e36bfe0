/* The consistency oracle on hand-written histories: orphans, double deliveries, lost messages,
 * non-deterministic re-executions, and truncation by a restore. */
#include "sim/observe/oracle.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

TEST(Oracle, ConsistentExchangeHasNoViolation) {
  ConsistencyOracle o(2);
  o.on_send(0, 0, 1, 42);
  o.on_deliver(1, 0, 0, 42);
  EXPECT_TRUE(o.check(false).empty());
  EXPECT_TRUE(o.check(true).empty());
}

TEST(Oracle, InFlightIsFineUntilTheEnd) {
  ConsistencyOracle o(2);
  o.on_send(0, 0, 1, 42);
  EXPECT_TRUE(o.check(false).empty());
  auto v = o.check(true);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].what.find("lost message 0#0"), std::string::npos) << v[0].what;
}

TEST(Oracle, RestoreThatUndoesASendMakesTheDeliveryAnOrphan) {
  ConsistencyOracle o(2);
  std::size_t ckpt = o.position(0);
  o.on_send(0, 0, 1, 42);
  o.on_deliver(1, 0, 0, 42);
  o.truncate(0, ckpt);
  auto v = o.check(false);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].what.find("orphan message 0#0"), std::string::npos) << v[0].what;
  // Rolling the receiver back too removes the orphan.
  o.truncate(1, 0);
  EXPECT_TRUE(o.check(true).empty());
}

TEST(Oracle, DoubleDeliveryIsReported) {
  ConsistencyOracle o(2);
  o.on_send(0, 0, 1, 42);
  o.on_deliver(1, 0, 0, 42);
  o.on_deliver(1, 0, 0, 42);
  auto v = o.check(false);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].what.find("delivered 2 times"), std::string::npos) << v[0].what;
}

TEST(Oracle, ReexecutionWithOtherContentIsReported) {
  ConsistencyOracle o(2);
  o.on_send(0, 0, 1, 42);
  o.on_deliver(1, 0, 0, 42);
  o.truncate(0, 0);
  o.on_send(0, 0, 1, 43); // same number, other content: not piecewise deterministic
  auto v = o.check(false);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].what.find("not deterministic"), std::string::npos) << v[0].what;
}

TEST(Oracle, DeterministicReexecutionKeepsEarlierDelivery) {
  ConsistencyOracle o(2);
  o.on_send(0, 0, 1, 42);
  o.on_deliver(1, 0, 0, 42);
  o.truncate(0, 0);
  o.on_send(0, 0, 1, 42); // the same message again: its receiver must not get it twice
  EXPECT_TRUE(o.check(true).empty());
  EXPECT_EQ(o.kept_events(), 2u);
}

// CCK's partial restart (oracle.hpp): a restored sender promises the sends its receivers still
// hold; a non-failed receiver re-executes receives it keeps.
TEST(Oracle, PromisedSendStandsForTheUndoneOneUntilKept) {
  ConsistencyOracle o(2);
  const std::size_t ckpt = o.position(0);
  o.on_send(0, 7, 1, 42);
  o.on_deliver(1, 0, 7, 42);
  o.truncate(0, ckpt);                  // the sender fails and restarts from its checkpoint
  EXPECT_EQ(o.check(false).size(), 1u); // an orphan without the promise
  o.promise(0, 7, 1);
  EXPECT_TRUE(o.check(false).empty());
  auto end = o.check(true);
  ASSERT_EQ(end.size(), 1u); // a promise never kept is caught at the end
  EXPECT_NE(end[0].what.find("promised"), std::string::npos) << end[0].what;
  o.on_send(0, 7, 1, 42); // the re-executed send keeps it
  EXPECT_EQ(o.open_promises(), 0u);
  EXPECT_TRUE(o.check(true).empty());
}

TEST(Oracle, KeptPromiseWithOtherContentIsNonDeterminism) {
  ConsistencyOracle o(2);
  o.on_send(0, 7, 1, 42);
  o.on_deliver(1, 0, 7, 42);
  o.truncate(0, 0);
  o.promise(0, 7, 1);
  o.on_send(0, 7, 1, 43);
  auto v = o.check(true);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].what.find("not deterministic"), std::string::npos) << v[0].what;
}

TEST(Oracle, PromisesGoWithTheNextRollbackOfTheSender) {
  ConsistencyOracle o(2);
  o.on_send(0, 7, 1, 42);
  o.on_deliver(1, 0, 7, 42);
  o.truncate(0, 0);
  o.promise(0, 7, 1);
  o.truncate(0, 0); // a second failure: its restore promises again or not at all
  EXPECT_EQ(o.check(false).size(), 1u);
}

TEST(Oracle, RedeliveryMustRepeatAKeptDelivery) {
  ConsistencyOracle o(3);
  o.on_send(0, 1, 1, 42);
  o.on_deliver(1, 0, 1, 42);
  o.on_redeliver(1, 0, 1, 42); // the same message again: no double delivery
  EXPECT_TRUE(o.check(true).empty());
  o.on_redeliver(1, 0, 1, 41); // other content
  o.on_redeliver(2, 0, 1, 42); // never delivered there
  auto v = o.check(false);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(o.check(false).empty()); // reported once
}
