/* CCK's restart analysis (CCK thesis 4.3.3-4.3.5, 4.4.2) on hand-built graphs, apart from
 * SimGrid: C_lost, the communication-restricted graphs, C_total, the tasks to re-execute, the
 * sends a failed process withholds. The thesis' figures 4.6-4.9 are not in its text; the example
 * below is rebuilt from what the text says of them: one failed and two non-failed processes,
 * C_lost = {1, 2}, C_total = {1, 2, 4} "because communication 2 depends on 4". The Jacobi cases
 * have one cell per process (cell i on process i), so every set is counted by hand. */
#include "protocols/cck/lost.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>

using namespace ckptsim::cck;

namespace {
using S = TaskState;

std::vector<Tag> sorted(std::vector<Tag> v) {
  std::sort(v.begin(), v.end());
  return v;
}
std::vector<TaskId> sorted_tasks(std::vector<TaskId> v) {
  std::sort(v.begin(), v.end());
  return v;
}
std::vector<bool> failed_set(int n, std::initializer_list<int> f) {
  std::vector<bool> out(static_cast<std::size_t>(n), false);
  for (int p : f) out[static_cast<std::size_t>(p)] = true;
  return out;
}
std::vector<std::size_t> sizes(const std::vector<std::vector<TaskId>>& v) {
  std::vector<std::size_t> out;
  for (const auto& x : v) out.push_back(x.size());
  return out;
}

/** The example of figures 4.6-4.9, processes F (failed) = 0, A = 1, B = 2. */
struct Figure46 {
  TaskGraph g{3};
  Tag c0, c1, c2, c3, c4, c5, c6; // named as in the thesis: 1, 2, 4 are the ones it names
  TaskId f1, f2, a1, a2, a3, b1, b2, b3;
  TaskStates states;

  Figure46() {
    const DataId f0 = g.add_data(0, 1), a0 = g.add_data(1, 1), b0 = g.add_data(2, 1);
    c0 = g.add_communication(b0, 0); // B -> F before the checkpoint
    const DataId fd1 = g.add_data(0, 1);
    f1 = g.add_compute(0, {f0, g.communication(c0).target}, {fd1});
    const DataId ad1 = g.add_data(1, 1);
    a1 = g.add_compute(1, {a0}, {ad1});
    c4 = g.add_communication(ad1, 2); // A -> B, received by B
    const DataId bd1 = g.add_data(2, 1);
    b1 = g.add_compute(2, {b0, g.communication(c4).target}, {bd1});
    c2 = g.add_communication(bd1, 0); // B -> F: needs what B received by 4
    const DataId ad2 = g.add_data(1, 1);
    a2 = g.add_compute(1, {ad1}, {ad2});
    c1 = g.add_communication(ad2, 0); // A -> F
    c3 = g.add_communication(fd1, 1); // F -> A, received by A
    const DataId ad3 = g.add_data(1, 1);
    a3 = g.add_compute(1, {ad2, g.communication(c3).target}, {ad3});
    c5 = g.add_communication(fd1, 2); // F -> B, not sent yet when F failed
    const DataId bd2 = g.add_data(2, 1), bd3 = g.add_data(2, 1);
    b2 = g.add_compute(2, {bd1}, {bd2});
    b3 = g.add_compute(2, {bd2, g.communication(c5).target}, {bd3});
    c6 = g.add_communication(ad3, 0); // A -> F, not sent yet
    const DataId fd2 = g.add_data(0, 1);
    f2 = g.add_compute(0, {fd1, g.communication(c1).target, g.communication(c2).target, g.communication(c6).target},
                       {fd2});

    states.assign(g.tasks().size(), S::Pending);
    auto comm = [&](Tag t, S send, S receive) {
      states[g.communication(t).send] = send;
      states[g.communication(t).receive] = receive;
    };
    comm(c0, S::BeforeCheckpoint, S::BeforeCheckpoint);
    for (TaskId t : {f1, a1, a2, a3, b1, b2}) states[t] = S::SinceCheckpoint;
    comm(c4, S::SinceCheckpoint, S::SinceCheckpoint);
    comm(c1, S::SinceCheckpoint, S::SinceCheckpoint);
    comm(c2, S::SinceCheckpoint, S::Pending); // in transit when F failed: lost with it
    comm(c3, S::SinceCheckpoint, S::SinceCheckpoint);
  }
  TaskId send(Tag t) const { return g.communication(t).send; }
  TaskId receive(Tag t) const { return g.communication(t).receive; }
};

/** One cell per process, Jacobi 1D, with lookups by (cell, version, receiving process). */
struct Line {
  Jacobi j;
  explicit Line(int processes, int iterations)
      : j({.dims = 1, .width = processes, .iterations = iterations, .processes = processes}) {}
  const TaskGraph& g() const { return j.graph(); }
  Tag tag(int cell, int version, int to) const { return *j.communication(cell, version, to); }
  TaskId send(int cell, int version, int to) const { return g().communication(tag(cell, version, to)).send; }
  TaskId recv(int cell, int version, int to) const { return g().communication(tag(cell, version, to)).receive; }
  TaskId compute(int cell, int iteration) const { return j.compute(cell, iteration); }
  TaskStates states(const std::function<S(const Task&)>& f) const {
    TaskStates out;
    for (const Task& t : g().tasks()) out.push_back(f(t));
    return out;
  }
  /** No checkpoint yet; computations up to @p computed done, versions below it sent and received. */
  TaskStates through(int computed) const {
    return states([computed](const Task& t) {
      const bool done = t.kind == TaskKind::Compute ? t.iteration <= computed : t.iteration < computed;
      return done ? S::SinceCheckpoint : S::Pending;
    });
  }
};

void expect_consistent(const TaskGraph& g, const TaskStates& states, const std::vector<bool>& failed,
                       const RestartPlan& plan) {
  const auto why = restart_inconsistency(g, states, failed, plan);
  EXPECT_FALSE(why) << *why;
}
} // namespace

