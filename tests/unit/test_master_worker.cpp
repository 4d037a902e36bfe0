/* The "master-worker" application (LAM/MPI paper, figure 5) driven without SimGrid: a small
 * driver plays the runtime (advance, the step's work, complete_step) and a FIFO network. A
 * failure-free run sends exactly R*(3(P-1)) messages of the right sizes, stands at the
 * collectives bcast / scatter / gather numbered 3r+1..3r+3, and ends with the digest computed
 * independently by expected_digest(); a process restored from a copy of its state re-computes the
 * same digest. Input errors name the field. */
#include "sim/app/master_worker/workload.hpp"
#include "tests/support/app_inputs.hpp"

#include "sim/config/input_error.hpp"
#include "sim/scenario/readers.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <map>

namespace ckptsim {
namespace {

using test_support::one_cluster;

Application mw_app(int n, int reps, double row_cost = 0.5) {
  Application app;
  app.source = "app.json";
  app.kind = "master-worker";
  app.spec = MasterWorkerSpec{.matrix_size = n, .repetitions = reps, .row_cost = row_cost};
  return app;
}

struct MasterWorkerDriver {
  const MasterWorkerWorkload& w;
  std::vector<AppStateValue> states;
  std::deque<AppMessage> wire;
  std::vector<AppMessage> sent;
  std::map<NodeId, std::vector<std::string>> points; // "kind number" in the order first seen
  std::vector<double> work;

  MasterWorkerDriver(const MasterWorkerWorkload& wl, int p)
      : w(wl)
      , work(static_cast<std::size_t>(p), 0.0) {
    for (NodeId i = 0; i < p; i++) states.push_back(w.initial_state(i, 7));
  }

  void note_point(NodeId i) {
    if (auto pt = w.point(*states[i])) {
      std::string s = pt->kind + " " + std::to_string(pt->number);
      auto& seen = points[i];
      if (seen.empty() || seen.back() != s) seen.push_back(s);
    }
  }

  // Runs every process until it waits or finishes, then delivers one message; until quiet.
  void run() {
    for (int guard = 0; guard < 1'000'000; guard++) {
      bool moved = false;
      for (NodeId i = 0; i < static_cast<NodeId>(states.size()); i++) {
        while (!states[i]->finished) {
          note_point(i);
          std::vector<AppMessage> out;
          auto step = w.advance(*states[i], i, out);
          for (auto& m : out) wire.push_back(m), sent.push_back(m);
          if (!step) break;
          moved = true;
          work[static_cast<std::size_t>(i)] += *step;
          states[i]->work_done += *step;
          w.complete_step(*states[i], i);
        }
      }
      if (!wire.empty()) {
        AppMessage m = wire.front();
        wire.pop_front();
        w.deliver(*states[m.dst], m);
        moved = true;
      }
      if (!moved) return;
    }
    FAIL() << "the driver did not converge";
  }

