#include "protocols/cck/task_states.hpp"

#include <set>

namespace ckptsim::cck {

std::vector<NodeId> senders_still_expected(const DataflowApplication& wl, NodeId self, const AppState& now) {
  const TaskGraph& g = wl.graph();
  std::set<NodeId> out;
  for (TaskId t : g.tasks_of(self)) {
    const Task& task = g.task(t);
    if (task.kind == TaskKind::Receive && !wl.executed(now, t)) out.insert(task.peer);
  }
  return {out.begin(), out.end()};
}

TaskStates own_task_states(const DataflowApplication& wl, NodeId self, const AppState& checkpoint,
                           const AppState& now) {
  const TaskGraph& g = wl.graph();
  TaskStates states(g.tasks().size(), TaskState::Pending);
  for (TaskId t : g.tasks_of(self)) {
    if (wl.executed(checkpoint, t))
      states[t] = TaskState::BeforeCheckpoint;
    else if (wl.executed(now, t))
      states[t] = TaskState::SinceCheckpoint;
  }
  return states;
}

std::vector<bool> data_in_own_memory(const DataflowApplication& wl, NodeId self, const TaskStates& states) {
  const TaskGraph& g = wl.graph();
  std::vector<bool> done(g.tasks().size(), false);
  for (TaskId t : g.tasks_of(self)) done[t] = states[t] != TaskState::Pending;
  std::vector<bool> in_memory(g.data().size(), false);
  for (DataId d : live_data(g, self, done)) in_memory[d] = true;
  return in_memory;
}

} // namespace ckptsim::cck