TEST(CckLost, ThesisFigure46LostCommunications) {
  const Figure46 ex;
  const auto failed = failed_set(3, {0});
  EXPECT_FALSE(state_inconsistency(ex.g, ex.states, failed));
  // Figure 4.7: the lost communications are 1 and 2 (non-failed -> failed, sent since the
  // checkpoint, received or not). 0 was sent before it, 6 not yet; 3 and 5 come from F.
  EXPECT_EQ(lost_communications(ex.g, ex.states, failed), sorted({ex.c1, ex.c2}));
}

TEST(CckLost, ThesisFigure46RestrictedGraphs) {
  const Figure46 ex;
  // F: its communications since the checkpoint, no receive before a send.
  const auto rf = restricted_graph(ex.g, ex.states, 0);
  EXPECT_EQ(rf.vertices, sorted({ex.c1, ex.c2, ex.c3, ex.c5, ex.c6}));
  EXPECT_TRUE(rf.arcs.empty());
  // A: it sends 6 only after receiving 3; 1 and 4 need no receive.
  const auto ra = restricted_graph(ex.g, ex.states, 1);
  EXPECT_EQ(ra.vertices, sorted({ex.c1, ex.c3, ex.c4, ex.c6}));
  EXPECT_EQ(ra.arcs, (std::vector<std::pair<Tag, Tag>>{{ex.c3, ex.c6}}));
  // B: 2 depends on 4. Communication 0 ran before the checkpoint: not in G^B.
  const auto rb = restricted_graph(ex.g, ex.states, 2);
  EXPECT_EQ(rb.vertices, sorted({ex.c2, ex.c4, ex.c5}));
  EXPECT_EQ(rb.arcs, (std::vector<std::pair<Tag, Tag>>{{ex.c4, ex.c2}}));
}

TEST(CckLost, ThesisFigure46TotalAndTasksToReexecute) {
  const Figure46 ex;
  const auto failed = failed_set(3, {0});
  const auto plan = plan_restart(ex.g, ex.states, failed);
  EXPECT_EQ(plan.lost, sorted({ex.c1, ex.c2}));
  // Figure 4.8: C_total = {1, 2, 4}: "communication 4 must be replayed since 2 depends on 4";
  // 4 goes from A to B, neither of which failed.
  EXPECT_EQ(plan.total, sorted({ex.c1, ex.c2, ex.c4}));
  EXPECT_EQ(plan.total_sent[1], sorted({ex.c1, ex.c4}));
  EXPECT_EQ(plan.total_sent[2], std::vector<Tag>{ex.c2});
  EXPECT_TRUE(plan.total_sent[0].empty());
  // Figure 4.9: A recomputes and resends 1 and 4 (not a3, which only feeds 6, nor the receive of
  // 3); B receives 4 again, recomputes b1 and resends 2 (not b2); F lost f1, the send of 3 and the
  // receive of 1.
  EXPECT_EQ(plan.reexecute[1], sorted_tasks({ex.a1, ex.send(ex.c4), ex.a2, ex.send(ex.c1)}));
  EXPECT_EQ(plan.reexecute[2], sorted_tasks({ex.receive(ex.c4), ex.b1, ex.send(ex.c2)}));
  EXPECT_EQ(plan.reexecute[0], sorted_tasks({ex.f1, ex.send(ex.c3), ex.receive(ex.c1)}));
  // 3 reached A, which does not receive it again: F must not send it again. 5 was never sent.
  EXPECT_EQ(plan.not_resent, std::vector<Tag>{ex.c3});
  expect_consistent(ex.g, ex.states, failed, plan);
  // A global restart runs again everything executed since the checkpoint.
  EXPECT_EQ(sizes(global_restart_reexecute(ex.g, ex.states)), (std::vector<std::size_t>{3, 6, 4}));
  // Nothing of B or A is still in memory on a path to 1, 2 or 4: reuse changes nothing here.
  const auto reuse = plan_restart(ex.g, ex.states, failed, {.reuse_memory = true});
  EXPECT_EQ(reuse.total, plan.total);
  EXPECT_EQ(reuse.reexecute, plan.reexecute);
}

