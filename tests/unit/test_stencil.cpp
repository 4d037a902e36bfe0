/* The "stencil" application (SPEC 2.2, CCK thesis chapter 5) driven without SimGrid: a little
 * round-robin driver plays the runtime (advance, the step's work, complete_step) and the network
 * (messages queued per destination, delivered one per turn). Failure-free runs must compute the
 * Jacobi values that the test recomputes on its own from the recurrence over the cell grid, with
 * one message per communication of the graph; memory must hold exactly the live data; a partial
 * re-execution (reset_tasks, what CCK's partial restart does) must reach the same values and work. */
#include "sim/app/stencil/workload.hpp"
#include "tests/support/app_inputs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <set>

namespace ckptsim {
namespace {

using test_support::layout_of;
using test_support::stencil_app;

using dataflow::DataId;
using dataflow::TaskId;
using dataflow::TaskKind;

StencilState& st(AppStateValue& v) { return static_cast<StencilState&>(*v); }

/* The Jacobi values computed from the recurrence alone: version 0 of cell c is
 * mix_seed(c, 0x57e9c11); version k + 1 folds mix_seed over version k of c, then of its side
 * neighbours in ascending cell order (up, left, right, down). Returns the last version. */
std::vector<std::uint64_t> reference_values(int width, int height, int iterations) {
  const int n = width * height;
  std::vector<std::uint64_t> v(static_cast<std::size_t>(n));
  for (int c = 0; c < n; c++) v[static_cast<std::size_t>(c)] = mix_seed(static_cast<std::uint64_t>(c), 0x57e9c11);
  for (int k = 0; k < iterations; k++) {
    std::vector<std::uint64_t> next(v.size());
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        const int c = y * width + x;
        std::uint64_t h = mix_seed(0, v[static_cast<std::size_t>(c)]);
        if (y > 0) h = mix_seed(h, v[static_cast<std::size_t>(c - width)]);
        if (x > 0) h = mix_seed(h, v[static_cast<std::size_t>(c - 1)]);
        if (x + 1 < width) h = mix_seed(h, v[static_cast<std::size_t>(c + 1)]);
        if (y + 1 < height) h = mix_seed(h, v[static_cast<std::size_t>(c + width)]);
        next[static_cast<std::size_t>(c)] = h;
      }
    }
    v = std::move(next);
  }
  return v;
}

/* The expected checksum of every process: its cells ascending, their last values folded. */
std::vector<std::uint64_t> reference_checksums(const StencilWorkload& w) {
  const auto& spec = w.jacobi().spec();
  const auto v = reference_values(spec.width, spec.height, spec.iterations);
  std::vector<std::uint64_t> out(static_cast<std::size_t>(spec.processes), 0);
  for (int c = 0; c < w.jacobi().cells(); c++) {
    auto& h = out[static_cast<std::size_t>(w.jacobi().owner(c))];
    h = mix_seed(h, v[static_cast<std::size_t>(c)]);
  }
  for (auto& h : out) h &= (std::uint64_t{1} << 48) - 1;
  return out;
}

/* Plays the runtime and the network for every process, in turns. */
struct StencilDriver {
  explicit StencilDriver(const StencilWorkload& workload)
      : w(workload) {
    const int n = w.graph().processes();
    for (int p = 0; p < n; p++) states.push_back(w.initial_state(p, 7));
    inbox.resize(static_cast<std::size_t>(n));
    log.resize(static_cast<std::size_t>(n));
    computed.resize(static_cast<std::size_t>(n));
  }

  /** One turn of @p p: at most one delivery, then one advance (and its step). True if anything
   *  happened. */
  bool turn(int p) {
    auto& s = st(states[static_cast<std::size_t>(p)]);
    auto& in = inbox[static_cast<std::size_t>(p)];
    bool moved = false;
    if (!in.empty()) {
      w.deliver(s, in.front());
      in.pop_front();
      moved = true;
    }
    if (s.finished) return moved;
    std::vector<AppMessage> sends;
    const double before = s.work_done;
    auto work = w.advance(s, p, sends);
    for (const auto& m : sends) {
      EXPECT_EQ(m.src, p);
      inbox[static_cast<std::size_t>(m.dst)].push_back(m);
      log[static_cast<std::size_t>(m.dst)].push_back(m);
      messages++;
    }
    moved = moved || !sends.empty() || s.finished;
    if (work) {
      EXPECT_DOUBLE_EQ(*work, w.task_cost());
      EXPECT_NE(s.current, dataflow::kNoTask);
      computed[static_cast<std::size_t>(p)].push_back(s.current);
      s.work_done += *work; // what the runtime does while the step runs
      s.step_remaining = 0;
      w.complete_step(s, p);
      EXPECT_EQ(s.current, dataflow::kNoTask);
      EXPECT_DOUBLE_EQ(s.work_done, before + *work); // complete_step adds nothing
      moved = true;
    }
    if (check_memory) expect_live_data(p);
    return moved;
  }

