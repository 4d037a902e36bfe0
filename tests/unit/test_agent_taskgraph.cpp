/* Agent-level tests of the taskgraph protocol on fake nodes (no SimGrid), after Lion ("Tolérance
 * aux pannes dans l'exécution distribuée de graphes de tâches", 3.3-3.4): checkpoints at the
 * application's program-order points without any coordination message, committed once the
 * backup knows them; after a failure the backup names the newest checkpoint it holds and asks the
 * peers the graph names to replay what that checkpoint's point does not cover; only the victim
 * rolls back; a restarted backup gets the newest copy again.
 * The application: a Jacobi 1D stencil of 6 cells on 3 processes (2 cells each), 4 iterations of
 * 0.25 s tasks. Versions 0..3 of the border cells cross: per version 0->1, 1->0, 1->2, 2->1, 16
 * messages in all. Backups: the next node of the cluster (0 -> 1, 1 -> 2, 2 -> 0). The tests
 * announce the program-order points as the node runtime does: before each step, once. */
#include "protocols/taskgraph/points.hpp"
#include "sim/app/stencil/workload.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace ckptsim {
namespace {

using test_support::FakeFederation;
using Names = std::vector<std::string>;
using Numbers = std::vector<std::uint64_t>;

class TaskgraphAgent : public ::testing::Test {
 protected:
  /** The protocol with a checkpoint every @p interval iterations, at points interval + 1, ... */
  void start(int interval) {
    fed = std::make_unique<FakeFederation>(test_support::one_cluster(3), "taskgraph",
                                           std::map<std::string, std::string>{{"interval", std::to_string(interval)}},
                                           &workload);
    fed->start();
  }
  /** One step of @p p as the node runtime drives it: the point it stands at announced first. */
  bool step(NodeId p) {
    test_support::FakeNode& n = fed->node(p);
    if (auto point = workload.next_point(*n.app, p); point && point->number > n.app->points_announced) {
      n.app->points_announced = point->number;
      fed->agent(p).on_app_point(n, *point);
    }
    return fed->run_app(p);
  }
  /** Every process steps in turn, the protocol settling (messages, saves, loads) after each
   *  round, until none moves. */
  void run_all() {
    for (bool moved = true; moved;) {
      moved = false;
      for (NodeId p = 0; p < 3; p++) moved = step(p) || moved;
      fed->settle();
    }
  }
  void point(NodeId p, std::uint64_t number, const std::string& kind = "iteration") {
    fed->agent(p).on_app_point(fed->node(p), AppPoint{kind, number});
  }
  double stat(const std::string& name) { return fed->stats().get(name); }
  std::uint64_t checksum(NodeId p) { return workload.checksum(*fed->node(p).app); }