TEST(CckLost, EveryCaseOfSection433) {
  // Processes 0, 1 failed, 2, 3 not; one independent communication per case of 4.3.3.
  TaskGraph g(4);
  std::vector<std::pair<Tag, std::pair<S, S>>> comms;
  auto comm = [&](int from, int to, S send, S receive) {
    const Tag t = g.add_communication(g.add_data(from, 1), to);
    comms.push_back({t, {send, receive}});
    return t;
  };
  comm(0, 1, S::SinceCheckpoint, S::SinceCheckpoint); // failed -> failed
  comm(2, 3, S::SinceCheckpoint, S::SinceCheckpoint); // non-failed -> non-failed
  const Tag received_from_failed = comm(0, 2, S::SinceCheckpoint, S::SinceCheckpoint);
  comm(1, 3, S::Pending, S::Pending);                                     // failed -> non-failed, not received
  comm(1, 3, S::SinceCheckpoint, S::Pending);                             // ... or lost in transit
  const Tag lost = comm(2, 0, S::SinceCheckpoint, S::SinceCheckpoint);    // non-failed -> failed: lost
  const Tag lost_in_transit = comm(3, 1, S::SinceCheckpoint, S::Pending); // lost too
  comm(3, 0, S::Pending, S::Pending);                                     // not sent yet
  comm(3, 1, S::BeforeCheckpoint, S::BeforeCheckpoint);                   // in the checkpoint
  TaskStates states(g.tasks().size(), S::Pending);
  for (const auto& [t, st] : comms) {
    states[g.communication(t).send] = st.first;
    states[g.communication(t).receive] = st.second;
  }
  const auto failed = failed_set(4, {0, 1});
  const auto plan = plan_restart(g, states, failed);
  EXPECT_EQ(plan.lost, sorted({lost, lost_in_transit}));
  EXPECT_EQ(plan.total, plan.lost);
  EXPECT_EQ(plan.reexecute[2], std::vector<TaskId>{g.communication(lost).send});
  EXPECT_EQ(plan.reexecute[3], std::vector<TaskId>{g.communication(lost_in_transit).send});
  EXPECT_EQ(plan.not_resent, std::vector<Tag>{received_from_failed});
  expect_consistent(g, states, failed, plan);
}

TEST(CckLost, RestrictedGraphIsTheClosureInducedOnCommunications) {
  // One process receiving r1, r2 and sending s1 (after r1 only, through two computations), s2
  // (after r1 and r2), s3 (after nothing). Receive -> receive and send -> send never appear.
  TaskGraph g(2);
  const Tag r1 = g.add_communication(g.add_data(1, 1), 0);
  const Tag r2 = g.add_communication(g.add_data(1, 1), 0);
  const DataId x = g.add_data(0, 1), y = g.add_data(0, 1), z = g.add_data(0, 1), in = g.add_data(0, 1);
  g.add_compute(0, {g.communication(r1).target}, {x});
  g.add_compute(0, {x}, {y});
  g.add_compute(0, {x, g.communication(r2).target}, {z});
  const Tag s1 = g.add_communication(y, 1);
  const Tag s2 = g.add_communication(z, 1);
  const Tag s3 = g.add_communication(in, 1);
  const Tag back = g.add_communication(g.add_data(1, 1), 0); // received after everything: no arc
  const TaskStates pending(g.tasks().size(), S::Pending);
  const auto rg = restricted_graph(g, pending, 0);
  EXPECT_EQ(rg.vertices, sorted({r1, r2, s1, s2, s3, back}));
  EXPECT_EQ(rg.arcs, (std::vector<std::pair<Tag, Tag>>{{r1, s1}, {r1, s2}, {r2, s2}}));
}

TEST(CckLost, TotalCommunicationsFollowsChainsAcrossProcesses) {
  // By tags only: 2 needs 4 (on one process), 4 needs 5 and 7 (on another), 5 needs 9; 6 needs
  // 8 but nothing lost needs 6.
  const std::vector<RestrictedGraph> graphs{
      {0, {}, {{4, 2}}},
      {1, {}, {{5, 4}, {7, 4}, {8, 6}}},
      {2, {}, {{9, 5}}},
  };
  EXPECT_EQ(total_communications(graphs, {2}), (std::vector<Tag>{2, 4, 5, 7, 9}));
  EXPECT_EQ(total_communications(graphs, {1, 6}), (std::vector<Tag>{1, 6, 8}));
  EXPECT_TRUE(total_communications(graphs, {}).empty());
}

