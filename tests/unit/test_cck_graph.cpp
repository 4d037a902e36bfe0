/* The CCK data-flow graph (CCK thesis 4.1.2, 4.1.4), V_i and the wave count 2N + 3 * sum(V_i)
 * (4.2.5), local reordering (4.4.3) and the Jacobi 1D / 2D builders (5.2.1), apart from SimGrid.
 * Every expected value is counted by hand in the comments. */
#include "protocols/cck/dataflow.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ckptsim::cck;

namespace {
std::vector<bool> executed_where(const TaskGraph& g, auto pred) {
  std::vector<bool> out(g.tasks().size());
  for (TaskId t = 0; t < g.tasks().size(); t++) out[t] = pred(g.task(t));
  return out;
}
} // namespace

TEST(CckGraph, TasksDataAndCommunications) {
  TaskGraph g(2);
  const DataId a = g.add_data(0, 8);
  const DataId b = g.add_data(0, 8);
  const TaskId f = g.add_compute(0, {a}, {b});
  const Tag tag = g.add_communication(b, 1);
  const Communication& c = g.communication(tag);
  EXPECT_EQ(tag, 0u);
  EXPECT_EQ(c.from, 0);
  EXPECT_EQ(c.to, 1);
  EXPECT_EQ(g.task(c.send).kind, TaskKind::Send);
  EXPECT_EQ(g.task(c.send).process, 0);
  EXPECT_EQ(g.task(c.send).peer, 1);
  EXPECT_EQ(g.task(c.receive).kind, TaskKind::Receive);
  EXPECT_EQ(g.task(c.receive).process, 1);
  EXPECT_EQ(g.task(c.receive).peer, 0);
  EXPECT_EQ(g.datum(c.target).process, 1);
  EXPECT_EQ(g.datum(c.target).bytes, 8u);
  EXPECT_EQ(g.datum(c.target).producer, c.receive);
  const DataId r = g.add_data(1, 8);
  const TaskId h = g.add_compute(1, {c.target}, {r});
  EXPECT_EQ(g.predecessors(c.send), std::vector<TaskId>{f});
  EXPECT_EQ(g.successors(f), std::vector<TaskId>{c.send});
  EXPECT_TRUE(g.predecessors(c.receive).empty()); // across processes only through the tag
  EXPECT_EQ(g.successors(c.receive), std::vector<TaskId>{h});
  EXPECT_EQ(g.tasks_of(0), (std::vector<TaskId>{f, c.send}));
  EXPECT_EQ(g.tasks_of(1), (std::vector<TaskId>{c.receive, h}));
}

TEST(CckGraph, RejectsWhatIsNotADataFlowGraph) {
  TaskGraph g(2);
  const DataId a = g.add_data(0, 1), b = g.add_data(0, 1), other = g.add_data(1, 1);
  g.add_compute(0, {a}, {b});
  EXPECT_THROW(g.add_compute(0, {a}, {b}), std::invalid_argument); // a second writer
  EXPECT_THROW(g.add_compute(0, {b}, {a}), std::invalid_argument); // writing what was read
  EXPECT_THROW(g.add_compute(0, {other}, {}), std::invalid_argument);
  EXPECT_THROW(g.add_communication(a, 0), std::invalid_argument); // to its own process
  EXPECT_THROW(g.add_communication(a, 2), std::invalid_argument);
  EXPECT_THROW(TaskGraph(0), std::invalid_argument);
}