  StencilWorkload workload{test_support::stencil_app(1, 6, 1, 4), test_support::layout_of(3)};
  std::unique_ptr<FakeFederation> fed;
};

TEST_F(TaskgraphAgent, ACheckpointAtAPointSendsNothingUntilItsCopyIsCompleteAndCommitsWhenTheBackupKnows) {
  start(1); // checkpoints at points 2, 3, 4, 5
  point(0, 2);
  EXPECT_EQ(fed->node(0).saves, Numbers{2});
  EXPECT_TRUE(fed->node(0).controls.empty()); // no coordination: every process knows the points
  fed->complete_saves();
  ASSERT_EQ(fed->node(0).control_names(), Names{"TG_STORED"});
  EXPECT_EQ(fed->node(0).controls[0].to, 1); // its backup
  EXPECT_EQ(stat("taskgraph.checkpoints"), 0);
  fed->route();
  EXPECT_EQ(fed->node(1).control_names(), Names{"TG_STORED_ACK"});
  EXPECT_EQ(stat("taskgraph.checkpoints"), 1);
  EXPECT_TRUE(fed->node(0).discards.empty());
  // The next commit makes the previous checkpoint useless: the backup names the new one.
  point(0, 3);
  fed->settle();
  EXPECT_EQ(fed->node(0).saves, (Numbers{2, 3}));
  EXPECT_EQ(fed->node(0).discards, Numbers{2});
  EXPECT_EQ(stat("taskgraph.checkpoints"), 2);
}

TEST_F(TaskgraphAgent, APointMetWhileTheLastCopyIsNotAcknowledgedIsSkipped) {
  start(1);
  point(0, 2);
  point(0, 3); // checkpoint 2 not acknowledged yet
  EXPECT_EQ(fed->node(0).saves, Numbers{2});
  EXPECT_EQ(stat("taskgraph.checkpoints_skipped"), 1);
  fed->settle();
  point(0, 4);
  EXPECT_EQ(fed->node(0).saves, (Numbers{2, 4}));
}

TEST_F(TaskgraphAgent, OnlyIterationPointsAfterEveryIntervalIterationsAreCheckpoints) {
  start(2); // points 3, 5
  point(0, 2);
  point(0, 3, "bcast");
  EXPECT_TRUE(fed->node(0).saves.empty());
  point(0, 3);
  EXPECT_EQ(fed->node(0).saves, Numbers{3});
}

TEST_F(TaskgraphAgent, AFailureBeforeAnyCheckpointRestartsTheVictimAloneFromItsInitialState) {
  start(10); // no checkpoint point within 4 iterations
  run_all();
  for (NodeId p = 0; p < 3; p++) ASSERT_TRUE(fed->node(p).app->finished) << p;
  const std::uint64_t before = checksum(1);
  ASSERT_NE(before, 0u);

  const FailureNotice notice = fed->fail(1, 1);
  EXPECT_EQ(fed->node(0).reported, std::vector<FailureId>{1}); // nothing to undo elsewhere
  fed->restart(notice);
  fed->settle();
  // The substitute asks its backup (2), which names the initial state, asks node 0 to replay
  // and replays its own part itself: every message to node 1 (versions 0..3, none covered).
  EXPECT_EQ(fed->node(1).control_names(), Names{"TG_RESTART"});
  ASSERT_EQ(fed->node(2).control_names(), (Names{"TG_RESTORE", "TG_RECOVER", "TG_REPLAYED"}));
  EXPECT_EQ(fed->node(2).controls[1].to, 0);
  EXPECT_EQ(fed->node(0).control_names(), Names{"TG_REPLAYED"});
  EXPECT_EQ(fed->node(0).app_resent.size(), 4u);
  EXPECT_EQ(fed->node(2).app_resent.size(), 4u);
  EXPECT_EQ(stat("taskgraph.replayed"), 8);
  ASSERT_EQ(fed->node(1).restores.size(), 1u);
  EXPECT_EQ(fed->node(1).restores[0].reason, "taskgraph restart from the initial state (failure 1)");
  EXPECT_TRUE(fed->node(1).loads.empty());
  EXPECT_EQ(fed->node(1).delivered.size(), 8u);
  // Each of its 8 sends is held by a peer: owed again by the re-execution.
  EXPECT_EQ(fed->node(1).promises.size(), 8u);
  EXPECT_EQ(stat("taskgraph.promised"), 8);
  EXPECT_TRUE(fed->node(0).restores.empty());
  EXPECT_TRUE(fed->node(2).restores.empty());

  fed->advance_to(fed->node(1).clock); // the restart overhead (0) is paid
  EXPECT_EQ(fed->node(1).restarts_completed, 1);
  EXPECT_TRUE(fed->node(1).reported.empty()); // its sends are still owed
  run_all();
  EXPECT_EQ(stat("taskgraph.duplicates"), 8); // the peers had them
  EXPECT_EQ(fed->node(1).reported, std::vector<FailureId>{1});
  EXPECT_EQ(checksum(1), before);
}

TEST_F(TaskgraphAgent, ACheckpointedVictimIsReplayedOnlyWhatItsPointDoesNotCover) {
  start(3); // one checkpoint, at point 4: versions 0..2 are covered, version 3 is not
  run_all();
  EXPECT_EQ(stat("taskgraph.checkpoints"), 3);
  const std::uint64_t before = checksum(1);

  const FailureNotice notice = fed->fail(1, 1);
  fed->restart(notice);
  fed->settle();
  EXPECT_EQ(fed->node(1).loads, Numbers{4}); // named by its backup, read from it
  ASSERT_EQ(fed->node(1).restores.size(), 1u);
  EXPECT_EQ(fed->node(1).restores[0].reason, "taskgraph restart from checkpoint 4 (failure 1)");
  const taskgraph::Points points(workload.graph());
  for (NodeId peer : {0, 2}) {
    ASSERT_EQ(fed->node(peer).app_resent.size(), 1u) << peer;
    const AppMessage& m = fed->node(peer).app_resent[0].first;
    EXPECT_EQ(m.dst, 1);
    EXPECT_EQ(points.version(static_cast<taskgraph::Tag>(m.seq)), 3) << peer;
  }
  EXPECT_EQ(stat("taskgraph.replayed"), 2);

  fed->advance_to(fed->node(1).clock);
  run_all();
  EXPECT_EQ(fed->node(1).reported, std::vector<FailureId>{1});
  EXPECT_EQ(checksum(1), before);
  EXPECT_TRUE(fed->node(0).restores.empty());
  EXPECT_TRUE(fed->node(2).restores.empty());
}

TEST_F(TaskgraphAgent, ARestartedBackupGetsTheNewestCopyAgainAndIsToldOfIt) {
  start(1);
  point(0, 2);
  fed->settle(); // committed: backup 1 knows checkpoint 2
  const FailureNotice notice = fed->fail(1, 1);
  EXPECT_TRUE(fed->agent(0).recovering()); // its backup is down
  fed->restart(notice);
  fed->settle();
  fed->advance_to(fed->node(1).clock);
  fed->node_back(notice);
  EXPECT_EQ(fed->node(0).replications, Numbers{2}); // the copy the backup lost, made again
  EXPECT_EQ(fed->node(0).control_names().back(), "TG_STORED");
  EXPECT_TRUE(fed->agent(0).recovering()); // until the restarted backup acknowledges
  fed->settle();
  EXPECT_FALSE(fed->agent(0).recovering());
  // The backup knows it again: a failure of node 0 now restarts it from checkpoint 2.
  const FailureNotice second = fed->fail(0, 2);
  fed->restart(second);
  fed->settle();
  EXPECT_EQ(fed->node(0).loads, Numbers{2});
}

} // namespace
} // namespace ckptsim