TEST(CckLost, JacobiBoundaryFailureBeforeAnyCheckpoint) {
  // 4 processes, 3 iterations, no checkpoint yet (the initial state is the restart point);
  // iterations 1-2 done everywhere, versions 0-1 exchanged, version 2 not sent. P0 fails.
  const Line l(4, 3);
  const TaskStates st = l.through(2);
  const auto failed = failed_set(4, {0});
  const auto plan = plan_restart(l.g(), st, failed);
  // Lost: what P1 sent P0 (versions 0 and 1).
  EXPECT_EQ(plan.lost, sorted({l.tag(1, 0, 0), l.tag(1, 1, 0)}));
  // P1 sent version 1 after computing it from the versions 0 received from P0 and P2; version 2
  // (not sent yet) needs the versions 1 too: 2 + 2 + 4 + 4 arcs over 12 communications.
  const auto& r1 = plan.restricted[1];
  EXPECT_EQ(r1.vertices.size(), 12u);
  EXPECT_EQ(r1.arcs.size(), 12u);
  EXPECT_TRUE(std::binary_search(r1.arcs.begin(), r1.arcs.end(), std::pair{l.tag(0, 0, 1), l.tag(1, 1, 0)}));
  EXPECT_TRUE(std::binary_search(r1.arcs.begin(), r1.arcs.end(), std::pair{l.tag(2, 1, 1), l.tag(1, 2, 2)}));
  EXPECT_FALSE(std::binary_search(r1.arcs.begin(), r1.arcs.end(), std::pair{l.tag(0, 1, 1), l.tag(1, 1, 0)}));
  // Total: P1's version 1 needs again P0's and P2's versions 0.
  EXPECT_EQ(plan.total, sorted({l.tag(1, 0, 0), l.tag(1, 1, 0), l.tag(0, 0, 1), l.tag(2, 0, 1)}));
  EXPECT_EQ(plan.reexecute[1],
            sorted_tasks({l.send(1, 0, 0), l.send(1, 1, 0), l.compute(1, 1), l.recv(0, 0, 1), l.recv(2, 0, 1)}));
  EXPECT_EQ(plan.reexecute[2], std::vector<TaskId>{l.send(2, 0, 1)});
  EXPECT_TRUE(plan.reexecute[3].empty());
  EXPECT_EQ(plan.reexecute[0], sorted_tasks({l.compute(0, 1), l.compute(0, 2), l.send(0, 0, 1), l.send(0, 1, 1),
                                             l.recv(1, 0, 0), l.recv(1, 1, 0)}));
  // P0's version 0 is received again by P1 (in C_total); its version 1 is not: withheld.
  EXPECT_EQ(plan.not_resent, std::vector<Tag>{l.tag(0, 1, 1)});
  expect_consistent(l.g(), st, failed, plan);
  // Global restart from the initial state: 2 computations, 2 or 4 sends and receives each.
  EXPECT_EQ(sizes(global_restart_reexecute(l.g(), st)), (std::vector<std::size_t>{6, 10, 10, 6}));
  // No datum on those paths is still in memory (every reader ran): reuse changes nothing.
  EXPECT_EQ(plan_restart(l.g(), st, failed, {.reuse_memory = true}).reexecute, plan.reexecute);
}

TEST(CckLost, JacobiReuseOfDataStillInMemory) {
  // As above, but P1 has not computed its iteration 2 yet: its version 1 and the versions 1 it
  // received are still in memory (compute(1, 2) reads them).
  const Line l(4, 3);
  TaskStates st = l.through(2);
  st[l.compute(1, 2)] = S::Pending;
  const auto failed = failed_set(4, {0});
  const auto plain = plan_restart(l.g(), st, failed);
  EXPECT_EQ(plain.total, sorted({l.tag(1, 0, 0), l.tag(1, 1, 0), l.tag(0, 0, 1), l.tag(2, 0, 1)}));
  EXPECT_EQ(plain.reexecute[1].size(), 5u);
  EXPECT_EQ(sizes(global_restart_reexecute(l.g(), st)), (std::vector<std::size_t>{6, 9, 10, 6}));
  // With reuse (4.4.2), P1 resends version 1 from memory and version 0 from the checkpoint (an
  // input): no computation, no communication needed again, P2 does nothing.
  const auto memory = data_in_memory(l.g(), st, failed);
  EXPECT_TRUE(memory[l.j.value(1, 1)]);
  EXPECT_TRUE(memory[l.g().communication(l.tag(0, 1, 1)).target]);
  EXPECT_FALSE(memory[l.j.value(1, 0)]); // every reader ran
  EXPECT_FALSE(memory[l.j.value(0, 1)]); // P0 failed: its memory is gone
  const auto reuse = plan_restart(l.g(), st, failed, {.reuse_memory = true});
  EXPECT_TRUE(reuse.restricted[1].arcs.empty());
  EXPECT_EQ(reuse.total, reuse.lost);
  EXPECT_EQ(reuse.reexecute[1], sorted_tasks({l.send(1, 0, 0), l.send(1, 1, 0)}));
  EXPECT_TRUE(reuse.reexecute[2].empty());
  EXPECT_EQ(reuse.reexecute[0], plain.reexecute[0]); // a failed process reuses nothing
  EXPECT_EQ(reuse.not_resent, sorted({l.tag(0, 0, 1), l.tag(0, 1, 1)}));
  expect_consistent(l.g(), st, failed, plain);
  expect_consistent(l.g(), st, failed, reuse);
}

