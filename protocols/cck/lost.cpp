/* CCK's restart analysis (CCK thesis 4.3.3-4.3.5, 4.4.2): C_lost, the communication-restricted
 * graphs, C_total, the tasks to re-execute, and a check of the state they rebuild. See lost.hpp. */
#include "protocols/cck/lost.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>

namespace ckptsim::cck {

namespace {
std::size_t idx(int i) { return static_cast<std::size_t>(i); }
bool executed(TaskState s) { return s != TaskState::Pending; }
bool in_checkpointed_graph(TaskState s) { return s != TaskState::BeforeCheckpoint; }
std::string name(TaskState s) {
  switch (s) {
  case TaskState::Pending:
    return "pending";
  case TaskState::SinceCheckpoint:
    return "executed since the checkpoint";
  case TaskState::BeforeCheckpoint:
    return "executed before the checkpoint";
  }
  return "?";
}

void require_sizes(const TaskGraph& g, const TaskStates& states, const std::vector<bool>& failed) {
  if (states.size() != g.tasks().size())
    throw std::invalid_argument(fmt::format("cck: {} task states for {} tasks", states.size(), g.tasks().size()));
  if (failed.size() != idx(g.processes()))
    throw std::invalid_argument(fmt::format("cck: {} failure flags for {} processes", failed.size(), g.processes()));
}

/** The tasks of G^p that @p from depends on, @p from included, ascending: backwards through the
 *  data read, never into the tasks run before the checkpoint (their results are in it) nor, with
 *  reuse, through a datum still in memory. */
std::vector<TaskId> ancestors(const TaskGraph& g, const TaskStates& states, TaskId from,
                              const std::vector<bool>& in_memory, std::vector<char>& seen) {
  std::vector<TaskId> out{from}, stack{from};
  seen[from] = 1;
  while (!stack.empty()) {
    const TaskId t = stack.back();
    stack.pop_back();
    for (DataId d : g.task(t).reads) {
      if (!in_memory.empty() && in_memory[d]) continue;
      const TaskId w = g.datum(d).producer;
      if (w == kNoTask || seen[w] || !in_checkpointed_graph(states[w])) continue;
      seen[w] = 1;
      out.push_back(w);
      stack.push_back(w);
    }
  }
  for (TaskId t : out) seen[t] = 0;
  std::sort(out.begin(), out.end());
  return out;
}
} // namespace

std::optional<std::string> state_inconsistency(const TaskGraph& g, const TaskStates& states,
                                               const std::vector<bool>& failed) {
  require_sizes(g, states, failed);
  for (TaskId t = 0; t < g.tasks().size(); t++) {
    if (!executed(states[t])) continue;
    for (TaskId w : g.predecessors(t)) {
      if (!executed(states[w]))
        return fmt::format("task {} is {} but its predecessor {} is pending", t, name(states[t]), w);
      if (states[t] == TaskState::BeforeCheckpoint && states[w] != TaskState::BeforeCheckpoint)
        return fmt::format("task {} is {} but its predecessor {} is {}", t, name(states[t]), w, name(states[w]));
    }
  }
  for (const Communication& c : g.communications()) {
    const TaskState s = states[c.send], r = states[c.receive];
    if (executed(r) && !executed(s)) return fmt::format("communication {} is received but not sent", c.tag);
    if ((s == TaskState::BeforeCheckpoint) != (r == TaskState::BeforeCheckpoint))
      return fmt::format("communication {} crosses the checkpoint: send {}, receive {}", c.tag, name(s), name(r));
    if (executed(s) && !executed(r) && !failed[idx(c.from)] && !failed[idx(c.to)])
      return fmt::format("communication {} between non-failed processes is still in transit after the flush", c.tag);
  }
  return std::nullopt;
}

std::vector<bool> data_in_memory(const TaskGraph& g, const TaskStates& states, const std::vector<bool>& failed) {
  require_sizes(g, states, failed);
  std::vector<bool> done(states.size());
  for (std::size_t t = 0; t < states.size(); t++) done[t] = executed(states[t]);
  std::vector<bool> out(g.data().size(), false);
  for (int p = 0; p < g.processes(); p++) {
    if (failed[idx(p)]) continue;
    for (DataId d : live_data(g, p, done)) out[d] = true;
  }
  return out;
}

std::vector<Tag> lost_communications(const TaskGraph& g, const TaskStates& states, const std::vector<bool>& failed) {
  require_sizes(g, states, failed);
  std::vector<Tag> out;
  for (const Communication& c : g.communications())
    if (!failed[idx(c.from)] && failed[idx(c.to)] && states[c.send] == TaskState::SinceCheckpoint) out.push_back(c.tag);
  return out;
}

RestrictedGraph restricted_graph(const TaskGraph& g, const TaskStates& states, int p,
                                 const std::vector<bool>& in_memory) {
  RestrictedGraph out;
  out.process = p;
  std::vector<char> seen(g.tasks().size(), 0);
  for (TaskId t : g.tasks_of(p)) {
    const Task& task = g.task(t);
    if (task.kind == TaskKind::Compute || !in_checkpointed_graph(states.at(t))) continue;
    out.vertices.push_back(task.tag);
    if (task.kind != TaskKind::Send) continue;
    for (TaskId a : ancestors(g, states, t, in_memory, seen))
      if (g.task(a).kind == TaskKind::Receive) out.arcs.emplace_back(g.task(a).tag, task.tag);
  }
  std::sort(out.vertices.begin(), out.vertices.end());
  std::sort(out.arcs.begin(), out.arcs.end());
  return out;
}

std::vector<Tag> total_communications(const std::vector<RestrictedGraph>& graphs, const std::vector<Tag>& lost) {
  std::map<Tag, std::vector<Tag>> needs; // sent tag -> the tags its sender received before
  for (const auto& rg : graphs)
    for (const auto& [received, sent] : rg.arcs) needs[sent].push_back(received);
  std::vector<Tag> out(lost.begin(), lost.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  std::deque<Tag> todo(out.begin(), out.end());
  std::vector<Tag> found = out; // kept sorted for lookups
  while (!todo.empty()) {
    const Tag t = todo.front();
    todo.pop_front();
    const auto it = needs.find(t);
    if (it == needs.end()) continue;
    for (Tag r : it->second) {
      const auto pos = std::lower_bound(found.begin(), found.end(), r);
      if (pos != found.end() && *pos == r) continue;
      found.insert(pos, r);
      todo.push_back(r);
    }
  }
  return found;
}

std::vector<TaskId> tasks_to_reexecute(const TaskGraph& g, const TaskStates& states, int p,
                                       const std::vector<Tag>& total, const std::vector<bool>& in_memory) {
  std::vector<char> seen(g.tasks().size(), 0);
  std::vector<TaskId> out;
  for (Tag t : total) {
    const Communication& c = g.communication(t);
    if (c.from != p) continue;
    const auto a = ancestors(g, states, c.send, in_memory, seen);
    out.insert(out.end(), a.begin(), a.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

RestartPlan plan_restart(const TaskGraph& g, const TaskStates& states, const std::vector<bool>& failed,
                         const RestartOptions& options) {
  if (const auto why = state_inconsistency(g, states, failed)) throw std::invalid_argument("cck restart: " + *why);
  const std::vector<bool> memory = options.reuse_memory ? data_in_memory(g, states, failed) : std::vector<bool>{};
  RestartPlan plan;
  for (int p = 0; p < g.processes(); p++) plan.restricted.push_back(restricted_graph(g, states, p, memory));
  plan.lost = lost_communications(g, states, failed);
  plan.total = total_communications(plan.restricted, plan.lost);
  plan.total_sent.resize(idx(g.processes()));
  for (Tag t : plan.total) plan.total_sent[idx(g.communication(t).from)].push_back(t);
  for (int p = 0; p < g.processes(); p++) {
    if (!failed[idx(p)]) {
      plan.reexecute.push_back(tasks_to_reexecute(g, states, p, plan.total, memory));
      continue;
    }
    std::vector<TaskId> lost_work;
    for (TaskId t : g.tasks_of(p))
      if (states[t] == TaskState::SinceCheckpoint) lost_work.push_back(t);
    plan.reexecute.push_back(std::move(lost_work));
  }
  for (const Communication& c : g.communications()) {
    if (!failed[idx(c.from)] || failed[idx(c.to)] || !executed(states[c.receive])) continue;
    if (states[c.receive] == TaskState::BeforeCheckpoint) continue; // not in the sender's checkpointed graph
    if (!std::binary_search(plan.total.begin(), plan.total.end(), c.tag)) plan.not_resent.push_back(c.tag);
  }
  return plan;
}

std::vector<std::vector<TaskId>> global_restart_reexecute(const TaskGraph& g, const TaskStates& states) {
  std::vector<std::vector<TaskId>> out(idx(g.processes()));
  for (int p = 0; p < g.processes(); p++)
    for (TaskId t : g.tasks_of(p))
      if (states.at(t) == TaskState::SinceCheckpoint) out[idx(p)].push_back(t);
  return out;
}

std::optional<std::string> restart_inconsistency(const TaskGraph& g, const TaskStates& states,
                                                 const std::vector<bool>& failed, const RestartPlan& plan) {
  require_sizes(g, states, failed);
  if (plan.reexecute.size() != idx(g.processes())) return "the plan has no task list for every process";
  std::vector<char> run(g.tasks().size(), 0);
  for (int p = 0; p < g.processes(); p++) {
    for (TaskId t : g.tasks_of(p)) {
      if (failed[idx(p)] ? in_checkpointed_graph(states[t]) : states[t] == TaskState::Pending) run[t] = 1;
    }
    if (failed[idx(p)]) continue;
    for (TaskId t : plan.reexecute[idx(p)]) {
      if (g.task(t).process != p) return fmt::format("process {} re-executes task {} of another process", p, t);
      if (states[t] != TaskState::SinceCheckpoint)
        return fmt::format("process {} re-executes task {}, which is {}", p, t, name(states[t]));
      run[t] = 1;
    }
  }
  for (const Communication& c : g.communications()) {
    const bool skipped = std::find(plan.not_resent.begin(), plan.not_resent.end(), c.tag) != plan.not_resent.end();
    if (skipped && !failed[idx(c.from)])
      return fmt::format("communication {} is withheld but its sender {} did not fail", c.tag, c.from);
    const bool sent = run[c.send] && !skipped;
    if (sent && !run[c.receive])
      return fmt::format("communication {} is sent again but process {} does not receive it again", c.tag, c.to);
    if (!sent && run[c.receive])
      return fmt::format("process {} waits for communication {} that process {} does not send again", c.to, c.tag,
                         c.from);
  }
  const auto memory = data_in_memory(g, states, failed);
  for (TaskId t = 0; t < g.tasks().size(); t++) {
    if (!run[t]) continue;
    for (DataId d : g.task(t).reads) {
      const TaskId w = g.datum(d).producer;
      if (w == kNoTask || run[w] || states[w] == TaskState::BeforeCheckpoint || memory[d]) continue;
      return fmt::format("task {} of process {} reads datum {}, which is neither recomputed, checkpointed nor in "
                         "memory",
                         t, g.task(t).process, d);
    }
  }
  return std::nullopt;
}

} // namespace ckptsim::cck