TEST(CckGraph, Jacobi1dFourProcesses) {
  // 8 cells on 4 processes: 2 cells each; 3 iterations. Each inner border is crossed both ways
  // once per version 0..2: 3 borders x 2 x 3 = 18 communications; 8 x 3 = 24 computations.
  const Jacobi j({.dims = 1, .width = 8, .iterations = 3, .processes = 4, .cell_bytes = 4096});
  const TaskGraph& g = j.graph();
  EXPECT_EQ(g.communications().size(), 18u);
  EXPECT_EQ(g.tasks().size(), 24u + 2 * 18u);
  EXPECT_EQ(g.tasks_of(0).size(), 12u); // 6 computations, 3 sends, 3 receives
  EXPECT_EQ(g.tasks_of(1).size(), 18u); // 6 computations, 6 sends, 6 receives
  for (int p = 0; p < 4; p++) EXPECT_EQ(j.block(p).x0, 2 * p);
  EXPECT_EQ(j.owner(5), 2);
  EXPECT_EQ(expected_senders(g, 0), std::vector<int>{1});
  EXPECT_EQ(expected_senders(g, 1), (std::vector<int>{0, 2}));
  EXPECT_EQ(neighbour_counts(g), (std::vector<int>{1, 2, 2, 1}));
  EXPECT_EQ(wave_message_count(neighbour_counts(g)), 26u); // 2 x 4 + 3 x 6

  // compute(2, 1) on P1 reads its own version 0 and cell 3's (local), cell 1's through a receive.
  const Tag from1 = *j.communication(1, 0, 1);
  EXPECT_EQ(g.task(j.compute(2, 1)).reads,
            (std::vector<DataId>{j.value(2, 0), g.communication(from1).target, j.value(3, 0)}));
  EXPECT_EQ(g.task(j.compute(2, 1)).writes, std::vector<DataId>{j.value(2, 1)});
  EXPECT_EQ(g.communication(from1).from, 0);
  EXPECT_EQ(g.task(g.communication(from1).send).cell, 1);
  EXPECT_EQ(g.task(g.communication(from1).send).iteration, 0);
  EXPECT_FALSE(j.communication(2, 0, 1)); // cell 2 is P1's own
  EXPECT_FALSE(j.communication(1, 3, 1)); // the last version is never sent
  EXPECT_FALSE(j.communication(0, 0, 1)); // cell 0 is not on a border
  std::vector<Tag> tags;
  for (const auto& c : g.communications()) tags.push_back(c.tag);
  EXPECT_TRUE(std::is_sorted(tags.begin(), tags.end()));
  EXPECT_EQ(std::adjacent_find(tags.begin(), tags.end()), tags.end()); // unique

  // V_i comes from the receives left: once P0 has received everything, it expects nothing.
  const auto p0_received =
      executed_where(g, [](const Task& t) { return t.process == 0 && t.kind == TaskKind::Receive; });
  EXPECT_EQ(neighbour_counts(g, p0_received), (std::vector<int>{0, 2, 2, 1}));
  EXPECT_EQ(wave_message_count(neighbour_counts(g, p0_received)), 23u);
  const auto last_version_left = executed_where(g, [](const Task& t) { return t.iteration < 2; });
  EXPECT_EQ(neighbour_counts(g, last_version_left), (std::vector<int>{1, 2, 2, 1}));
  const auto all = executed_where(g, [](const Task&) { return true; });
  EXPECT_EQ(wave_message_count(neighbour_counts(g, all)), 8u); // INIT and ACK only
}

TEST(CckGraph, Jacobi1dUnevenBlocksAndLimits) {
  const Jacobi j({.dims = 1, .width = 10, .iterations = 1, .processes = 4});
  const std::vector<std::pair<int, int>> blocks{{0, 3}, {3, 6}, {6, 8}, {8, 10}}; // 10 = 3 + 3 + 2 + 2
  for (int p = 0; p < 4; p++) {
    EXPECT_EQ(j.block(p).x0, blocks[static_cast<std::size_t>(p)].first);
    EXPECT_EQ(j.block(p).x1, blocks[static_cast<std::size_t>(p)].second);
  }
  EXPECT_EQ(j.graph().communications().size(), 6u); // 1 iteration, 3 borders, both ways
  const Jacobi alone({.dims = 1, .width = 5, .iterations = 2, .processes = 1});
  EXPECT_TRUE(alone.graph().communications().empty());
  EXPECT_EQ(wave_message_count(neighbour_counts(alone.graph())), 2u);
  EXPECT_THROW(Jacobi({.dims = 1, .width = 3, .iterations = 1, .processes = 4}), std::invalid_argument);
  EXPECT_THROW(Jacobi({.dims = 1, .width = 3, .height = 2, .iterations = 1, .processes = 1}), std::invalid_argument);
  EXPECT_THROW(Jacobi({.dims = 1, .width = 3, .iterations = 0, .processes = 1}), std::invalid_argument);
  EXPECT_THROW(Jacobi({.dims = 3, .width = 3, .iterations = 1, .processes = 1}), std::invalid_argument);
}