TEST(CckLost, JacobiTwoAdjacentFailedProcesses) {
  const Line l(4, 3);
  const TaskStates st = l.through(2);
  const auto failed = failed_set(4, {0, 1});
  const auto plan = plan_restart(l.g(), st, failed);
  // Between P0 and P1 nothing is replayed by the analysis: both restart from their checkpoint.
  EXPECT_EQ(plan.lost, sorted({l.tag(2, 0, 1), l.tag(2, 1, 1)}));
  EXPECT_EQ(plan.total, sorted({l.tag(2, 0, 1), l.tag(2, 1, 1), l.tag(1, 0, 2), l.tag(3, 0, 2)}));
  EXPECT_EQ(plan.reexecute[2],
            sorted_tasks({l.send(2, 0, 1), l.send(2, 1, 1), l.compute(2, 1), l.recv(1, 0, 2), l.recv(3, 0, 2)}));
  EXPECT_EQ(plan.reexecute[3], std::vector<TaskId>{l.send(3, 0, 2)});
  EXPECT_EQ(sizes(plan.reexecute), (std::vector<std::size_t>{6, 10, 5, 1}));
  EXPECT_EQ(plan.not_resent, std::vector<Tag>{l.tag(1, 1, 2)});
  expect_consistent(l.g(), st, failed, plan);
}

TEST(CckLost, JacobiTwoFailedProcessesAtBothEnds) {
  const Line l(4, 3);
  const TaskStates st = l.through(2);
  const auto failed = failed_set(4, {0, 3});
  const auto plan = plan_restart(l.g(), st, failed);
  EXPECT_EQ(plan.lost, sorted({l.tag(1, 0, 0), l.tag(1, 1, 0), l.tag(2, 0, 3), l.tag(2, 1, 3)}));
  EXPECT_EQ(plan.total, sorted({l.tag(1, 0, 0), l.tag(1, 1, 0), l.tag(2, 0, 3), l.tag(2, 1, 3), l.tag(0, 0, 1),
                                l.tag(2, 0, 1), l.tag(1, 0, 2), l.tag(3, 0, 2)}));
  // Each survivor also resends its version 0 to the other one, whose version 1 needs it again.
  EXPECT_EQ(plan.reexecute[1], sorted_tasks({l.send(1, 0, 0), l.send(1, 1, 0), l.compute(1, 1), l.recv(0, 0, 1),
                                             l.recv(2, 0, 1), l.send(1, 0, 2)}));
  EXPECT_EQ(plan.reexecute[2], sorted_tasks({l.send(2, 0, 3), l.send(2, 1, 3), l.compute(2, 1), l.recv(1, 0, 2),
                                             l.recv(3, 0, 2), l.send(2, 0, 1)}));
  EXPECT_EQ(plan.not_resent, sorted({l.tag(0, 1, 1), l.tag(3, 1, 2)}));
  expect_consistent(l.g(), st, failed, plan);
}

TEST(CckLost, JacobiAfterACheckpoint) {
  // Checkpoint after iteration 1 (versions 0 exchanged); since: versions 1 exchanged and
  // iteration 2 computed; version 2 not sent.
  const Line l(4, 3);
  const TaskStates st = l.states([](const Task& t) {
    const int last = t.kind == TaskKind::Compute ? t.iteration : t.iteration + 1; // the iteration it belongs to
    return last <= 1 ? S::BeforeCheckpoint : last == 2 ? S::SinceCheckpoint : S::Pending;
  });
  // A boundary process fails: P1 resends its version 1, whose computation is in the checkpoint.
  auto failed = failed_set(4, {0});
  auto plan = plan_restart(l.g(), st, failed);
  EXPECT_EQ(plan.lost, std::vector<Tag>{l.tag(1, 1, 0)});
  EXPECT_EQ(plan.total, plan.lost);
  EXPECT_EQ(plan.restricted[1].vertices.size(), 8u); // versions 1 and 2 only
  EXPECT_EQ(plan.restricted[1].arcs.size(), 4u);     // version 2's sends need the versions 1 received
  EXPECT_EQ(plan.reexecute[1], std::vector<TaskId>{l.send(1, 1, 0)});
  EXPECT_EQ(sizes(plan.reexecute), (std::vector<std::size_t>{3, 1, 0, 0}));
  EXPECT_EQ(plan.not_resent, std::vector<Tag>{l.tag(0, 1, 1)});
  EXPECT_EQ(sizes(global_restart_reexecute(l.g(), st)), (std::vector<std::size_t>{3, 5, 5, 3}));
  expect_consistent(l.g(), st, failed, plan);
  // An inner process fails: both neighbours resend, nothing else.
  failed = failed_set(4, {1});
  plan = plan_restart(l.g(), st, failed);
  EXPECT_EQ(plan.total, sorted({l.tag(0, 1, 1), l.tag(2, 1, 1)}));
  EXPECT_EQ(sizes(plan.reexecute), (std::vector<std::size_t>{1, 5, 1, 0}));
  EXPECT_EQ(plan.not_resent, sorted({l.tag(1, 1, 0), l.tag(1, 1, 2)}));
  expect_consistent(l.g(), st, failed, plan);
  // A failure right at the checkpoint loses nothing.
  const TaskStates at_checkpoint = l.states([](const Task& t) {
    const int last = t.kind == TaskKind::Compute ? t.iteration : t.iteration + 1;
    return last <= 1 ? S::BeforeCheckpoint : S::Pending;
  });
  plan = plan_restart(l.g(), at_checkpoint, failed);
  EXPECT_TRUE(plan.lost.empty());
  EXPECT_TRUE(plan.not_resent.empty());
  EXPECT_EQ(sizes(plan.reexecute), (std::vector<std::size_t>{0, 0, 0, 0}));
}