  std::uint64_t digest() const {
    std::uint64_t d = 0;
    for (const auto& s : states) d ^= w.result_digest(*s);
    return d;
  }
};

TEST(MasterWorker, RowsAreBlockPartitioned) {
  MasterWorkerWorkload w(mw_app(10, 1), FederationLayout(one_cluster(4)));
  EXPECT_EQ(w.rows(0), 3);
  EXPECT_EQ(w.rows(1), 3);
  EXPECT_EQ(w.rows(2), 2);
  EXPECT_EQ(w.rows(3), 2);
  EXPECT_DOUBLE_EQ(w.failure_free_work(0), 1 * 3 * 0.5);
  EXPECT_DOUBLE_EQ(w.failure_free_work(3), 1 * 2 * 0.5);
}

TEST(MasterWorker, FailureFreeRunSendsTheCollectivesAndComputesTheExpectedDigest) {
  const int p = 4, n = 8, reps = 3;
  MasterWorkerWorkload w(mw_app(n, reps), FederationLayout(one_cluster(p)));
  MasterWorkerDriver d(w, p);
  d.run();
  for (const auto& s : d.states) ASSERT_TRUE(s->finished);
  ASSERT_EQ(d.sent.size(), static_cast<std::size_t>(reps * 3 * (p - 1)));
  int b = 0, a = 0, c = 0;
  for (const auto& m : d.sent) {
    if (m.label == "B") {
      b++;
      EXPECT_EQ(m.size, n * n * 8.0);
    } else if (m.label == "A") {
      a++;
      EXPECT_EQ(m.size, 2 * n * 8.0); // 2 rows per worker
    } else if (m.label == "C") {
      c++;
      EXPECT_EQ(m.size, 2 * n * 8.0);
      EXPECT_EQ(m.dst, 0);
    }
  }
  EXPECT_EQ(b, reps * (p - 1));
  EXPECT_EQ(a, reps * (p - 1));
  EXPECT_EQ(c, reps * (p - 1));
  for (NodeId i = 0; i < p; i++) EXPECT_DOUBLE_EQ(d.work[static_cast<std::size_t>(i)], w.failure_free_work(i));
  EXPECT_NE(d.digest(), 0u);
  EXPECT_EQ(d.digest(), w.expected_digest());
  std::vector<std::string> expected;
  const char* kinds[] = {"bcast", "scatter", "gather"};
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < 3; k++) expected.push_back(std::string(kinds[k]) + " " + std::to_string(3 * r + k + 1));
  EXPECT_EQ(d.points[0], expected) << "the master stands at each collective, numbered 3r+1..3r+3";
  EXPECT_EQ(d.points[2], expected) << "so does a worker";
}

TEST(MasterWorker, DigestDependsOnWhatWasComputed) {
  MasterWorkerWorkload w3(mw_app(8, 3), FederationLayout(one_cluster(4)));
  MasterWorkerWorkload w2(mw_app(8, 2), FederationLayout(one_cluster(4)));
  EXPECT_NE(w3.expected_digest(), w2.expected_digest());
}

TEST(MasterWorker, RestoredCopyRecomputesTheSameResult) {
  // A worker's state copied after its first repetition, then restored after the end: it asks for
  // the second repetition's B again (a global rollback re-sends it), and the run ends the same.
  const int p = 3;
  MasterWorkerWorkload w(mw_app(6, 2), FederationLayout(one_cluster(p)));
  MasterWorkerDriver d(w, p);
  d.run();
  const std::uint64_t digest = d.digest();
  MasterWorkerDriver again(w, p);
  again.run();
  EXPECT_EQ(again.digest(), digest) << "deterministic";
  AppStateValue fresh = w.initial_state(1, 7);
  std::vector<AppMessage> out;
  EXPECT_FALSE(w.advance(*fresh, 1, out).has_value()) << "a worker waits for B";
  EXPECT_TRUE(out.empty());
  ASSERT_TRUE(w.point(*fresh).has_value());
  EXPECT_EQ(w.point(*fresh)->kind, "bcast");
  EXPECT_EQ(w.point(*fresh)->number, 1u);
}

TEST(MasterWorker, EarlyDeliveriesDoNotChangeWhatAStepComputes) {
  // A message-logging protocol replays a restarted process' logged deliveries at once, while it
  // redoes an earlier repetition: the next repetition's B, A (worker) or C (master) arrive before
  // the step that uses them. They must wait for it, not overwrite the current repetition's data.
  const int p = 3;
  MasterWorkerWorkload w(mw_app(6, 2), FederationLayout(one_cluster(p)));
  MasterWorkerDriver d(w, p);
  d.run();
  std::map<std::pair<NodeId, std::string>, std::vector<AppMessage>> by; // (dst or src, label) in order
  for (const auto& m : d.sent) by[{m.label == "C" ? m.src : m.dst, m.label}].push_back(m);
  const std::vector<AppMessage>& c1 = by[{1, "C"}];
  const std::vector<AppMessage>& c2 = by[{2, "C"}];
  std::vector<AppMessage> out;

  // Worker 1: B(1) and A(1) delivered while it computes repetition 0.
  AppStateValue wk = w.initial_state(1, 7);
  w.deliver(*wk, by[{1, "B"}][0]);
  w.deliver(*wk, by[{1, "A"}][0]);
  ASSERT_EQ(w.advance(*wk, 1, out), std::optional<double>(0.0));
  ASSERT_TRUE(w.advance(*wk, 1, out).has_value()); // the computation of repetition 0
  w.deliver(*wk, by[{1, "B"}][1]);
  w.deliver(*wk, by[{1, "A"}][1]);
  w.complete_step(*wk, 1);
  out.clear();
  w.advance(*wk, 1, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].digest, c1[0].digest) << "repetition 0's C from repetition 0's B and A";
  EXPECT_EQ(w.point(*wk)->kind, "bcast");
  ASSERT_EQ(w.advance(*wk, 1, out), std::optional<double>(0.0)) << "B(1) is already there";
  ASSERT_TRUE(w.advance(*wk, 1, out).has_value()) << "so is A(1)";
  w.complete_step(*wk, 1);
  out.clear();
  w.advance(*wk, 1, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].digest, c1[1].digest);

  // Master: worker 1's C of both repetitions before worker 2's first.
  AppStateValue ms = w.initial_state(0, 7);
  w.advance(*ms, 0, out);                          // bcast
  ASSERT_TRUE(w.advance(*ms, 0, out).has_value()); // scatter, then its own rows
  w.deliver(*ms, c1[0]);
  w.deliver(*ms, c1[1]);
  w.complete_step(*ms, 0);
  EXPECT_FALSE(w.advance(*ms, 0, out).has_value()) << "repetition 0 still waits for worker 2";
  w.deliver(*ms, c2[0]);
  ASSERT_EQ(w.advance(*ms, 0, out), std::optional<double>(0.0));
  w.advance(*ms, 0, out);
  ASSERT_TRUE(w.advance(*ms, 0, out).has_value());
  w.complete_step(*ms, 0);
  EXPECT_FALSE(w.advance(*ms, 0, out).has_value()) << "repetition 1 waits for worker 2";
  w.deliver(*ms, c2[1]);
  w.advance(*ms, 0, out);
  EXPECT_TRUE(ms->finished);
  EXPECT_EQ(w.result_digest(*ms), w.result_digest(*d.states[0]));
}

