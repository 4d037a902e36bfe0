/* The "mpi-trace" application: each rank of an MPI trace replays its program (program.hpp) on
 * the node its placement gives; nodes without a rank have nothing to do. A process' state is its
 * position in its program, the messages that arrived and are not consumed yet, and a digest of
 * what it received so far: all a value, so checkpoints copy it and rollbacks restore it like any
 * application state. A message's digest is derived from its sender's digest when it was sent, so
 * the final digests prove that a run, whatever its failures, received every message once with
 * the contents of a failure-free run. */
#pragma once

#include "sim/app/mpi_trace/spec.hpp"
#include "sim/app/workload.hpp"

namespace ckptsim {

class MpiTraceState : public AppState {
 public:
  std::unique_ptr<AppState> clone() const override { return std::make_unique<MpiTraceState>(*this); }

  std::uint32_t pc = 0;     // the next operation
  std::uint64_t digest = 0; // of the messages consumed so far, in program order
  // Messages arrived and not consumed by a wait yet: (receive index, message digest), by index.
  // (The sends a wait may wait for are in AppState::unfinished.)
  std::vector<std::pair<std::uint32_t, std::uint64_t>> arrived;
};

class MpiTraceWorkload : public Workload {
 public:
  /** @brief Places the trace's ranks on @p layout's nodes; an InputError naming the application
   *  file when they do not fit. */
  MpiTraceWorkload(const Application& app, const FederationLayout& layout);
  AppStateValue initial_state(NodeId process, std::uint64_t seed) const override;
  std::optional<double> advance(AppState& state, NodeId self, std::vector<AppMessage>& sends) const override;
  /** @brief The collective the process stands at, kind its action's name ("allreduce"...), numbered
   *  from 1 by collective in program order. advance() stops (a zero-work step) before the first
   *  operation of a collective not announced yet, so the process stands at each between two steps. */
  std::optional<AppPoint> next_point(const AppState& state, NodeId self) const override;
  void deliver(AppState& state, const AppMessage& msg) const override;
  bool rendezvous() const override { return rendezvous_; }
  /** @brief Whether the receiver's next operation is at or past the receive's Recv::posted_at,
   *  not computing the operation before it. */
  bool receive_posted(const AppState& receiver, const AppMessage& msg) const override;
  std::uint64_t result_digest(const AppState& state) const override;
  double failure_free_work(NodeId process) const override;

  int rank_of(NodeId node) const { return rank_of_[static_cast<std::size_t>(node)]; }
  NodeId node_of(int rank) const { return node_of_[static_cast<std::size_t>(rank)]; }
  const mpi::Program& program() const { return *program_; }

 private:
  void place(const MpiTraceSpec& spec, const FederationLayout& layout);
  static void arrive(MpiTraceState& s, std::uint32_t recv, std::uint64_t digest);
  /** @brief Send @p seq of the process is complete: its transfer ended (AppState::unfinished). */
  static bool sent(const MpiTraceState& s, std::uint64_t seq);

  std::shared_ptr<const mpi::Program> program_;
  std::vector<int> rank_of_;    // per node, -1: no rank
  std::vector<NodeId> node_of_; // per rank
  std::vector<double> speed_;   // per node: work per second of sleep (speed / 1 Gf)
  double scale_ = 1;            // MpiTraceSpec::compute_scale
  bool rendezvous_ = true;      // MpiTraceSpec::rendezvous
  // Per rank and receive: the operation that consumes it (the ops' count when none does), so a
  // message for a receive already consumed (a duplicate) is recognised.
  std::vector<std::vector<std::uint32_t>> consumer_;
};

} // namespace ckptsim