  bool all_finished() const {
    return std::all_of(states.begin(), states.end(), [](const AppStateValue& s) { return s->finished; });
  }

  /** Turns until every process has finished, or until @p stop says so. False on a deadlock. */
  bool run(const std::function<bool()>& stop = [] { return false; }) {
    while (!all_finished()) {
      bool moved = false;
      for (int p = 0; p < w.graph().processes(); p++) {
        moved = turn(p) || moved;
        if (stop()) return true;
      }
      if (!moved) return false;
    }
    return true;
  }

  std::vector<bool> executed_tasks(int p) const {
    std::vector<bool> out(w.graph().tasks().size(), false);
    for (TaskId t : w.graph().tasks_of(p)) out[t] = w.executed(*states[static_cast<std::size_t>(p)], t);
    return out;
  }

  /** Memory holds exactly the live data of dataflow::live_data (thesis 4.2.1, 4.4.2). */
  void expect_live_data(int p) const {
    const auto& s = static_cast<const StencilState&>(*states[static_cast<std::size_t>(p)]);
    std::vector<DataId> held;
    for (const auto& [d, v] : s.values) held.push_back(d);
    std::sort(held.begin(), held.end());
    EXPECT_EQ(held, dataflow::live_data(w.graph(), p, executed_tasks(p))) << "process " << p;
  }

  const StencilWorkload& w;
  std::vector<AppStateValue> states;
  std::vector<std::deque<AppMessage>> inbox;
  std::vector<std::vector<AppMessage>> log; // every message sent to each process
  std::vector<std::vector<TaskId>> computed;
  std::size_t messages = 0;
  bool check_memory = false;
};

std::size_t count_kind(const dataflow::TaskGraph& g, int p, TaskKind kind) {
  const auto& mine = g.tasks_of(p);
  return static_cast<std::size_t>(
      std::count_if(mine.begin(), mine.end(), [&](TaskId t) { return g.task(t).kind == kind; }));
}

void expect_correct_run(const StencilWorkload& w, StencilDriver& d) {
  const auto expected = reference_checksums(w);
  const dataflow::TaskGraph& g = w.graph();
  EXPECT_EQ(d.messages, g.communications().size());
  for (int p = 0; p < g.processes(); p++) {
    SCOPED_TRACE("process " + std::to_string(p));
    const auto& s = st(d.states[static_cast<std::size_t>(p)]);
    EXPECT_TRUE(s.finished);
    EXPECT_EQ(w.checksum(s), expected[static_cast<std::size_t>(p)]);
    EXPECT_NE(w.checksum(s), 0u);
    EXPECT_LT(w.checksum(s), std::uint64_t{1} << 48);
    EXPECT_DOUBLE_EQ(w.failure_free_work(p), static_cast<double>(count_kind(g, p, TaskKind::Compute)) * 0.25);
    EXPECT_NEAR(s.work_done, w.failure_free_work(p), 1e-9);
    EXPECT_EQ(s.delivered, count_kind(g, p, TaskKind::Receive));
    EXPECT_TRUE(std::all_of(s.done.begin(), s.done.end(), [](std::uint8_t x) { return x == 1; }));
    EXPECT_EQ(s.cursor, g.tasks_of(p).size());
    // Only the results are left: the last version of each of its cells.
    const auto cells = static_cast<double>(s.values.size());
    EXPECT_EQ(s.values.size(), d.computed[static_cast<std::size_t>(p)].size() / w.jacobi().spec().iterations);
    EXPECT_DOUBLE_EQ(w.state_bytes(s), cells * 4096);
  }
}

TEST(Stencil, Jacobi1dRoundRobinComputesTheRecurrence) {
  const StencilWorkload w(stencil_app(1, 12, 1, 5), layout_of(3));
  StencilDriver d(w);
  d.check_memory = true;
  ASSERT_TRUE(d.run());
  expect_correct_run(w, d);
  EXPECT_EQ(d.messages, 2u * 2 * 5); // 2 borders, both ways, 5 versions
}

