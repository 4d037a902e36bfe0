/* The "stencil" application (SPEC 2.2, CCK thesis chapter 5): Jacobi 1D or 2D as a data-flow
 * graph (dataflow::Jacobi: one compute task per cell and iteration, send / receive tasks with unique
 * tags for the values that cross a block border), block-partitioned over every node of the
 * federation (node p = process p). Each process runs its part of the graph like KAAPI does:
 *   - a task is ready when it has not run and every datum it reads is in memory;
 *   - advance() runs the ready send tasks at once (zero time: a message carrying the datum's
 *     value, seq = the communication's tag) and starts the first ready compute task in the local
 *     order (construction order, or local reordering, thesis 4.4.3), which is marked executed and
 *     writes its datum in complete_step(); receive tasks run when their message is delivered;
 *   - a datum leaves memory once every task reading it has run (results, read by nobody, stay);
 *   - values are 64-bit numbers: version 0 of cell c is mix_seed(c, 0x57e9c11), a compute task
 *     folds mix_seed over the values it reads (its own cell's, then its neighbours' in ascending
 *     cell order), so checksum() proves that a run, whatever its failures, computed the right data.
 * A checkpoint holds the data in memory and the descriptors of the tasks not executed yet
 * (state_bytes). Program-order points (next_point, kind "iteration"): point k is reached when
 * every compute task of iterations < k of the process is executed (tasks of later iterations may
 * have run already: the scheduler overlaps iterations). reset_tasks() is a data-flow operation on a
 * process' state: some of its executed tasks become pending again, their inputs taken from memory
 * or from a state saved earlier, so that the process re-executes them (what a protocol that rolls
 * back part of a process, not all of it, needs). The workload is a DataflowApplication
 * (Workload::dataflow()): the protocols that need the graph reach it there, not by this kind. */
#pragma once

#include "sim/app/dataflow/application.hpp"
#include "sim/app/dataflow/graph.hpp"
#include "sim/app/stencil/spec.hpp"
#include "sim/app/workload.hpp"

#include <set>
#include <unordered_map>

namespace ckptsim {

class StencilState : public AppState {
 public:
  std::unique_ptr<AppState> clone() const override { return std::make_unique<StencilState>(*this); }

  int process = -1; // the process (node) this state is of
  // Per task of this process by local index (position in graph().tasks_of(p)): 1 = executed.
  std::vector<std::uint8_t> done;
  // The data of this process in memory: value by datum id.
  std::unordered_map<dataflow::DataId, std::uint64_t> values;
  // The compute task of the step under way (kNoTask between steps).
  dataflow::TaskId current = dataflow::kNoTask;
  // Position in the local order (StencilWorkload::order) before which every task is done.
  std::size_t cursor = 0;

  // Scheduler bookkeeping, kept by StencilWorkload (do not edit): per local index, the data the
  // task reads that are not in memory; the ready send and compute tasks by local-order position.
  std::vector<std::uint8_t> missing;
  std::set<std::uint32_t> ready_sends;
  std::set<std::uint32_t> ready_computes;
};

class StencilWorkload : public Workload, public DataflowApplication {
 public:
  /** @brief Builds the Jacobi graph of @p app on the nodes of @p layout; an InputError (naming
   *  the application file) when they cannot be partitioned. */
  StencilWorkload(const Application& app, const FederationLayout& layout);
  AppStateValue initial_state(NodeId process, std::uint64_t seed) const override;
  std::optional<double> advance(AppState& state, NodeId self, std::vector<AppMessage>& sends) const override;
  void complete_step(AppState& state, NodeId self) const override;
  /** @brief Point k of kind "iteration": k = the lowest iteration (1..iterations) with a compute
   *  task of the process not executed yet, iterations + 1 when none is left. Searched from the
   *  last point announced on, so tasks made pending again (reset_tasks) never move it back. */
  std::optional<AppPoint> next_point(const AppState& state, NodeId self) const override;
  void deliver(AppState& state, const AppMessage& msg) const override;
  double state_bytes(const AppState& state) const override;
  std::uint64_t result_digest(const AppState& state) const override { return checksum(state); }
  double failure_free_work(NodeId process) const override;
  const DataflowApplication* dataflow() const override { return this; }

  const dataflow::Jacobi& jacobi() const { return jacobi_; }
  const dataflow::TaskGraph& graph() const override { return jacobi_.graph(); }
  /** @brief Position of @p t in graph().tasks_of(its process). */
  std::uint32_t local_index(dataflow::TaskId t) const { return local_index_.at(t); }
  /** @brief @p p's tasks in the order its scheduler prefers them (dataflow::local_order). */
  const std::vector<dataflow::TaskId>& order(int p) const { return order_.at(static_cast<std::size_t>(p)); }
  /** @brief @p t has run; @p t must be a task of the state's process. */
  bool executed(const AppState& s, dataflow::TaskId t) const override;
  /** @brief The receive task of communication @p tag has run (its message was delivered); @p s is
   *  the receiver's state. */
  bool received(const AppState& s, dataflow::Tag tag) const override;
  /** @brief Partial re-execution: marks @p tasks (of this process, each executed; a task not
   *  executed is skipped) pending again. Data they write are dropped from memory; data they read
   *  that are not written by one of them are taken from memory if present, else from
   *  @p checkpoint (a state of this process saved earlier that holds them; std::logic_error if
   *  it does not). work_done decreases by the cost of the compute tasks reset; finished becomes
   *  false; cursor moves back. A step under way (current) goes on, unless it reads a datum one of
   *  @p tasks writes: then it is abandoned (current cleared, step_remaining 0, work_done less
   *  the part of it done). */
  void reset_tasks(AppState& s, const std::vector<dataflow::TaskId>& tasks, const AppState& checkpoint) const override;
  /** @brief 48-bit checksum of the last iteration's values computed by this process (0 until
   *  finished): mix_seed folded over the final value of each of its cells, ascending, masked. */
  std::uint64_t checksum(const AppState& s) const;
  double task_cost() const { return spec_.task_cost; }
  /** @brief The value of version 0 of @p cell (an input of the graph). */
  static std::uint64_t initial_value(int cell);

 private:
  void execute(StencilState& s, dataflow::TaskId t) const;
  void store(StencilState& s, dataflow::DataId d, std::uint64_t value) const;
  void release_reads(StencilState& s, dataflow::TaskId t) const;
  void rebuild_schedule(StencilState& s) const;
  void advance_cursor(StencilState& s) const;
  std::uint64_t compute_value(const StencilState& s, dataflow::TaskId t) const;
  bool is_executed(const StencilState& s, dataflow::TaskId t) const { return s.done[local_index_[t]] != 0; }
  bool iteration_done(const StencilState& s, int iteration) const;

  StencilSpec spec_;
  dataflow::Jacobi jacobi_;
  std::vector<std::vector<dataflow::TaskId>> order_;   // per process: dataflow::local_order
  std::vector<std::uint32_t> local_index_;             // per task: position in tasks_of(its process)
  std::vector<std::uint32_t> order_pos_;               // per task: position in order_[its process]
  std::vector<std::vector<dataflow::DataId>> inputs_;  // per process: the data no task writes
  std::vector<std::vector<dataflow::DataId>> results_; // per process: the last version of its cells, ascending
  std::vector<std::size_t> computations_;              // per process
};

} // namespace ckptsim