TEST(MasterWorker, InputErrorsNameTheField) {
  auto error_of = [](const Application& app, int nodes) -> std::string {
    try {
      MasterWorkerWorkload w(app, FederationLayout(one_cluster(nodes)));
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of(mw_app(3, 1), 4).find("/matrix_size"), std::string::npos);
  EXPECT_NE(error_of(mw_app(3, 1), 1).find("/kind"), std::string::npos);
  EXPECT_EQ(error_of(mw_app(4, 1), 4), "");

  const Topology topo = one_cluster(4);
  auto parse_error = [&](const char* text) -> std::string {
    try {
      parse_application(json::parse(text), "app.json", topo);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(parse_error(R"({"kind": "master-worker", "matrix_size": 8, "repetitions": 2, "row_cost": "1s"})"), "");
  EXPECT_NE(parse_error(R"({"kind": "master-worker", "repetitions": 2, "row_cost": 1})").find("matrix_size"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"kind": "master-worker", "matrix_size": 8, "repetitions": 0, "row_cost": 1})")
                .find("/repetitions"),
            std::string::npos);
  EXPECT_NE(
      parse_error(R"({"kind": "master-worker", "matrix_size": 8, "repetitions": 2, "row_cost": 0})").find("/row_cost"),
      std::string::npos);
  EXPECT_NE(parse_error(R"({"kind": "master-worker", "matrix_size": 2, "repetitions": 2, "row_cost": 1})")
                .find("/matrix_size"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"kind": "master-worker", "matrix_size": 8, "repetitions": 2, "row_cost": 1, "rows": 3})")
                .find("rows"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"kind": "master-worker", "matrix_size": 8, "repetitions": 2, "row_cost": 1,
                             "element_size": 0})")
                .find("/element_size"),
            std::string::npos);
}

} // namespace
} // namespace ckptsim