TEST(Stencil, Jacobi2dInOrderAndReorderComputeTheSameValues) {
  // 12 x 8 cells on 6 processes (a 3 x 2 grid of 4 x 4 blocks), 4 iterations.
  const StencilWorkload in_order(stencil_app(2, 12, 8, 4, false), layout_of(6));
  const StencilWorkload reorder(stencil_app(2, 12, 8, 4, true), layout_of(6));
  StencilDriver a(in_order), b(reorder);
  a.check_memory = b.check_memory = true;
  ASSERT_TRUE(a.run());
  ASSERT_TRUE(b.run());
  expect_correct_run(in_order, a);
  expect_correct_run(reorder, b);
  for (int p = 0; p < 6; p++)
    EXPECT_EQ(in_order.checksum(*a.states[static_cast<std::size_t>(p)]),
              reorder.checksum(*b.states[static_cast<std::size_t>(p)]));
  EXPECT_NE(a.computed, b.computed); // local reordering changes the execution order...
  for (int p = 0; p < 6; p++) {      // ...of the same tasks
    auto x = a.computed[static_cast<std::size_t>(p)], y = b.computed[static_cast<std::size_t>(p)];
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    EXPECT_EQ(x, y);
  }
  // With reordering, P0's first computation is a border cell (its value is sent), not cell 0.
  EXPECT_EQ(a.computed[0].front(), in_order.jacobi().compute(0, 1));
  EXPECT_NE(b.computed[0].front(), reorder.jacobi().compute(0, 1));
}

TEST(Stencil, LargerDomainOnManyProcesses) {
  // The thesis' domain (64 x 32 cells on 32 processes, 8 x 8 blocks), 10 iterations.
  const StencilWorkload w(stencil_app(2, 64, 32, 10, true), layout_of(32));
  StencilDriver d(w);
  ASSERT_TRUE(d.run());
  expect_correct_run(w, d);
}

