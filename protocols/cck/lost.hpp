/* CCK's restart analysis as plain functions (CCK thesis 4.3), apart from SimGrid, so that each
 * set is unit-tested on hand-built graphs. Failed processes restart from their last checkpoint,
 * the others keep their state and re-execute only what the failed ones need again:
 *   - the state (4.3.4: "the graph of the last checkpoint with the current execution state"):
 *     each task executed before the last committed checkpoint, since, or not yet; G^p, the
 *     checkpointed graph of p, is its tasks not executed before the checkpoint;
 *   - C_lost (C_perdues, Definition 6, 4.3.3): communications from a non-failed process to a
 *     failed one whose send was executed since the last checkpoint;
 *   - the communication-restricted graph of p (Definition 7, 4.3.4): vertices the communication
 *     tasks of G^p, an arc from a receive i to a send j when G^p has a path from i to j;
 *   - C_total (4.3.4): C_lost and every communication some communication of C_lost depends on
 *     transitively in the union of the restricted graphs (the thesis' figure 4.8: 2 depends on 4);
 *   - T^p, the tasks to re-execute (4.3.4): the sends of C_total^p (the communications of C_total
 *     that p sends) and every task of G^p they depend on;
 *   - 4.3.3 case 3: a failed process does not send again what a non-failed process already
 *     received and does not receive again;
 *   - reuse of data still in memory (4.4.2): a datum of a non-failed process still alive (a task
 *     not executed yet reads it) is not recomputed, so the dependencies that go through it are cut
 *     both in the restricted graphs and in T^p.
 * Local reordering (4.4.3) changes which tasks have run at a checkpoint, not these definitions:
 * see local_order() in graph.hpp. */
#pragma once

#include "protocols/cck/dataflow.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim::cck {

/** @brief Where a task stands at the restart analysis (after the restart's stop and flush). A
 *  receive task counts as executed once its message is delivered: a message delivered before a
 *  checkpoint is part of it. */
enum class TaskState : std::uint8_t {
  Pending,         // not executed (for a failed process: not before its failure)
  SinceCheckpoint, // executed after the last committed checkpoint
  BeforeCheckpoint // executed before it: not in the checkpointed graph G^p
};
/** @brief One state per task, indexed by TaskId. */
using TaskStates = std::vector<TaskState>;

/** @brief What makes @p states impossible, or nothing: every task's local predecessors have run
 *  before it (before the checkpoint if it has); a receive has run only if its send has; a send runs
 *  before the checkpoint iff its receive does (the wave flushed the channels, 4.2.4); after the
 *  flush a message is left unreceived only if its sender or its receiver failed. */
std::optional<std::string> state_inconsistency(const TaskGraph& g, const TaskStates& states,
                                               const std::vector<bool>& failed);

/** @brief Per datum: still in the memory of a non-failed process (4.4.2): an input or written by
 *  an executed task, and read by a task still pending (see live_data()). */
std::vector<bool> data_in_memory(const TaskGraph& g, const TaskStates& states, const std::vector<bool>& failed);

/** @brief C_lost (Definition 6), ascending. */
std::vector<Tag> lost_communications(const TaskGraph& g, const TaskStates& states, const std::vector<bool>& failed);

/** @brief The communication-restricted graph of one process (Definition 7), by tags. */
struct RestrictedGraph {
  int process = -1;
  std::vector<Tag> vertices;             // p's communications in G^p, ascending
  std::vector<std::pair<Tag, Tag>> arcs; // (received, sent): p sends the second only after receiving the first
};

/** @brief The restricted graph of @p p. With @p in_memory (per datum, empty: no reuse), a path
 *  through a datum still in memory does not count. */
RestrictedGraph restricted_graph(const TaskGraph& g, const TaskStates& states, int p,
                                 const std::vector<bool>& in_memory = {});

/** @brief C_total: @p lost and, transitively, the communications they depend on in the union of
 *  @p graphs (4.3.4), ascending. */
std::vector<Tag> total_communications(const std::vector<RestrictedGraph>& graphs, const std::vector<Tag>& lost);

/** @brief T^p (4.3.4): the sends of @p p among @p total and the tasks of G^p they depend on,
 *  ascending (a topological order). @p in_memory as for restricted_graph(). */
std::vector<TaskId> tasks_to_reexecute(const TaskGraph& g, const TaskStates& states, int p,
                                       const std::vector<Tag>& total, const std::vector<bool>& in_memory = {});

struct RestartOptions {
  bool reuse_memory = false; // 4.4.2
};

/** @brief Everything the CCK restart computes (4.3.4 steps 2 to 6). */
struct RestartPlan {
  std::vector<RestrictedGraph> restricted;  // per process: what the all-gather (step 3) carries
  std::vector<Tag> lost;                    // C_lost
  std::vector<Tag> total;                   // C_total
  std::vector<std::vector<Tag>> total_sent; // per process p: C_total^p, the communications of C_total p sends
  /** Per process, ascending: the executed tasks it runs again. A non-failed process: T^p. A
   *  failed process restarts its whole checkpointed graph; of it, the tasks it had executed
   *  before failing. */
  std::vector<std::vector<TaskId>> reexecute;
  /** From failed processes: communications a non-failed process already received and does not
   *  receive again (not in C_total); the failed sender must skip these sends (4.3.3). */
  std::vector<Tag> not_resent;
};

/** @brief The restart after the failure of the processes flagged in @p failed. Throws
 *  std::invalid_argument when state_inconsistency() finds something. */
RestartPlan plan_restart(const TaskGraph& g, const TaskStates& states, const std::vector<bool>& failed,
                         const RestartOptions& options = {});

/** @brief Per process, the executed tasks a global restart from the same checkpoint (the
 *  standard protocol, chapter 3) runs again: every task executed since the checkpoint. */
std::vector<std::vector<TaskId>> global_restart_reexecute(const TaskGraph& g, const TaskStates& states);

/** @brief What is wrong with the state @p plan rebuilds (Proposition 4), or nothing. The tasks
 *  to run are, on a failed process, its checkpointed graph, on the others their pending tasks and
 *  T^p; then every communication must be sent (skipping not_resent) exactly when its receive is
 *  to run, every datum a task to run reads must come from a task to run, the checkpoint, or (for
 *  a non-failed process) memory, and T^p holds only tasks executed since the checkpoint. */
std::optional<std::string> restart_inconsistency(const TaskGraph& g, const TaskStates& states,
                                                 const std::vector<bool>& failed, const RestartPlan& plan);

} // namespace ckptsim::cck
