/* The "master-worker" application (SPEC 2.2, the LAM/MPI paper's figure 5): C = A x B on n x n
 * matrices, repeated R times, over every node of the federation (process 0 is the master, the
 * others are workers; the paper runs 4 processes). One repetition:
 *   - bcast:   the master sends B (n*n elements) to every worker;
 *   - scatter: the master sends each worker its block of rows of A (rows_w * n elements);
 *   - every process, the master included, computes its rows of C (rows_p * row_cost of work);
 *   - gather:  each worker sends its rows of C back (rows_w * n elements); the master waits for
 *              all of them before the next repetition.
 * Rows are block-partitioned: process p has n/P rows, the first n%P processes one more.
 * Those three collectives are the process' program-order points (Workload::next_point): kind
 * "bcast", "scatter", "gather", numbered 3r+1, 3r+2, 3r+3 for repetition r (0-based) on every
 * process; a master's point is where it stands before its sends (bcast, scatter) or its wait
 * (gather), a worker's where it waits (bcast, scatter) or before its send (gather). Each send
 * phase is a zero-work step of its own, so that the process stands between two steps at each
 * point.
 * Values: B, A and C carry 64-bit fingerprints (message digest) computed deterministically
 * from the repetition and the rows, so that result_digest() tells a run with failures that
 * computed the same C from one that did not. */
#pragma once

#include "sim/app/master_worker/spec.hpp"
#include "sim/app/workload.hpp"

#include <map>
#include <string>
#include <vector>

namespace ckptsim {

class MasterWorkerState : public AppState {
 public:
  std::unique_ptr<AppState> clone() const override { return std::make_unique<MasterWorkerState>(*this); }

  enum class Phase : std::uint8_t { Bcast, Scatter, Compute, Gather, Finished };
  int process = -1;
  int rep = 0;                // the repetition under way (0-based)
  Phase phase = Phase::Bcast; // master: what comes next; worker: Bcast / Scatter = waiting for B / A
  // Received data, by repetition: a delivery may come before the process reaches the step that
  // uses it (a message-logging protocol replays a restarted process' logged deliveries at once,
  // while it redoes an earlier repetition), so it must not overwrite what that step reads.
  // Channels are FIFO: the k-th B, A or C message on a channel belongs to repetition k.
  std::map<int, std::uint64_t> b_by_rep; // worker: B of each repetition received and not yet used
  std::map<int, std::uint64_t> a_by_rep; // worker: its rows of A, likewise
  int b_received = 0;                    // worker: B messages received so far (one per repetition)
  int a_received = 0;                    // worker: A messages received so far
  std::vector<int> c_from;               // master: C messages received from each worker so far
  std::map<int, int> c_count;            // master: C messages received for each repetition
  std::map<int, std::uint64_t> c_sum;    // master: C rows of each repetition folded (order-independent)
  std::uint64_t result = 0;              // fold of every repetition's C (master) or of its own rows (worker)
};

class MasterWorkerWorkload : public Workload {
 public:
  /** @brief An InputError naming the application file when the federation cannot run it. */
  MasterWorkerWorkload(const Application& app, const FederationLayout& layout);
  AppStateValue initial_state(NodeId process, std::uint64_t seed) const override;
  std::optional<double> advance(AppState& state, NodeId self, std::vector<AppMessage>& sends) const override;
  void complete_step(AppState& state, NodeId self) const override;
  std::optional<AppPoint> next_point(const AppState& state, NodeId /*self*/) const override { return point(state); }
  void deliver(AppState& state, const AppMessage& msg) const override;
  std::uint64_t result_digest(const AppState& state) const override;
  double failure_free_work(NodeId process) const override;

  /** @brief The collective the process stands at (nullopt when computing or finished). */
  std::optional<AppPoint> point(const AppState& state) const;
  /** @brief Rows of C computed by @p process. */
  int rows(NodeId process) const;
  int processes() const { return processes_; }
  /** @brief The digest a failure-free run computes (for tests): result_digest of the master,
   *  xor those of the workers. */
  std::uint64_t expected_digest() const;

 private:
  std::uint64_t b_value(int rep) const;
  std::uint64_t a_value(int rep, int process) const;
  std::uint64_t c_value(int rep, int process, std::uint64_t b, std::uint64_t a) const;

  MasterWorkerSpec spec_;
  int processes_ = 0;
};

} // namespace ckptsim