TEST(CckGraph, Jacobi2dTwoByTwo) {
  // 4 x 4 cells on a 2 x 2 grid of 2 x 2 blocks: each process shares one side with 2 others
  // (4-neighbour stencil: no diagonal), 2 border cells per side.
  const Jacobi j({.dims = 2, .width = 4, .height = 4, .iterations = 2, .processes = 4});
  const TaskGraph& g = j.graph();
  EXPECT_EQ(j.grid_columns(), 2);
  EXPECT_EQ(j.grid_rows(), 2);
  EXPECT_EQ(j.block(3).x0, 2);
  EXPECT_EQ(j.block(3).y0, 2);
  EXPECT_EQ(j.owner(2 * 4 + 1), 2); // (x 1, y 2)
  EXPECT_EQ(neighbour_counts(g), (std::vector<int>{2, 2, 2, 2}));
  EXPECT_EQ(expected_senders(g, 0), (std::vector<int>{1, 2}));
  EXPECT_EQ(expected_senders(g, 3), (std::vector<int>{1, 2}));
  EXPECT_EQ(wave_message_count(neighbour_counts(g)), 32u); // 2 x 4 + 3 x 8
  EXPECT_EQ(g.communications().size(), 32u);               // 4 processes x 2 sides x 2 cells x 2 versions
  EXPECT_EQ(g.tasks().size(), 32u + 64u);
  // Cell (1, 1) of P0 reads itself, (1, 0) and (0, 1) locally, (2, 1) from P1 and (1, 2) from P2.
  const TaskId t = j.compute(1 * 4 + 1, 1);
  const auto& reads = g.task(t).reads;
  ASSERT_EQ(reads.size(), 5u);
  EXPECT_EQ(reads[0], j.value(5, 0));
  EXPECT_EQ(reads[1], j.value(1, 0));
  EXPECT_EQ(reads[2], j.value(4, 0));
  EXPECT_EQ(reads[3], g.communication(*j.communication(6, 0, 0)).target);
  EXPECT_EQ(reads[4], g.communication(*j.communication(9, 0, 0)).target);
  EXPECT_FALSE(j.communication(5, 0, 3)); // nothing goes along a diagonal
  EXPECT_EQ(j.cell_neighbours(0), (std::vector<int>{1, 4}));
  EXPECT_EQ(j.cell_neighbours(5), (std::vector<int>{1, 4, 6, 9}));
}

TEST(CckGraph, Jacobi2dThreeByThreeHasBorderProcesses) {
  // One cell per process on 3 x 3: corners have 2 neighbours, sides 3, the centre 4.
  const Jacobi j({.dims = 2, .width = 3, .height = 3, .iterations = 1, .processes = 9});
  const auto v = neighbour_counts(j.graph());
  EXPECT_EQ(v, (std::vector<int>{2, 3, 2, 3, 4, 3, 2, 3, 2}));
  EXPECT_EQ(wave_message_count(v), 90u); // 2 x 9 + 3 x 24
}

TEST(CckGraph, Jacobi2dOfTheThesis) {
  // Figures 5.2-5.3: 32 x 64 cells on 32 processes. The grid with the fewest cut edges is 4 x 8
  // (3 x 64 + 7 x 32 = 416 cut edges, against 544 for 2 x 16 and 8 x 4): blocks of 8 x 8 cells.
  // Adjacent pairs: 3 x 8 side by side + 4 x 7 one above the other = 52, so sum(V_i) = 104.
  const Jacobi j({.dims = 2, .width = 32, .height = 64, .iterations = 10, .processes = 32});
  EXPECT_EQ(j.grid_columns(), 4);
  EXPECT_EQ(j.grid_rows(), 8);
  for (int p = 0; p < 32; p++) {
    EXPECT_EQ(j.block(p).x1 - j.block(p).x0, 8);
    EXPECT_EQ(j.block(p).y1 - j.block(p).y0, 8);
  }
  const auto v = neighbour_counts(j.graph());
  int sum = 0;
  for (int vi : v) sum += vi;
  EXPECT_EQ(sum, 104);
  EXPECT_EQ(v[0], 2);                                             // a corner
  EXPECT_EQ(v[1], 3);                                             // top side
  EXPECT_EQ(v[5], 4);                                             // (1, 1): inside
  EXPECT_EQ(wave_message_count(v), 376u);                         // 2 x 32 + 3 x 104
  EXPECT_EQ(j.graph().communications().size(), 52u * 2 * 8 * 10); // 8 border cells per side and direction
  // A checkpoint before the first task holds the 64 initial values of a process.
  EXPECT_EQ(live_data(j.graph(), 0).size(), 64u);
  // An explicit grid is taken as given.
  const Jacobi wide({.dims = 2, .width = 32, .height = 64, .iterations = 1, .processes = 32, .grid_columns = 2});
  EXPECT_EQ(wide.grid_rows(), 16);
  EXPECT_THROW(Jacobi({.dims = 2, .width = 4, .height = 4, .iterations = 1, .processes = 6, .grid_columns = 4}),
               std::invalid_argument);
  EXPECT_THROW(Jacobi({.dims = 2, .width = 2, .height = 2, .iterations = 1, .processes = 5}), std::invalid_argument);
}