TEST(CckLost, JacobiDependencyConeStopsWithTheIterationsSinceTheCheckpoint) {
  // 6 processes, 4 iterations, 3 done since the (initial) checkpoint, P0 fails. Version k sent
  // by P1 depends on P(1 + i)'s version k - i: the cone reaches P3 and stops; P4 and P5, farther
  // away than the iterations run since the checkpoint, do nothing.
  const Line l(6, 4);
  const TaskStates st = l.through(3);
  const auto failed = failed_set(6, {0});
  const auto plan = plan_restart(l.g(), st, failed);
  EXPECT_EQ(plan.total, sorted({l.tag(1, 0, 0), l.tag(1, 1, 0), l.tag(1, 2, 0), l.tag(0, 0, 1), l.tag(0, 1, 1),
                                l.tag(2, 0, 1), l.tag(2, 1, 1), l.tag(1, 0, 2), l.tag(3, 0, 2)}));
  // P1: 3 sends to P0, computations 1-2, the 4 receives they need, its version 0 to P2.
  EXPECT_EQ(sizes(plan.reexecute), (std::vector<std::size_t>{9, 10, 5, 1, 0, 0}));
  EXPECT_EQ(sizes(global_restart_reexecute(l.g(), st)), (std::vector<std::size_t>{9, 15, 15, 15, 15, 9}));
  EXPECT_EQ(plan.not_resent, std::vector<Tag>{l.tag(0, 2, 1)});
  expect_consistent(l.g(), st, failed, plan);
}

TEST(CckLost, RejectsImpossibleStates) {
  const Line l(2, 2);
  const auto failed = failed_set(2, {0});
  TaskStates st = l.through(1);
  EXPECT_FALSE(state_inconsistency(l.g(), st, failed));
  st[l.compute(1, 1)] = S::Pending; // P1 has not computed its iteration 1 yet: possible
  EXPECT_FALSE(state_inconsistency(l.g(), st, failed));
  st[l.compute(1, 2)] = S::SinceCheckpoint; // before its predecessor
  EXPECT_TRUE(state_inconsistency(l.g(), st, failed));
  EXPECT_THROW(plan_restart(l.g(), st, failed), std::invalid_argument);
  st = l.through(1);
  st[l.send(0, 0, 1)] = S::Pending; // received, never sent
  EXPECT_TRUE(state_inconsistency(l.g(), st, failed));
  st = l.through(1);
  st[l.send(1, 0, 0)] = S::BeforeCheckpoint; // crosses the checkpoint line
  EXPECT_TRUE(state_inconsistency(l.g(), st, failed));
  st = l.through(1);
  st[l.recv(1, 0, 0)] = S::Pending; // in transit to the failed P0, which had not computed yet: lost
  st[l.compute(0, 1)] = S::Pending;
  EXPECT_FALSE(state_inconsistency(l.g(), st, failed));
  EXPECT_TRUE(state_inconsistency(l.g(), st, failed_set(2, {}))); // between live processes: the flush delivers it
  EXPECT_THROW(plan_restart(l.g(), TaskStates(3, S::Pending), failed), std::invalid_argument);
  EXPECT_THROW(plan_restart(l.g(), l.through(1), {true}), std::invalid_argument);
}

