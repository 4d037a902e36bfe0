/* What a protocol that re-executes part of a process (cck, taskgraph) needs of a data-flow
 * application: its task graph and, on a process' state, which tasks have run and which
 * communications have arrived, and the undoing of executed tasks. An interface any application
 * kind may implement (the stencil kind does), reached through Workload::dataflow() without
 * naming the kind; protocols reach it through the contract (sim/protocol/dataflow.hpp). */
#pragma once

#include "sim/app/dataflow/graph.hpp"

#include <vector>

namespace ckptsim {

class AppState;

/** @brief A data-flow application: its processes run the tasks of a known graph. */
class DataflowApplication {
 public:
  virtual ~DataflowApplication() = default;
  /** @brief The partitioned task graph (process p runs graph().tasks_of(p)). */
  virtual const dataflow::TaskGraph& graph() const = 0;
  /** @brief @p t has run; @p t must be a task of the state's process. */
  virtual bool executed(const AppState& s, dataflow::TaskId t) const = 0;
  /** @brief The receive task of communication @p tag has run (its message was delivered); @p s is
   *  the receiver's state. */
  virtual bool received(const AppState& s, dataflow::Tag tag) const = 0;
  /** @brief Partial re-execution: marks @p tasks (of the state's process, each executed; a task
   *  not executed is skipped) pending again, so that the process runs them again. The data they
   *  read and no other of them writes come from memory if present, else from @p checkpoint (a
   *  state of the same process saved earlier that holds them; std::logic_error if it does not).
   *  The work of the compute tasks reset is no longer done and the process not finished. */
  virtual void reset_tasks(AppState& s, const std::vector<dataflow::TaskId>& tasks,
                           const AppState& checkpoint) const = 0;
};

} // namespace ckptsim
