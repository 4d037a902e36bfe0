/* The recovery line of independent checkpointing (protocols/independent/line.hpp) on hand-made
 * dependency sets: no rollback needed, a one-step rollback, a cascade that stops, the classic
 * domino effect to the initial states, and the garbage-collection line. Deps[w] is the highest
 * interval of unit w delivered (-1: none); checkpoint k starts interval k. */
#include "protocols/independent/line.hpp"

#include <gtest/gtest.h>

using namespace ckptsim::independent;

namespace {
constexpr auto keep = std::nullopt;
} // namespace

TEST(IndependentLine, OnlyTheFailedUnitWhenNobodyDependsOnItsLostInterval) {
  // Unit 1 fails after checkpoint 2. Unit 0 delivered messages from unit 1's intervals 0 and 1
  // only (sent before checkpoint 2, which survives): nobody else moves.
  std::vector<UnitView> u(3);
  u[0].checkpoints = {{1, {-1, 0, -1}}};
  u[0].current = {-1, 1, -1};
  u[1].checkpoints = {{1, {-1, -1, -1}}, {2, {0, -1, -1}}};
  u[1].failed = true;
  u[2].current = {-1, -1, -1};
  const auto r = recovery_line(u);
  EXPECT_EQ(r.restored, (Line{keep, 2, keep}));
  EXPECT_EQ(r.rolled_over, (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(r.units_rolled_back(), 1);
  EXPECT_EQ(r.units_to_initial(), 0);
}

TEST(IndependentLine, OneStepWhenTheLastCheckpointIsClean) {
  // Unit 0 delivered a message of unit 1's interval 2 (after unit 1's last checkpoint, lost)
  // after its own checkpoint 3: it goes back to 3 (rolling over none), unit 2 keeps its state.
  std::vector<UnitView> u(3);
  u[0].checkpoints = {{2, {-1, 0, -1}}, {3, {-1, 1, 0}}};
  u[0].current = {-1, 2, 0};
  u[1].checkpoints = {{1, {}}, {2, {0, -1, -1}}};
  u[1].failed = true;
  u[2].current = {2, -1, -1}; // depends on unit 0's interval 2, before its checkpoint 3: kept
  const auto r = recovery_line(u);
  EXPECT_EQ(r.restored, (Line{3, 2, keep}));
  EXPECT_EQ(r.rolled_over, (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(r.units_rolled_back(), 2);

  // Had unit 2 delivered from unit 0's interval 3 (which the rollback to 3 undoes), it would
  // follow, to its checkpoint 4 taken before.
  u[2].checkpoints = {{4, {2, -1, -1}}};
  u[2].current = {3, -1, -1};
  const auto r2 = recovery_line(u);
  EXPECT_EQ(r2.restored, (Line{3, 2, 4}));
}

TEST(IndependentLine, CascadeSkipsCheckpointsThatHoldOrphans) {
  // Unit 0's checkpoints 2 and 3 both hold a message of unit 1's lost interval 5: it rolls over
  // them to checkpoint 1; unit 2's last checkpoint then holds unit 0's undone interval 1 and it
  // goes back one more.
  std::vector<UnitView> u(3);
  u[0].checkpoints = {{1, {-1, 3, -1}}, {2, {-1, 5, -1}}, {3, {-1, 5, -1}}};
  u[0].current = {-1, 5, -1};
  u[1].checkpoints = {{4, {}}, {5, {}}};
  u[1].failed = true;
  u[2].checkpoints = {{7, {0, -1, -1}}, {8, {1, -1, -1}}};
  u[2].current = {3, -1, -1};
  const auto r = recovery_line(u);
  EXPECT_EQ(r.restored, (Line{1, 5, 7}));
  EXPECT_EQ(r.rolled_over, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(r.total_rolled_over(), 3);
  EXPECT_EQ(r.max_depth(), 2);
  EXPECT_EQ(r.units_to_initial(), 0);
}

TEST(IndependentLine, ClassicDominoBackToTheInitialStates) {
  // Two units whose every checkpoint holds a message sent in the other's interval after the
  // other's checkpoint of the same rank: A's checkpoint k holds B's interval k, B's checkpoint
  // k holds A's interval k-1. B fails after its checkpoint 3 and A delivered from B's interval 3.
  std::vector<UnitView> u(2);
  u[0].checkpoints = {{1, {-1, 1}}, {2, {-1, 2}}};
  u[0].current = {-1, 3};
  u[1].checkpoints = {{1, {0, -1}}, {2, {1, -1}}, {3, {2, -1}}};
  u[1].failed = true;
  const auto r = recovery_line(u);
  EXPECT_EQ(r.restored, (Line{0, 0}));
  EXPECT_EQ(r.to_initial, (std::vector<bool>{true, true}));
  EXPECT_EQ(r.rolled_over, (std::vector<int>{2, 3}));
  EXPECT_EQ(r.units_to_initial(), 2);

  // Without A's delivery from B's interval 3 the same checkpoints keep A's state: B's last
  // checkpoint holds A's interval 2, which A keeps.
  u[0].current = {-1, 2};
  EXPECT_EQ(recovery_line(u).restored, (Line{keep, 3}));
}

TEST(IndependentLine, GarbageCollectionLine) {
  // Every unit failing now: each restores its last checkpoint (3 and 3), which undoes only the
  // intervals >= 3; A's checkpoint 3 holds B's interval 2 and B's holds A's interval 1, both
  // kept: the line is (3, 3) and checkpoints 1 and 2 of both can go.
  std::vector<UnitView> u(2);
  u[0].checkpoints = {{1, {-1, 0}}, {2, {-1, 1}}, {3, {-1, 2}}};
  u[1].checkpoints = {{1, {-1, -1}}, {2, {0, -1}}, {3, {1, -1}}};
  auto r = gc_line(u);
  EXPECT_EQ(r.restored, (Line{3, 3}));

  // A's new checkpoint 4 holds B's interval 3, and B's checkpoint 3 holds A's interval 3: A
  // falls to 3, which undoes A's interval 3, so B falls to 2, which undoes B's interval 2, so A
  // falls to 2. Only checkpoint 1 of each can go.
  u[0].checkpoints.push_back({4, {-1, 3}});
  u[1].checkpoints[2].deps = {3, -1};
  r = gc_line(u);
  EXPECT_EQ(r.restored, (Line{2, 2}));
  EXPECT_EQ(r.rolled_over, (std::vector<int>{2, 1}));

  // The GC line bounds every recovery line from below: any single failure gives a line at or
  // after it.
  for (std::size_t f = 0; f < u.size(); f++) {
    auto v = u;
    for (auto& x : v) x.current = x.checkpoints.back().deps;
    v[f].failed = true;
    const auto line = recovery_line(v);
    for (std::size_t k = 0; k < u.size(); k++) {
      if (line.restored[k]) {
        EXPECT_GE(*line.restored[k], *r.restored[k]) << "failure of " << f << ", unit " << k;
      }
    }
  }
}

TEST(IndependentLine, CheckpointsMustBeOrdered) {
  std::vector<UnitView> u(1);
  u[0].checkpoints = {{2, {}}, {1, {}}};
  u[0].failed = true;
  EXPECT_THROW(recovery_line(u), std::logic_error);
}
