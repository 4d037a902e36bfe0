/* Unit tests of hc3i::Membership and hc3i::Dependencies (protocols/hc3i/dependencies.hpp): who is
 * who, and the DDV and SN bookkeeping (epochs, orphans, CLCs stored, failures heard of), on a fake
 * node. Three clusters of three nodes: c0 = {0, 1, 2}, c1 = {3, 4, 5}, c2 = {6, 7, 8}. */
#include "tests/unit/test_hc3i_parts.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

using hc3i::Ddv;
using hc3i_test::Parts;

class Hc3iDependencies : public ::testing::Test {
 protected:
  Hc3iDependencies()
      : fed(hc3i_test::federation(3, 3), "hc3i") {}
  test_support::FakeFederation fed;
};

TEST_F(Hc3iDependencies, MembershipNamesTheLeadersAndTheRecoveryLeader) {
  Parts p(fed.layout(), 4);
  EXPECT_EQ(p.place.cluster(), 1);
  EXPECT_EQ(p.place.clusters(), 3);
  EXPECT_EQ(p.place.members(), (std::vector<NodeId>{3, 4, 5}));
  EXPECT_EQ(p.place.leader(), 3);
  EXPECT_FALSE(p.place.is_leader());
  EXPECT_EQ(p.place.leader_of(2), 6);
  // The cluster's lowest member the failure did not strike: the leader, unless it is a victim.
  const auto struck = [](std::vector<NodeId> victims) {
    FailureNotice n;
    n.victims = std::move(victims);
    return n;
  };
  EXPECT_EQ(p.place.recovery_leader(struck({4})), 3);
  EXPECT_EQ(p.place.recovery_leader(struck({3})), 4);
  EXPECT_EQ(p.place.recovery_leader(struck({3, 4})), 5);               // a rack with the leader
  EXPECT_EQ(p.place.recovery_leader(struck({0, 1, 2})), 3);            // another cluster's outage
  EXPECT_EQ(p.place.recovery_leader(struck({3, 4, 5})), std::nullopt); // the whole cluster
  EXPECT_EQ(p.place.victims_here(struck({1, 3, 5, 7})), (std::vector<NodeId>{3, 5}));
  p.place.broadcast(fed.node(4), hc3i::Msg::AlertBcast, std::make_shared<hc3i::Body>(), 4);
  ASSERT_EQ(fed.node(4).controls.size(), 2u);
  EXPECT_EQ(fed.node(4).controls[0].to, 3);
  EXPECT_EQ(fed.node(4).controls[1].to, 5);
}

TEST_F(Hc3iDependencies, AStartingNodeHasSnZeroAndNoDependency) {
  Parts p(fed.layout(), 1);
  EXPECT_EQ(p.deps.sn(), 0u);
  EXPECT_EQ(p.deps.ddv(), (Ddv{0, 0, 0}));
  EXPECT_EQ(p.deps.epoch(), 0u);
  EXPECT_EQ(p.deps.last_clc(), 0u);
  for (int c = 0; c < 3; c++) EXPECT_EQ(p.deps.known_epoch(c), 0u) << c;
}

TEST_F(Hc3iDependencies, ACommittedClcIsTheClustersStateAndIsStored) {
  Parts p(fed.layout(), 1);
  hc3i_test::commit_clc(p, 1, {1, 0, 0});
  // A forced CLC 2 of c0 for a message of c2's interval 3: its base is the DDV before the merge.
  EXPECT_EQ(p.deps.base_ddv(2), (Ddv{2, 0, 0}));
  hc3i_test::commit_clc(p, 2, {2, 0, 3}, true);
  EXPECT_EQ(p.deps.sn(), 2u);
  EXPECT_EQ(p.deps.ddv(), (Ddv{2, 0, 3}));
  ASSERT_EQ(p.deps.clcs().size(), 2u);
  EXPECT_EQ(p.deps.clcs()[1].base, (Ddv{2, 0, 0}));
  EXPECT_TRUE(p.deps.clcs()[1].forced);
  EXPECT_EQ(p.deps.last_clc(), 2u);
  EXPECT_EQ(p.deps.base_ddv(3), (Ddv{3, 0, 3}));
}