namespace {
/** Lock-step execution: at each step every process runs the first task of its local order whose
 *  predecessors ran in earlier steps; a send delivers at once (its receive runs in the same step).
 *  Tasks run before step @p checkpoint are in the checkpoint, the failure comes before step
 *  @p failure, and a message of the last step to or from a failed process may be lost in transit. */
TaskStates lockstep(const TaskGraph& g, bool reorder, int checkpoint, int failure, const std::vector<bool>& failed,
                    std::mt19937& rng) {
  std::vector<int> at(g.tasks().size(), -1);
  std::vector<std::vector<TaskId>> orders;
  for (int p = 0; p < g.processes(); p++) orders.push_back(local_order(g, p, reorder));
  for (int s = 0; s < failure; s++) {
    for (const auto& order : orders) {
      for (TaskId t : order) {
        if (at[t] >= 0 || g.task(t).kind == TaskKind::Receive) continue;
        const auto preds = g.predecessors(t);
        if (!std::all_of(preds.begin(), preds.end(), [&](TaskId w) { return at[w] >= 0 && at[w] < s; })) continue;
        at[t] = s;
        if (g.task(t).kind == TaskKind::Send) at[g.communication(g.task(t).tag).receive] = s;
        break;
      }
    }
  }
  TaskStates st;
  for (int a : at) st.push_back(a < 0 ? S::Pending : a < checkpoint ? S::BeforeCheckpoint : S::SinceCheckpoint);
  for (const Communication& c : g.communications()) {
    const bool end_failed = failed[static_cast<std::size_t>(c.from)] || failed[static_cast<std::size_t>(c.to)];
    if (at[c.send] == failure - 1 && at[c.send] >= checkpoint && end_failed && rng() % 2 == 0)
      st[c.receive] = S::Pending;
  }
  return st;
}

bool includes(const std::vector<TaskId>& big, const std::vector<TaskId>& small) {
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}
} // namespace

TEST(CckLost, RandomJacobiRestartsAreConsistentAndNeverWorseThanGlobal) {
  std::mt19937 rng(20240605);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int cases = 400;
  int with_reexecution = 0, with_reuse_gain = 0;
  for (int k = 0; k < cases; k++) {
    JacobiSpec spec;
    spec.iterations = pick(1, 5);
    if (k % 2 == 0) {
      spec.processes = pick(2, 6);
      spec.width = spec.processes * pick(1, 3);
    } else {
      spec.dims = 2;
      spec.width = pick(3, 5);
      spec.height = pick(3, 5);
      spec.processes = std::vector<int>{2, 3, 4, 6, 9}[static_cast<std::size_t>(pick(0, 4))];
    }
    const Jacobi j(spec);
    const TaskGraph& g = j.graph();
    std::size_t longest = 0;
    for (int p = 0; p < g.processes(); p++) longest = std::max(longest, g.tasks_of(p).size());
    const int failure = pick(1, static_cast<int>(longest) + 2);
    const int checkpoint = pick(0, failure);
    std::vector<bool> failed(static_cast<std::size_t>(spec.processes), false);
    failed[static_cast<std::size_t>(pick(0, spec.processes - 1))] = true;
    if (pick(0, 2) == 0) failed[static_cast<std::size_t>(pick(0, spec.processes - 1))] = true;
    const TaskStates st = lockstep(g, k % 4 >= 2, checkpoint, failure, failed, rng);
    SCOPED_TRACE(testing::Message() << "case " << k << ": " << spec.dims << "D " << spec.width << "x" << spec.height
                                    << " on " << spec.processes << ", " << spec.iterations << " iterations, checkpoint "
                                    << checkpoint << ", failure " << failure);
    ASSERT_FALSE(state_inconsistency(g, st, failed));

    // Processes with a chain of communications sent since the checkpoint to a failed one.
    std::vector<bool> upstream = failed;
    for (bool grew = true; grew;) {
      grew = false;
      for (const Communication& c : g.communications()) {
        if (st[c.send] != S::SinceCheckpoint || !upstream[static_cast<std::size_t>(c.to)]) continue;
        if (!upstream[static_cast<std::size_t>(c.from)]) upstream[static_cast<std::size_t>(c.from)] = grew = true;
      }
    }
    const auto global = global_restart_reexecute(g, st);
    const auto plain = plan_restart(g, st, failed);
    const auto reuse = plan_restart(g, st, failed, {.reuse_memory = true});
    for (const RestartPlan* plan : {&plain, &reuse}) {
      const auto why = restart_inconsistency(g, st, failed, *plan);
      ASSERT_FALSE(why) << *why;
      EXPECT_TRUE(std::includes(plan->total.begin(), plan->total.end(), plan->lost.begin(), plan->lost.end()));
      for (int p = 0; p < spec.processes; p++) {
        const auto pi = static_cast<std::size_t>(p);
        EXPECT_TRUE(includes(global[pi], plan->reexecute[pi])) << "process " << p;
        if (!upstream[pi]) {
          EXPECT_TRUE(plan->reexecute[pi].empty()) << "process " << p;
        }
      }
    }
    EXPECT_TRUE(std::includes(plain.total.begin(), plain.total.end(), reuse.total.begin(), reuse.total.end()));
    bool gain = false;
    for (int p = 0; p < spec.processes; p++) {
      const auto pi = static_cast<std::size_t>(p);
      EXPECT_TRUE(includes(plain.reexecute[pi], reuse.reexecute[pi])) << "process " << p;
      if (!failed[pi] && !plain.reexecute[pi].empty()) with_reexecution++;
      gain = gain || reuse.reexecute[pi].size() < plain.reexecute[pi].size();
    }
    with_reuse_gain += gain ? 1 : 0;
  }
  // The draws do exercise the interesting cases.
  EXPECT_GT(with_reexecution, cases / 4);
  EXPECT_GT(with_reuse_gain, cases / 20);
}

