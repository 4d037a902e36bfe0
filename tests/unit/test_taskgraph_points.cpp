/* The pure parts of the taskgraph protocol (protocols/taskgraph/points.*, sent_log.*):
 *   - the checkpoint schedule (points interval + 1, 2 interval + 1...);
 *   - the claim everything rests on: at point k of a process (every compute task of iterations
 *     < k done), every communication of version <= k - 2 from it is sent and every one to it is
 *     received; checked before every advance() of executions in random delivery orders, 1D and
 *     2D, in order and with local reordering (which runs later iterations early); and the claim
 *     is tight: some executions reach point k with a version k - 1 message not sent yet, others
 *     with one already received;
 *   - StencilWorkload::next_point is that point;
 *   - the peers a restart involves, by hand on a 1D line;
 *   - the sent log: garbage collection by checkpoint number, what a replay re-sends. */
#include "protocols/taskgraph/points.hpp"
#include "protocols/taskgraph/sent_log.hpp"
#include "sim/app/stencil/workload.hpp"
#include "tests/support/app_inputs.hpp"

#include <gtest/gtest.h>

#include <random>

namespace ckptsim {
namespace {

using test_support::layout_of;
using test_support::stencil_app;

using taskgraph::Points;
using taskgraph::SentLog;
using taskgraph::Tag;

/** The lowest iteration of a compute task of @p p not executed yet (iterations + 1: none). */
std::uint64_t lowest_pending(const StencilWorkload& w, const AppState& s, int p) {
  const auto& spec = w.jacobi().spec();
  for (int it = 1; it <= spec.iterations; it++)
    for (int c = 0; c < w.jacobi().cells(); c++)
      if (w.jacobi().owner(c) == p && !w.executed(s, w.jacobi().compute(c, it))) return static_cast<std::uint64_t>(it);
  return static_cast<std::uint64_t>(spec.iterations) + 1;
}

struct Tightness {
  int unsent_at_point = 0;   // a version k - 1 message not sent yet at point k
  int received_at_point = 0; // a version k - 1 message already received at point k
};

/* Runs every process of @p w to the end, each turn either one step of a random process or the
 * delivery of a random message in flight; before each advance() (where the runtime asks for the
 * point), checks the claim at the process' point. */
void run_and_check(const StencilWorkload& w, std::uint64_t seed, Tightness& seen) {
  const int n = w.graph().processes();
  const Points points(w.graph());
  const dataflow::TaskGraph& g = w.graph();
  std::vector<AppStateValue> states;
  for (int p = 0; p < n; p++) states.push_back(w.initial_state(p, seed));
  std::vector<AppMessage> wire;
  std::vector<bool> waiting(static_cast<std::size_t>(n), false);
  std::mt19937_64 rng(seed);
  auto all_done = [&] {
    for (auto& s : states)
      if (!s->finished) return false;
    return wire.empty();
  };
  int guard = 0;
  while (!all_done()) {
    ASSERT_LT(++guard, 1000000) << "no progress";
    const bool deliver = !wire.empty() && (rng() % 3 == 0);
    if (deliver) {
      const std::size_t i = rng() % wire.size();
      const AppMessage m = wire[i];
      wire.erase(wire.begin() + static_cast<std::ptrdiff_t>(i));
      w.deliver(*states[static_cast<std::size_t>(m.dst)], m);
      waiting[static_cast<std::size_t>(m.dst)] = false;
      continue;
    }
    std::vector<int> runnable;
    for (int p = 0; p < n; p++)
      if (!states[static_cast<std::size_t>(p)]->finished && !waiting[static_cast<std::size_t>(p)])
        runnable.push_back(p);
    if (runnable.empty()) continue; // only deliveries can help
    const int p = runnable[rng() % runnable.size()];
    AppState& s = *states[static_cast<std::size_t>(p)];
    const std::uint64_t k = lowest_pending(w, s, p);
    auto point = w.next_point(s, p);
    ASSERT_TRUE(point.has_value());
    EXPECT_EQ(point->kind, "iteration");
    EXPECT_EQ(point->number, k);
    for (Tag t : points.outgoing(p)) {
      const bool sent = w.executed(s, g.communication(t).send);
      if (points.covered(t, k)) {
        ASSERT_TRUE(sent) << "tag " << t << " at point " << k << " of " << p;
      }
      if (points.version(t) + 1 == static_cast<int>(k) && !sent) seen.unsent_at_point++;
    }
    for (Tag t : points.incoming(p)) {
      const bool received = w.received(s, t);
      if (points.covered(t, k)) {
        ASSERT_TRUE(received) << "tag " << t << " at point " << k << " of " << p;
      }
      if (points.version(t) + 1 == static_cast<int>(k) && received) seen.received_at_point++;
    }
    std::vector<AppMessage> sends;
    auto work = w.advance(s, p, sends);
    wire.insert(wire.end(), sends.begin(), sends.end());
    if (work)
      w.complete_step(s, p);
    else if (!s.finished)
      waiting[static_cast<std::size_t>(p)] = true;
  }
}

TEST(TaskgraphPoints, CheckpointSchedule) {
  EXPECT_FALSE(taskgraph::checkpoint_point(1, 1)); // the start: the initial state
  EXPECT_TRUE(taskgraph::checkpoint_point(2, 1));
  EXPECT_TRUE(taskgraph::checkpoint_point(3, 1));
  EXPECT_FALSE(taskgraph::checkpoint_point(3, 5));
  EXPECT_TRUE(taskgraph::checkpoint_point(6, 5));
  EXPECT_TRUE(taskgraph::checkpoint_point(11, 5));
  EXPECT_FALSE(taskgraph::checkpoint_point(12, 5));
  EXPECT_THROW(taskgraph::checkpoint_point(3, 0), std::invalid_argument);
}

TEST(TaskgraphPoints, CoveredCommunicationsAreSentAndReceivedAtThePointWhateverTheOrder) {
  Tightness seen;
  for (bool reorder : {false, true}) {
    for (std::uint64_t seed = 1; seed <= 6; seed++) {
      const auto layout = layout_of(4);
      StencilWorkload one_d(stencil_app(1, 16, 1, 8, reorder), layout);
      run_and_check(one_d, seed, seen);
      StencilWorkload two_d(stencil_app(2, 6, 6, 6, reorder), layout);
      run_and_check(two_d, seed, seen);
    }
  }
  // Nothing more can be said of version k - 1: both cases happen.
  EXPECT_GT(seen.unsent_at_point, 0);
  EXPECT_GT(seen.received_at_point, 0);
}

TEST(TaskgraphPoints, NextPointIsTheLowestIterationNotDone) {
  const auto layout = layout_of(2);
  StencilWorkload w(stencil_app(1, 8, 1, 3, false), layout);
  AppStateValue s = w.initial_state(0, 1);
  auto p = w.next_point(*s, 0);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->number, 1u); // the start: no iteration done
  // Process 0 holds cells 0..3; its iteration-1 tasks need nothing from process 1 but cell 3,
  // which reads cell 4's version 0 (a message): deliver it, then run until iteration 1 is done.
  const auto tag = w.jacobi().communication(4, 0, 0);
  ASSERT_TRUE(tag.has_value());
  AppMessage m;
  m.src = 1;
  m.dst = 0;
  m.seq = *tag;
  m.digest = StencilWorkload::initial_value(4);
  w.deliver(*s, m);
  for (int i = 0; i < 4; i++) {
    std::vector<AppMessage> sends;
    ASSERT_TRUE(w.advance(*s, 0, sends).has_value());
    w.complete_step(*s, 0);
  }
  EXPECT_EQ(w.next_point(*s, 0)->number, 2u);
}

TEST(TaskgraphPoints, PeersOfARestartOnALine) {
  // 16 cells on 4 processes, 5 iterations: process 1 talks to 0 and 2, process 0 to 1 only.
  const auto layout = layout_of(4);
  StencilWorkload w(stencil_app(1, 16, 1, 5, false), layout);
  const Points points(w.graph());
  EXPECT_EQ(points.peers_after(1, 0), (std::vector<int>{0, 2}));
  EXPECT_EQ(points.peers_after(0, 3), (std::vector<int>{1}));
  EXPECT_EQ(points.peers_after(3, 5), (std::vector<int>{2})); // version 4 is still exchanged
  EXPECT_TRUE(points.peers_after(1, 6).empty());              // the end: version 5 travels nowhere
  // Each border carries one message per direction and version 0..4.
  EXPECT_EQ(points.incoming(1).size(), 10u);
  EXPECT_EQ(points.outgoing(0).size(), 5u);
  for (Tag t : points.incoming(1)) {
    EXPECT_EQ(points.covered(t, 3), points.version(t) <= 1);
  }
}

TEST(TaskgraphPoints, SentLogCollectsByCheckpointNumberAndReplaysTheRest) {
  const auto layout = layout_of(4);
  StencilWorkload w(stencil_app(1, 16, 1, 5, false), layout);
  const Points points(w.graph());
  SentLog log;
  for (Tag t : points.outgoing(1)) { // versions 0..4 to process 0 and to process 2
    const auto& c = w.graph().communication(t);
    AppMessage m;
    m.src = 1;
    m.dst = c.to;
    m.seq = t;
    m.size = 4096;
    log.add(m);
  }
  EXPECT_EQ(log.entries(), 10);
  EXPECT_EQ(log.bytes(), 10 * 4096.0);
  AppMessage again;
  again.src = 1;
  again.dst = 0;
  again.seq = points.outgoing(1).front();
  again.size = 4096;
  log.add(again); // the same tag again
  EXPECT_EQ(log.entries(), 10);
  // A restart of process 0 from its checkpoint 3 needs versions 2, 3, 4.
  const auto replay = log.uncovered(0, 3, points);
  ASSERT_EQ(replay.size(), 3u);
  for (const auto& m : replay) EXPECT_GE(points.version(static_cast<Tag>(m.seq)), 2);
  // Process 0 committed checkpoint 3: versions 0 and 1 to it go.
  EXPECT_EQ(log.collect(0, 3, points), 2u);
  EXPECT_EQ(log.entries(), 8);
  EXPECT_EQ(log.entries_to(0), 3u);
  EXPECT_EQ(log.entries_to(2), 5u);
  EXPECT_EQ(log.collect(0, 3, points), 0u);
  EXPECT_EQ(log.collect(2, 7, points), 5u); // the end covers everything
  EXPECT_EQ(log.bytes(), 3 * 4096.0);
}

} // namespace
} // namespace ckptsim
