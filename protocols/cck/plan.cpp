#include "protocols/cck/plan.hpp"

#include "protocols/cck/task_states.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim::cck {

void plan_restart_part(NodeContext& ctx, const DataflowApplication& wl, const PlanInputs& in, Replay& replay) {
  const TaskGraph& g = wl.graph();
  const NodeId self = ctx.self();
  std::vector<RestrictedGraph> graphs{in.own->graph};
  std::vector<Tag> lost = in.own->lost;
  std::vector<Tag> received_from_failed;
  for (const auto& [q, body] : *in.others) {
    graphs.push_back(body->graph);
    lost.insert(lost.end(), body->lost.begin(), body->lost.end());
    received_from_failed.insert(received_from_failed.end(), body->received_from_failed.begin(),
                                body->received_from_failed.end());
  }
  std::sort(lost.begin(), lost.end());
  const std::vector<Tag> total = total_communications(graphs, lost);
  const TaskStates states = own_task_states(wl, self, *in.checkpoint, ctx.app_state());
  std::size_t reexecuted = 0, global = 0;
  const bool self_failed = std::binary_search(in.failed.begin(), in.failed.end(), self);
  nlohmann::ordered_json entry{{"failure", in.epoch}, {"process", self}, {"failed", self_failed}};
  if (self_failed) {
    // It re-executes its whole checkpointed graph; of its sends, those a non-failed process
    // received are promised to the oracle, and sent again only when C_total needs them. The
    // others' GATHERs list what every failed process sent them: its own only.
    std::vector<Tag> mine;
    for (Tag t : received_from_failed)
      if (g.communication(t).from == self) mine.push_back(t);
    replay.promise(ctx, g, mine, total);
    entry["withheld"] = replay.withheld();
  } else {
    const std::vector<bool> memory = in.reuse ? data_in_own_memory(wl, self, states) : std::vector<bool>{};
    const std::vector<TaskId> redo = tasks_to_reexecute(g, states, self, total, memory);
    for (TaskId t : redo)
      if (g.task(t).kind == TaskKind::Compute) reexecuted++;
    replay.repeat(g, redo);
    for (TaskId t : g.tasks_of(self))
      if (states[t] == TaskState::SinceCheckpoint && g.task(t).kind == TaskKind::Compute) global++;
    if (!redo.empty()) {
      Snapshot s = ctx.snapshot({});
      wl.reset_tasks(*s.app, redo, *in.checkpoint);
      ctx.restore(s, fmt::format("cck partial restart: {} tasks to re-execute (failure {})", redo.size(), in.epoch));
    }
    Stats& st = ctx.stats();
    st.add("cck.reexecuted_tasks", static_cast<double>(reexecuted));
    st.add("cck.global_restart_tasks", static_cast<double>(global));
    entry["reexecuted"] = reexecuted;
    entry["global"] = global;
  }
  NodeId first = 0; // once per restart: the first non-failed process (the first, when all failed)
  while (first < ctx.layout().num_nodes() && std::binary_search(in.failed.begin(), in.failed.end(), first)) first++;
  if (first == ctx.layout().num_nodes()) first = 0;
  if (self == first) {
    ctx.stats().add("cck.restarts");
    ctx.stats().add("cck.c_lost", static_cast<double>(lost.size()));
    ctx.stats().add("cck.c_total", static_cast<double>(total.size()));
  }
  entry["c_lost"] = lost.size();
  entry["c_total"] = total.size();
  ctx.stats().record("cck.restart", entry);
  ctx.trace_event(1, "cck_plan", entry);
}

} // namespace ckptsim::cck