TEST(Stencil, InitialStateBytesByHand) {
  // 1D, 8 cells on 4 processes, 3 iterations: P1 holds cells 2 and 3 (2 x 4 KiB) and 18 tasks
  // (6 computations, 6 sends, 6 receives) of 1 KiB each.
  const StencilWorkload w(stencil_app(1, 8, 1, 3), layout_of(4));
  EXPECT_DOUBLE_EQ(w.state_bytes(*w.initial_state(1, 1)), 2 * 4096 + 18 * 1024);
  EXPECT_DOUBLE_EQ(w.state_bytes(*w.initial_state(0, 1)), 2 * 4096 + 12 * 1024);
  EXPECT_DOUBLE_EQ(w.failure_free_work(1), 6 * 0.25);

  // The thesis' checkpoint (5.3): 64 x 32 cells of 4 KiB, 32 processes, 10 iterations. An inner
  // process (4 neighbours) holds 64 cells (256 KiB) and 640 computations + 320 sends + 320
  // receives: 1280 descriptors of 1 KiB, 1.5 MiB in all; a corner process 2 neighbours.
  const StencilWorkload big(stencil_app(2, 64, 32, 10), layout_of(32));
  EXPECT_EQ(big.jacobi().grid_columns(), 8);
  EXPECT_DOUBLE_EQ(big.state_bytes(*big.initial_state(9, 1)), 1.5 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(big.state_bytes(*big.initial_state(0, 1)), 64 * 4096 + (640 + 160 + 160) * 1024);

  Application app = stencil_app(1, 8, 1, 3);
  app.spec_as<StencilSpec>().cell_bytes = 100;
  app.spec_as<StencilSpec>().task_descriptor_bytes = 0;
  const StencilWorkload bare(app, layout_of(4));
  EXPECT_DOUBLE_EQ(bare.state_bytes(*bare.initial_state(1, 1)), 200);
}

TEST(Stencil, WaitsForMessagesAndIgnoresCopies) {
  // 1D, 4 cells on 2 processes, 2 iterations. P0 alone: it sends cell 1 (version 0), computes
  // cell 0 (no remote neighbour), then waits for cell 2's value.
  const StencilWorkload w(stencil_app(1, 4, 1, 2), layout_of(2));
  AppStateValue v0 = w.initial_state(0, 1), v1 = w.initial_state(1, 1);
  auto& s0 = st(v0);
  auto& s1 = st(v1);
  std::vector<AppMessage> sends;
  auto work = w.advance(s0, 0, sends);
  ASSERT_EQ(sends.size(), 1u);
  EXPECT_EQ(sends[0].dst, 1);
  EXPECT_EQ(sends[0].seq, *w.jacobi().communication(1, 0, 1));
  EXPECT_EQ(sends[0].digest, StencilWorkload::initial_value(1));
  EXPECT_DOUBLE_EQ(sends[0].size, 4096);
  ASSERT_TRUE(work);
  EXPECT_EQ(s0.current, w.jacobi().compute(0, 1));
  EXPECT_FALSE(w.executed(s0, s0.current)); // executed when its step completes
  w.complete_step(s0, 0);
  EXPECT_TRUE(w.executed(s0, w.jacobi().compute(0, 1)));
  sends.clear();
  EXPECT_FALSE(w.advance(s0, 0, sends)); // cell 1 needs cell 2
  EXPECT_FALSE(s0.finished);
  EXPECT_TRUE(sends.empty());

  std::vector<AppMessage> from1;
  w.advance(s1, 1, from1);
  ASSERT_EQ(from1.size(), 1u);
  const dataflow::Tag tag = static_cast<dataflow::Tag>(from1[0].seq);
  EXPECT_FALSE(w.received(s0, tag));
  w.deliver(s0, from1[0]);
  EXPECT_TRUE(w.received(s0, tag));
  EXPECT_EQ(s0.delivered, 1u);
  w.deliver(s0, from1[0]); // a copy: ignored, not counted
  EXPECT_EQ(s0.delivered, 1u);
  EXPECT_TRUE(w.advance(s0, 0, sends));
  EXPECT_EQ(s0.current, w.jacobi().compute(1, 1));

  EXPECT_THROW(w.executed(s0, w.jacobi().compute(3, 1)), std::invalid_argument); // P1's task
}

/* Tasks executed by @p p since @p checkpoint, and the closure of one of its sends among them. */
std::vector<TaskId> executed_since(const StencilWorkload& w, const AppState& now, const AppState& checkpoint, int p) {
  std::vector<TaskId> out;
  for (TaskId t : w.graph().tasks_of(p))
    if (w.executed(now, t) && !w.executed(checkpoint, t)) out.push_back(t);
  return out;
}

std::vector<TaskId> closure(const StencilWorkload& w, TaskId send, const std::vector<TaskId>& since) {
  const std::set<TaskId> allowed(since.begin(), since.end());
  std::set<TaskId> out{send};
  std::vector<TaskId> todo{send};
  while (!todo.empty()) {
    const TaskId t = todo.back();
    todo.pop_back();
    for (TaskId q : w.graph().predecessors(t))
      if (allowed.count(q) && out.insert(q).second) todo.push_back(q);
  }
  return {out.begin(), out.end()};
}

std::size_t executed_count(const StencilState& s) {
  return static_cast<std::size_t>(std::count(s.done.begin(), s.done.end(), std::uint8_t{1}));
}

/* Re-queues for @p p the messages it must receive again (their receive was reset). */
void redeliver(const StencilWorkload& w, StencilDriver& d, int p) {
  auto& s = st(d.states[static_cast<std::size_t>(p)]);
  std::set<std::uint64_t> queued;
  for (const auto& m : d.inbox[static_cast<std::size_t>(p)]) queued.insert(m.seq);
  for (const auto& m : d.log[static_cast<std::size_t>(p)])
    if (!w.received(s, static_cast<dataflow::Tag>(m.seq)) && !queued.count(m.seq)) {
      d.inbox[static_cast<std::size_t>(p)].push_back(m);
      queued.insert(m.seq);
    }
}

TEST(Stencil, ResetEverythingSinceTheCheckpointAndReexecute) {
  for (bool reorder : {false, true}) {
    SCOPED_TRACE(reorder ? "reorder" : "in-order");
    const StencilWorkload w(stencil_app(2, 12, 8, 6, reorder), layout_of(6));
    StencilDriver d(w);
    d.check_memory = true;
    const int p = 4;
    const std::size_t total = w.graph().tasks_of(p).size();
    auto& s = st(d.states[p]);
    ASSERT_TRUE(d.run([&] { return executed_count(s) >= total * 2 / 5; }));
    const AppStateValue checkpoint = d.states[p];
    const auto& cp = static_cast<const StencilState&>(*checkpoint);
    ASSERT_TRUE(d.run([&] { return executed_count(s) >= total * 4 / 5; }));
    const auto since = executed_since(w, s, cp, p);
    ASSERT_FALSE(since.empty());
    std::size_t computes = 0;
    for (TaskId t : since) computes += w.graph().task(t).kind == TaskKind::Compute;
    ASSERT_GT(computes, 0u);
    const double before = s.work_done;

    w.reset_tasks(s, since, cp);
    EXPECT_NEAR(s.work_done, before - static_cast<double>(computes) * w.task_cost(), 1e-9);
    EXPECT_NEAR(s.work_done, cp.work_done, 1e-9);
    EXPECT_EQ(s.delivered, cp.delivered); // receives to make again: not deliveries beyond the most (watchdog)
    EXPECT_EQ(s.done, cp.done);           // back to the checkpoint's progress...
    EXPECT_EQ(s.values, cp.values); // ...and the checkpoint's data
    EXPECT_EQ(s.cursor, cp.cursor);
    EXPECT_FALSE(s.finished);
    d.expect_live_data(p);

    redeliver(w, d, p);
    ASSERT_TRUE(d.run());
    const auto expected = reference_checksums(w);
    for (int q = 0; q < 6; q++) {
      const auto& sq = st(d.states[static_cast<std::size_t>(q)]);
      EXPECT_TRUE(sq.finished);
      EXPECT_EQ(w.checksum(sq), expected[static_cast<std::size_t>(q)]) << "process " << q;
      EXPECT_NEAR(sq.work_done, w.failure_free_work(q), 1e-9) << "process " << q;
      EXPECT_EQ(sq.delivered, count_kind(w.graph(), q, TaskKind::Receive)) << "process " << q; // copies ignored
    }
  }
}

TEST(Stencil, ResetWhatOneSendDependsOnReusingDataInMemory) {
  const StencilWorkload w(stencil_app(2, 12, 8, 6), layout_of(6));
  StencilDriver d(w);
  d.check_memory = true;
  const int p = 1;
  auto& s = st(d.states[p]);
  const std::size_t total = w.graph().tasks_of(p).size();
  ASSERT_TRUE(d.run([&] { return executed_count(s) >= total / 3; }));
  const AppStateValue checkpoint = d.states[p];
  const auto& cp = static_cast<const StencilState&>(*checkpoint);
  ASSERT_TRUE(d.run([&] { return executed_count(s) >= total * 3 / 4; }));
  const auto since = executed_since(w, s, cp, p);
  // The last send executed since the checkpoint and what it depends on among those tasks.
  TaskId send = dataflow::kNoTask;
  for (TaskId t : since)
    if (w.graph().task(t).kind == TaskKind::Send) send = t;
  ASSERT_NE(send, dataflow::kNoTask);
  const auto tasks = closure(w, send, since);
  ASSERT_GT(tasks.size(), 2u);
  ASSERT_LT(tasks.size(), since.size());
  std::size_t computes = 0;
  for (TaskId t : tasks) computes += w.graph().task(t).kind == TaskKind::Compute;
  const double before = s.work_done;
  const std::size_t done_before = executed_count(s);

  w.reset_tasks(s, tasks, cp);
  EXPECT_NEAR(s.work_done, before - static_cast<double>(computes) * w.task_cost(), 1e-9);
  EXPECT_EQ(executed_count(s), done_before - tasks.size());
  for (TaskId t : tasks) EXPECT_FALSE(w.executed(s, t));
  for (TaskId t : since)
    if (!std::binary_search(tasks.begin(), tasks.end(), t)) {
      EXPECT_TRUE(w.executed(s, t));
    }
  d.expect_live_data(p);

  redeliver(w, d, p);
  ASSERT_TRUE(d.run());
  const auto expected = reference_checksums(w);
  for (int q = 0; q < 6; q++) {
    const auto& sq = st(d.states[static_cast<std::size_t>(q)]);
    EXPECT_EQ(w.checksum(sq), expected[static_cast<std::size_t>(q)]) << "process " << q;
    EXPECT_NEAR(sq.work_done, w.failure_free_work(q), 1e-9) << "process " << q;
  }
}

TEST(Stencil, ResetAbandonsAStepWhoseInputsAreRecomputed) {
  // 1D, 6 cells on 2 processes: P0 computes cells 0..2 alone until it needs cell 3.
  const StencilWorkload w(stencil_app(1, 6, 1, 3), layout_of(2));
  AppStateValue v = w.initial_state(0, 1);
  auto& s = st(v);
  const AppStateValue checkpoint = v;
  std::vector<AppMessage> sends;
  // Versions 1 of cells 0 and 1 need no message (cell 1 waits for cell 2: local).
  for (int i = 0; i < 2; i++) {
    ASSERT_TRUE(w.advance(s, 0, sends));
    s.work_done += w.task_cost();
    w.complete_step(s, 0);
  }
  ASSERT_TRUE(w.executed(s, w.jacobi().compute(0, 1)));
  ASSERT_TRUE(w.executed(s, w.jacobi().compute(1, 1)));
  // Version 2 of cell 0 (reads versions 1 of cells 0 and 1) is under way, 40% done.
  ASSERT_TRUE(w.advance(s, 0, sends));
  ASSERT_EQ(s.current, w.jacobi().compute(0, 2));
  s.work_done += 0.4 * w.task_cost();
  s.step_remaining = 0.6 * w.task_cost();

  // Resetting compute(1, 1) (and what reads its output since) abandons the step.
  w.reset_tasks(s, {w.jacobi().compute(1, 1)}, *checkpoint);
  EXPECT_EQ(s.current, dataflow::kNoTask);
  EXPECT_DOUBLE_EQ(s.step_remaining, 0);
  EXPECT_NEAR(s.work_done, w.task_cost(), 1e-12); // compute(0, 1) only
  EXPECT_TRUE(w.executed(s, w.jacobi().compute(0, 1)));
  EXPECT_FALSE(w.executed(s, w.jacobi().compute(1, 1)));

  // A reset that leaves the step's inputs alone lets it go on.
  ASSERT_TRUE(w.advance(s, 0, sends));
  ASSERT_EQ(s.current, w.jacobi().compute(1, 1));
  s.work_done += w.task_cost();
  w.complete_step(s, 0);
  ASSERT_TRUE(w.advance(s, 0, sends));
  const TaskId running = s.current;
  ASSERT_EQ(running, w.jacobi().compute(0, 2));
  s.work_done += 0.5 * w.task_cost();
  s.step_remaining = 0.5 * w.task_cost();
  const double before = s.work_done;
  const auto sends_tasks = w.graph().tasks_of(0);
  TaskId sent = dataflow::kNoTask; // the send of cell 2's version 0
  for (TaskId t : sends_tasks)
    if (w.graph().task(t).kind == TaskKind::Send && w.executed(s, t)) sent = t;
  ASSERT_NE(sent, dataflow::kNoTask);
  w.reset_tasks(s, {sent}, *checkpoint);
  EXPECT_EQ(s.current, running);
  EXPECT_DOUBLE_EQ(s.work_done, before);
  EXPECT_DOUBLE_EQ(s.step_remaining, 0.5 * w.task_cost());
  sends.clear();
  w.complete_step(s, 0);
  w.advance(s, 0, sends); // the send again
  ASSERT_FALSE(sends.empty());
  EXPECT_EQ(sends[0].seq, w.graph().task(sent).tag);
}

TEST(Stencil, ResetNeedsTheDataItReads) {
  // P0 runs from its initial state; resetting a task whose inputs are gone from memory and were
  // not in the given "checkpoint" (here the current state itself) is a caller's mistake.
  const StencilWorkload w(stencil_app(1, 6, 1, 3), layout_of(2));
  AppStateValue v = w.initial_state(0, 1);
  auto& s = st(v);
  std::vector<AppMessage> sends;
  for (int i = 0; i < 3; i++) {
    ASSERT_TRUE(w.advance(s, 0, sends));
    s.work_done += w.task_cost();
    w.complete_step(s, 0);
  }
  // compute(0, 2) ran: version 0 of cell 0 is gone (all its readers ran).
  ASSERT_TRUE(w.executed(s, w.jacobi().compute(0, 2)));
  const AppStateValue copy = v;
  EXPECT_THROW(w.reset_tasks(s, {w.jacobi().compute(0, 1)}, *copy), std::logic_error);
  EXPECT_TRUE(w.executed(s, w.jacobi().compute(0, 1))); // a refused reset changes nothing
  EXPECT_EQ(s.values, static_cast<const StencilState&>(*copy).values);
  EXPECT_DOUBLE_EQ(s.work_done, 3 * w.task_cost());
  EXPECT_THROW(w.reset_tasks(s, {w.jacobi().compute(5, 1)}, *copy), std::invalid_argument); // P1's
}

} // namespace
} // namespace ckptsim