TEST(CckGraph, LocalOrderRunsSendProducersFirst) {
  // 8 cells on 2 processes, 2 iterations. P0 owns cells 0-3 and sends cell 3. Construction
  // order of P0: send(3, v0), recv(4, v0), c(0..3, 1), send(3, v1), recv(4, v1), c(0..3, 2).
  const Jacobi j({.dims = 1, .width = 8, .iterations = 2, .processes = 2});
  const TaskGraph& g = j.graph();
  const auto send = [&](int version) { return g.communication(*j.communication(3, version, 1)).send; };
  const auto recv = [&](int version) { return g.communication(*j.communication(4, version, 0)).receive; };
  const std::vector<TaskId> natural{send(0),         recv(0),         j.compute(0, 1), j.compute(1, 1),
                                    j.compute(2, 1), j.compute(3, 1), send(1),         recv(1),
                                    j.compute(0, 2), j.compute(1, 2), j.compute(2, 2), j.compute(3, 2)};
  EXPECT_EQ(local_order(g, 0, false), natural);
  // Reordered: c(3, 1) feeds send(3, v1), so it and the receive it needs go right after
  // send(3, v0), then that send; the other tasks lead to no send (version 2 is never sent).
  const std::vector<TaskId> reordered{send(0),         recv(0),         j.compute(3, 1), send(1),
                                      j.compute(0, 1), j.compute(1, 1), j.compute(2, 1), recv(1),
                                      j.compute(0, 2), j.compute(1, 2), j.compute(2, 2), j.compute(3, 2)};
  EXPECT_EQ(local_order(g, 0, true), reordered);
}

TEST(CckGraph, LocalOrderIsTopological) {
  const Jacobi j({.dims = 2, .width = 6, .height = 4, .iterations = 4, .processes = 4});
  const TaskGraph& g = j.graph();
  for (int p = 0; p < 4; p++) {
    for (bool reorder : {false, true}) {
      const auto order = local_order(g, p, reorder);
      ASSERT_EQ(order.size(), g.tasks_of(p).size());
      std::vector<int> pos(g.tasks().size(), -1);
      for (std::size_t i = 0; i < order.size(); i++) pos[order[i]] = static_cast<int>(i);
      for (TaskId t : order)
        for (TaskId w : g.predecessors(t)) EXPECT_LT(pos[w], pos[t]) << "process " << p << " task " << t;
    }
  }
}

TEST(CckGraph, LiveDataFollowProgress) {
  const Jacobi j({.dims = 1, .width = 8, .iterations = 2, .processes = 2});
  const TaskGraph& g = j.graph();
  EXPECT_EQ(live_data(g, 0), (std::vector<DataId>{j.value(0, 0), j.value(1, 0), j.value(2, 0), j.value(3, 0)}));
  // After P0's first iteration (its sends and receive of version 0 included), version 0 and the
  // received copy of cell 4 are read by no pending task: only version 1 is left.
  const auto first = executed_where(g, [](const Task& t) {
    return t.process == 0 && (t.kind == TaskKind::Compute ? t.iteration == 1 : t.iteration == 0);
  });
  EXPECT_EQ(live_data(g, 0, first), (std::vector<DataId>{j.value(0, 1), j.value(1, 1), j.value(2, 1), j.value(3, 1)}));
  // At the end the results remain: nothing reads them.
  const auto all = executed_where(g, [](const Task&) { return true; });
  EXPECT_EQ(live_data(g, 0, all), (std::vector<DataId>{j.value(0, 2), j.value(1, 2), j.value(2, 2), j.value(3, 2)}));
  // Not yet computed: not live.
  const auto only_sent =
      executed_where(g, [](const Task& t) { return t.process == 0 && t.kind == TaskKind::Send && t.iteration == 0; });
  EXPECT_EQ(live_data(g, 0, only_sent).size(), 4u);
}