TEST(CckLost, RestartCheckCatchesIncompletePlans) {
  const Figure46 ex;
  const auto failed = failed_set(3, {0});
  const auto good = plan_restart(ex.g, ex.states, failed);
  auto without = [&](int p, TaskId t) {
    RestartPlan bad = good;
    auto& r = bad.reexecute[static_cast<std::size_t>(p)];
    r.erase(std::find(r.begin(), r.end(), t));
    return restart_inconsistency(ex.g, ex.states, failed, bad);
  };
  EXPECT_TRUE(without(1, ex.send(ex.c4)));    // B would wait for 4
  EXPECT_TRUE(without(2, ex.receive(ex.c4))); // A would send 4 to nobody
  EXPECT_TRUE(without(1, ex.a1));             // a1 is neither recomputed, checkpointed nor in memory
  RestartPlan bad = good;
  bad.not_resent.clear(); // F would send 3 again to A, which does not receive it again
  EXPECT_TRUE(restart_inconsistency(ex.g, ex.states, failed, bad));
  bad = good;
  bad.reexecute[1].push_back(ex.g.communication(ex.c6).send); // pending: not a re-execution
  EXPECT_TRUE(restart_inconsistency(ex.g, ex.states, failed, bad));
}

TEST(CckLost, ThesisInstanceInnerFailure) {
  // Jacobi 2D 32 x 64 on 32 processes (4 x 8 grid of 8 x 8 blocks), 10 iterations; checkpoint
  // after iteration 3, failure after iteration 7. P13 = (1, 3) fails: it has 4 side neighbours.
  const Jacobi j({.dims = 2, .width = 32, .height = 64, .iterations = 10, .processes = 32});
  const TaskGraph& g = j.graph();
  TaskStates st;
  for (const Task& t : g.tasks()) {
    const int it = t.kind == TaskKind::Compute ? t.iteration : t.iteration + 1;
    st.push_back(it <= 3 ? S::BeforeCheckpoint : it <= 7 ? S::SinceCheckpoint : S::Pending);
  }
  const auto failed = failed_set(32, {13});
  const auto plan = plan_restart(g, st, failed);
  const auto global = global_restart_reexecute(g, st);
  expect_consistent(g, st, failed, plan);
  // Lost: versions 3-6 of the 8 border cells of each of the 4 sides.
  EXPECT_EQ(plan.lost.size(), 4u * 8 * 4);
  // P13 lost 4 iterations: 4 x 64 computations, 4 x 32 sends and as many receives.
  EXPECT_EQ(plan.reexecute[13].size(), 512u);
  EXPECT_EQ(global[13].size(), 512u);
  // A diagonal neighbour, P8 = (0, 2), corner (7, 23): P9 and P12 recompute the cells of their
  // borders with P13, which read P8's versions 3 of (7, 21..23) and (5..7, 23), 4 of (7, 22..23)
  // and (6..7, 23), 5 of (7, 23): 12 sends; it recomputes versions 4 of (7, 22), (6, 23),
  // (7, 23) and 5 of (7, 23) (version 3 is in the checkpoint), which read 6 versions of P9's
  // and P12's cells: 12 + 4 + 6 = 22 tasks.
  EXPECT_EQ(plan.reexecute[8].size(), 22u);
  for (int p : {10, 16, 18}) EXPECT_EQ(plan.reexecute[static_cast<std::size_t>(p)].size(), 22u) << p;
  // A side neighbour, P9 = (1, 2) above P13: it resends versions 3-6 of its row 23 (32) and
  // recomputes versions 4 of rows 21-23, 5 of rows 22-23 and 6 of row 23 (8 + 16 + 24 = 48).
  // Those read the versions 3, 4, 5 of P13's row 24 (8 each) and of P8's and P10's cells beside
  // them (3 + 3, 2 + 2, 1 + 1): 36 receives; P8 and P10 need again 3 of its sends each (above).
  // 32 + 6 + 48 + 36 = 122.
  EXPECT_EQ(plan.reexecute[9].size(), 122u);
  for (int p : {12, 14, 17}) EXPECT_EQ(plan.reexecute[static_cast<std::size_t>(p)].size(), 122u) << p;
  // Dependencies move one cell per iteration, so 4 iterations do not cross an 8-cell block:
  // everybody else does nothing.
  for (int p = 0; p < 32; p++) {
    const auto pi = static_cast<std::size_t>(p);
    if (p != 13) {
      EXPECT_LT(plan.reexecute[pi].size(), global[pi].size()) << p;
    }
    const bool near = std::abs(p % 4 - 1) <= 1 && std::abs(p / 4 - 3) <= 1; // around (1, 3)
    if (!near) {
      EXPECT_TRUE(plan.reexecute[pi].empty()) << p;
    }
  }
}
