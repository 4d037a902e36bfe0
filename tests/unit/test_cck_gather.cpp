/* Unit tests of the restart's all-gather, cck::Gather (protocols/cck/gather.hpp), and of the plan
 * each process makes from it, cck::plan_restart_part (plan.hpp), on fake nodes. The stencil of
 * test_cck_parts.hpp runs to its end, then P1 fails with no wave committed (line 0): every task
 * of P0 and P2 ran since the line. C_lost = {cell 1 to P1, cell 4 to P1}; with one iteration
 * every send is of the input values, so no restricted graph has an arc and C_total = C_lost. */
#include "protocols/cck/plan.hpp"
#include "protocols/cck/task_states.hpp"
#include "tests/unit/test_cck_parts.hpp"

#include <algorithm>

namespace ckptsim {
namespace {

using cck_test::destinations;

class CckGatherTest : public cck_test::CckPartsTest {
 protected:
  CckGatherTest() {
    run_to_the_end();
    forget_history();
  }
  /** Process @p p's task states against its initial state (the line), its state now. */
  cck::TaskStates states_of(NodeId p) {
    return cck::own_task_states(workload, p, *fed.node(p).fresh_app(), fed.node(p).app_state());
  }
  std::shared_ptr<const cck::GatherBody> survivor(NodeId p) {
    return cck::survivor_gather(workload.graph(), p, 1, {1}, states_of(p), {});
  }
  /** P1 restarted: nothing of its graph ran since the line. */
  std::shared_ptr<const cck::GatherBody> restarted() {
    const auto fresh = fed.node(1).fresh_app();
    return cck::restarted_gather(workload.graph(), 1, 1, cck::own_task_states(workload, 1, *fresh, *fresh));
  }
};

TEST_F(CckGatherTest, ASurvivorsGatherNamesWhatItLostToTheFailedProcessAndReceivedFromIt) {
  const auto b = survivor(0);
  EXPECT_EQ(b->epoch, 1u);
  EXPECT_EQ(b->lost, std::vector<cck::Tag>{tag(1, 1)});
  EXPECT_EQ(b->received_from_failed, std::vector<cck::Tag>{tag(2, 0)});
  std::vector<cck::Tag> both{tag(1, 1), tag(2, 0)};
  std::sort(both.begin(), both.end());
  EXPECT_EQ(b->graph.vertices, both);
  EXPECT_TRUE(b->graph.arcs.empty());
  const auto r = restarted();
  EXPECT_EQ(r->graph.vertices.size(), 4u); // its 2 sends and 2 receives
  EXPECT_TRUE(r->lost.empty());
  EXPECT_TRUE(r->received_from_failed.empty());
}

TEST_F(CckGatherTest, TheFailedProcessGetsItsGatherOnlyOnceItIsBack) {
  cck::Gather gather;
  auto& ctx = fed.node(0);
  gather.begin();
  gather.send(ctx, survivor(0), {1});
  EXPECT_EQ(ctx.control_names(), std::vector<std::string>{"GATHER"});
  EXPECT_EQ(destinations(ctx), std::vector<NodeId>{2});
  EXPECT_TRUE(gather.owed_to_failed());
  gather.failed_back(ctx, {1});
  gather.failed_back(ctx, {1}); // owed once
  EXPECT_EQ(destinations(ctx), (std::vector<NodeId>{2, 1}));
  EXPECT_FALSE(gather.owed_to_failed());
  gather.send(ctx, survivor(0), {1}); // back already: at once
  EXPECT_EQ(destinations(ctx), (std::vector<NodeId>{2, 1, 2, 1}));
  gather.begin(); // the next restart: not back yet
  gather.send(ctx, survivor(0), {1});
  EXPECT_EQ(destinations(ctx), (std::vector<NodeId>{2, 1, 2, 1, 2}));
  EXPECT_TRUE(gather.owed_to_failed());
  auto& restarted_ctx = fed.node(1);
  cck::Gather own;
  own.send(restarted_ctx, restarted(), {1}); // the restarted process itself: to every other one
  EXPECT_EQ(destinations(restarted_ctx), (std::vector<NodeId>{0, 2}));
  EXPECT_FALSE(own.owed_to_failed());
}

TEST_F(CckGatherTest, GathersAreKeptPerFailureUntilTheOthersAreIn) {
  cck::Gather gather;
  auto newer = std::make_shared<cck::GatherBody>();
  newer->epoch = 2;
  auto older = std::make_shared<cck::GatherBody>();
  older->epoch = 0;
  EXPECT_TRUE(gather.keep(2, survivor(2), 1));
  EXPECT_EQ(gather.complete(1, 2), nullptr); // 1 of 2
  EXPECT_FALSE(gather.keep(0, older, 1));    // of an older failure
  EXPECT_EQ(gather.complete(1, 2), nullptr);
  EXPECT_TRUE(gather.keep(0, newer, 1)); // of a failure not heard of yet
  EXPECT_TRUE(gather.keep(1, restarted(), 1));
  const cck::Gathered* in = gather.complete(1, 2);
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->size(), 2u);
  EXPECT_EQ(in->count(1), 1u);
  EXPECT_EQ(in->count(2), 1u);
  gather.forget_through(1);
  EXPECT_EQ(gather.complete(1, 0), nullptr);
  ASSERT_NE(gather.complete(2, 1), nullptr);
  EXPECT_EQ(gather.complete(2, 1)->at(0)->epoch, 2u);
}

TEST_F(CckGatherTest, ASurvivorResendsOnlyWhatCTotalNeedsAndCountsWhatAGlobalRestartWouldRedo) {
  auto& ctx = fed.node(0);
  cck::Replay replay;
  const auto own = survivor(0);
  const cck::Gathered others{{1, restarted()}, {2, survivor(2)}};
  const auto line = ctx.fresh_app();
  cck::plan_restart_part(
      ctx, workload,
      {.epoch = 1, .failed = {1}, .reuse = false, .checkpoint = &*line, .own = own.get(), .others = &others}, replay);
  // T^0: the send of cell 1 to P1 (its value is an input: nothing before it to redo).
  ASSERT_EQ(ctx.restores.size(), 1u);
  EXPECT_EQ(ctx.restores[0].reason, "cck partial restart: 1 tasks to re-execute (failure 1)");
  EXPECT_FALSE(workload.executed(ctx.app_state(), send_task(1, 1)));
  EXPECT_TRUE(workload.executed(ctx.app_state(), workload.graph().communication(tag(2, 0)).receive)); // kept
  EXPECT_TRUE(replay.owes());
  EXPECT_EQ(fed.stats().get("cck.reexecuted_tasks"), 0);
  EXPECT_EQ(fed.stats().get("cck.global_restart_tasks"), 2); // its 2 computations
  EXPECT_EQ(fed.stats().get("cck.restarts"), 1);             // P0: the first non-failed process
  EXPECT_EQ(fed.stats().get("cck.c_lost"), 2);
  EXPECT_EQ(fed.stats().get("cck.c_total"), 2);
  const auto& entries = fed.stats().series("cck.restart");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0]["failed"], false);
  EXPECT_EQ(entries[0]["reexecuted"], 0);
  EXPECT_EQ(entries[0]["global"], 2);
  EXPECT_EQ(ctx.events, std::vector<std::string>{"cck_plan"});
  auto [m, pb] = message(tag(1, 1));
  replay.send(ctx, m, pb);
  EXPECT_EQ(ctx.app_resent.size(), 1u);
  EXPECT_FALSE(replay.owes());
}

TEST_F(CckGatherTest, TheFailedProcessPromisesWhatTheOthersReceivedAndWithholdsItWhenCTotalDoesNotNeedIt) {
  auto& ctx = fed.node(1);
  cck::Replay replay;
  const auto own = restarted();
  const cck::Gathered others{{0, survivor(0)}, {2, survivor(2)}};
  const auto line = ctx.fresh_app();
  cck::plan_restart_part(
      ctx, workload,
      {.epoch = 1, .failed = {1}, .reuse = false, .checkpoint = &*line, .own = own.get(), .others = &others}, replay);
  EXPECT_EQ(ctx.promises, (std::vector<std::pair<NodeId, std::uint64_t>>{{0, tag(2, 0)}, {2, tag(3, 2)}}));
  EXPECT_EQ(replay.withheld(), 2u); // C_total holds neither
  EXPECT_TRUE(ctx.restores.empty());
  EXPECT_EQ(fed.stats().get("cck.restarts"), 0); // counted by P0, not here
  const auto& entries = fed.stats().series("cck.restart");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0]["failed"], true);
  EXPECT_EQ(entries[0]["withheld"], 2);
  EXPECT_EQ(entries[0]["c_total"], 2);
}

} // namespace
} // namespace ckptsim
