/* The coordinated protocol's checkpoint triggering rule (LAM/MPI paper, figure 3), dates by hand:
 * interval 100 s, checkpoints that last 10 s. */
#include "protocols/coordinated/trigger.hpp"

#include "sim/config/input_error.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ckptsim::coordinated {
namespace {

TEST(Trigger, PeriodicNextIsCommitPlusInterval) {
  TriggerClock c(TriggerPolicy::Periodic, 100);
  EXPECT_TRUE(c.periodic());
  EXPECT_FALSE(c.collective());
  EXPECT_EQ(c.next(), 100);
  EXPECT_FALSE(c.periodic_due(99.5));
  EXPECT_TRUE(c.periodic_due(100));
  c.committed(110, 10); // started at 100, lasted 10 s: now + interval + delay = 100 + 100 + 10
  EXPECT_EQ(c.next(), 210);
  EXPECT_EQ(c.delay(), 10);
  EXPECT_FALSE(c.collective_due(500)) << "the periodic policy ignores collectives";
  c.restart(300); // a recovery: the period counts from the restart of the computation
  EXPECT_EQ(c.next(), 400);
}

TEST(Trigger, BothSkipsThePeriodicCheckpointAfterACollectiveOne) {
  TriggerClock c(TriggerPolicy::Both, 100);
  EXPECT_TRUE(c.periodic());
  EXPECT_FALSE(c.collective_due(50)) << "no interval went by since the start";
  EXPECT_TRUE(c.collective_due(100)) << "ckpt_time - delay = 100 - 0 <= 100";
  c.committed(110, 10); // periodic at 100, committed at 110
  EXPECT_EQ(c.next(), 210);
  // cr_ckpt_coll: ckpt_time - delay = 200: declined before, taken from 200 on.
  EXPECT_FALSE(c.collective_due(150));
  EXPECT_FALSE(c.collective_due(199.9));
  EXPECT_TRUE(c.collective_due(200));
  c.committed(212, 7); // a collective checkpoint at 205 lasting 7 s
  EXPECT_EQ(c.next(), 312);
  // The periodic timer set for 210 fires: a checkpoint was taken at the collective: skipped.
  EXPECT_FALSE(c.periodic_due(210));
  EXPECT_TRUE(c.periodic_due(312));
  EXPECT_FALSE(c.collective_due(304.9)) << "ckpt_time - delay = 312 - 7 = 305";
  EXPECT_TRUE(c.collective_due(305));
}

TEST(Trigger, CollectiveHasNoTimerAndSpacesCheckpointsByTheInterval) {
  TriggerClock c(TriggerPolicy::Collective, 100);
  EXPECT_FALSE(c.periodic());
  EXPECT_TRUE(c.collective());
  EXPECT_FALSE(c.collective_due(99));
  EXPECT_TRUE(c.collective_due(100));
  c.committed(130, 20); // started at 110
  EXPECT_FALSE(c.collective_due(209)) << "130 + 100 - 20 = 210: an interval after the last start";
  EXPECT_TRUE(c.collective_due(210));
}

TEST(Trigger, WithoutAPeriodEveryCollectiveCheckpoints) {
  for (TriggerPolicy p : {TriggerPolicy::Collective, TriggerPolicy::Both}) {
    TriggerClock c(p, INFINITY);
    EXPECT_FALSE(c.periodic()) << to_string(p);
    EXPECT_TRUE(c.collective_due(0)) << to_string(p);
    c.committed(5, 3);
    EXPECT_TRUE(c.collective_due(5)) << to_string(p);
  }
  TriggerClock never(TriggerPolicy::Periodic, INFINITY);
  EXPECT_FALSE(never.periodic());
  EXPECT_FALSE(never.collective_due(1e9));
}

TEST(Trigger, PolicyNames) {
  EXPECT_EQ(parse_trigger("periodic"), TriggerPolicy::Periodic);
  EXPECT_EQ(parse_trigger("collective"), TriggerPolicy::Collective);
  EXPECT_EQ(parse_trigger("both"), TriggerPolicy::Both);
  try {
    parse_trigger("sometimes");
    FAIL() << "accepted an unknown trigger";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--param trigger"), std::string::npos) << what;
    EXPECT_NE(what.find("periodic, collective, both"), std::string::npos) << what;
  }
}

} // namespace
} // namespace ckptsim::coordinated
