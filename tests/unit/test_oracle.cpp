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
