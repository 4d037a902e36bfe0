/* The oracle catches broken protocols: two protocols written for this test, one delivering every
 * message twice, one restarting only the failed process (its undone sends leave orphan
 * deliveries behind). A real protocol (none) on the same runs has no violation. */
#include "sim/protocol/protocol.hpp"
#include "tests/support/sim_child.hpp"
#include "tests/support/test_protocol.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

// LocalRestartAgent (test_protocol.hpp) restarts only the victim, from scratch: the others keep
// what they received from its undone execution.

class DuplicatingAgent : public LocalRestartAgent {
 public:
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override {
    ctx.deliver(msg, pb);
    ctx.deliver(msg, pb); // the bug under test
  }
};

const ProtocolRegistration dup = register_test_protocol<DuplicatingAgent>(
    "test-duplicate", "delivers every message twice (a broken protocol for tests)");
const ProtocolRegistration local = register_test_protocol<LocalRestartAgent>(
    "test-local-restart", "restarts only the failed process from scratch (a broken protocol for tests)");

RunConfig busy_run(const std::string& protocol, double mtbf) {
  RunConfig c = make_config(small_topology(2, 3, mtbf), small_application(2, 1.0, 60.0, 0.6, 0.3));
  c.options.protocol = protocol;
  c.options.seed = 1; // a seed whose run has failures (checked below)
  return c;
}

} // namespace

TEST(OracleCatches, ProtocolDeliveringTwice) {
  auto r = run_in_child(busy_run("test-duplicate", INFINITY));
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_GT(r.document["results"]["consistency"]["violations"].get<int>(), 0);
}

TEST(OracleCatches, ProtocolKeepingDeliveriesWhoseSendWasUndone) {
  auto r = run_in_child(busy_run("test-local-restart", 20.0));
  ASSERT_EQ(r.exit_status, 0) << r.error;
  ASSERT_GT(r.document["results"]["failures"].get<int>(), 0) << "the scenario must have failures";
  EXPECT_GT(r.document["results"]["consistency"]["violations"].get<int>(), 0);
}

TEST(OracleCatches, NothingWhenTheProtocolIsCorrect) {
  auto r = run_in_child(busy_run("none", 20.0));
  ASSERT_EQ(r.exit_status, 0) << r.error;
  ASSERT_GT(r.document["results"]["failures"].get<int>(), 0);
  EXPECT_EQ(r.document["results"]["consistency"]["violations"].get<int>(), 0);
  EXPECT_GT(r.document["results"]["consistency"]["checks"].get<int>(), 1);
}