TEST_F(Hc3iDependencies, ARollbackDropsTheLaterClcsAndTheCollectorTheOlderOnes) {
  Parts p(fed.layout(), 0);
  auto& ctx = fed.node(0);
  for (hc3i::Sn n = 1; n <= 4; n++) hc3i_test::commit_clc(p, n, {n, 0, 0});
  p.deps.drop_after(ctx, 2);
  EXPECT_EQ(ctx.discards, (std::vector<std::uint64_t>{3, 4}));
  p.deps.collect(ctx, 2);
  EXPECT_EQ(ctx.discards, (std::vector<std::uint64_t>{3, 4, 1}));
  ASSERT_EQ(p.deps.clcs().size(), 1u);
  EXPECT_EQ(p.deps.clcs()[0].sn, 2u);
  // The leader counts what its cluster stores (counted now only: 1).
  p.deps.record_storage(ctx);
  EXPECT_EQ(fed.stats().cluster_values("hc3i.clcs_stored")[0], 1);
  EXPECT_EQ(fed.stats().cluster_values("hc3i.clcs_stored_max")[0], 1);
  Parts other(fed.layout(), 1); // not a leader: counts nothing
  hc3i_test::commit_clc(other, 1, {1, 0, 0});
  other.deps.record_storage(fed.node(1));
  EXPECT_EQ(fed.stats().cluster_values("hc3i.clcs_stored")[0], 1);
}

TEST_F(Hc3iDependencies, ARollbackHeardOfMakesTheUndoneMessagesOrphans) {
  Parts p(fed.layout(), 0);
  p.deps.learn_rollback(2, 1, 3); // c2 rolled back to SN 3: epoch 1
  EXPECT_EQ(p.deps.known_epoch(2), 1u);
  p.deps.learn_rollback(2, 1, 1); // the same rollback again (another alert): ignored
  p.deps.learn_rollback(0, 5, 1); // its own cluster's: its epoch says
  EXPECT_EQ(p.deps.known_epoch(0), 0u);
  EXPECT_EQ(p.deps.rollbacks()[2].size(), 1u);
  // Sent in c2's epoch 0 with SN >= 3: undone. With SN 2, or in epoch 1: not.
  EXPECT_TRUE(p.deps.orphan(2, 0, 3));
  EXPECT_TRUE(p.deps.orphan(2, 0, 7));
  EXPECT_FALSE(p.deps.orphan(2, 0, 2));
  EXPECT_FALSE(p.deps.orphan(2, 1, 3));
  EXPECT_FALSE(p.deps.orphan(1, 0, 3));
  p.deps.set_epoch(2);
  EXPECT_EQ(p.deps.known_epoch(0), 2u);
}

TEST_F(Hc3iDependencies, ARestoreSetsTheSnAndDdvAndAResetTheInitialState) {
  Parts p(fed.layout(), 0);
  hc3i_test::commit_clc(p, 1, {1, 0, 0});
  hc3i_test::commit_clc(p, 2, {2, 1, 0});
  p.deps.restore(1, p.deps.intern({1, 0, 0}));
  EXPECT_EQ(p.deps.sn(), 1u);
  EXPECT_EQ(p.deps.ddv(), (Ddv{1, 0, 0}));
  EXPECT_EQ(p.deps.clcs().size(), 2u); // the CLCs are dropped by drop_after, not by the restore
  p.deps.reset();
  EXPECT_EQ(p.deps.sn(), 0u);
  EXPECT_EQ(p.deps.ddv(), (Ddv{0, 0, 0}));
}

TEST_F(Hc3iDependencies, FailuresHeardOfAreOpenUntilTheirVictimIsBack) {
  Parts p(fed.layout(), 0);
  p.deps.hear_of(3);
  p.deps.hear_of(2);
  EXPECT_EQ(p.deps.latest_failure(), 3u);
  EXPECT_TRUE(p.deps.failures_open());
  p.deps.back(3);
  EXPECT_TRUE(p.deps.failures_open());
  p.deps.back(2);
  EXPECT_FALSE(p.deps.failures_open());
  // A restarted node knows what its restart notice says, and adopts its order's knowledge.
  Parts r(fed.layout(), 4);
  FailureNotice own;
  own.id = 5;
  own.latest = 6;
  own.down = {6};
  r.deps.restarted(own);
  EXPECT_EQ(r.deps.latest_failure(), 6u);
  r.deps.back(6);
  EXPECT_TRUE(r.deps.failures_open()); // its own, 5
  hc3i::Body order = hc3i_test::body_of({{"latest", 7}});
  order.clcs = {hc3i::StoredClc{1, Ddv{0, 1, 0}}, hc3i::StoredClc{2, Ddv{0, 2, 1}}};
  order.rollbacks = {{std::pair<std::uint64_t, hc3i::Sn>{1, 1}}}; // c0 rolled back once, to SN 1
  r.deps.adopt(order);
  EXPECT_EQ(r.deps.latest_failure(), 7u);
  EXPECT_EQ(r.deps.last_clc(), 2u);
  EXPECT_EQ(r.deps.known_epoch(0), 1u);
  EXPECT_EQ(r.deps.rollbacks().size(), 3u); // one list per cluster
}

} // namespace
} // namespace ckptsim
