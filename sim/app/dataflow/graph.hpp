/* The data-flow graph of an application (CCK thesis chapter 4), as a plain value apart from
 * SimGrid: the application layer's model of a data-flow application, which the protocols that
 * need the graph (cck, taskgraph) read:
 *   - Definition 5 (4.1.2): a bipartite DAG of tasks and data; a task reads and writes data, a
 *     datum has at most one writer (one node per data version), so a writer precedes every reader;
 *   - 4.1.4: after the static partition each task belongs to one process and a datum read on
 *     another process travels through a communication, a send task on the producer's process and
 *     a receive task on the reader's, identified by a unique tag (4.3.2: both ends on distinct
 *     processes);
 *   - 4.2.3 / 4.2.5: V_i, the processes P_i still expects data from (receive tasks left in its
 *     graph), and the wave's control message count 2N + 3 * sum(V_i);
 *   - 4.4.3: local reordering, a per-process order that runs the tasks leading to a send first;
 *   - 5.2.1 / SPEC 2.2: the Jacobi 1D and 2D graphs (one task per cell and iteration reading its
 *     own and its 2 or 4 side neighbours' previous values, block partition over the processes).
 * Task ids follow the order tasks were added, which is a topological order (a writer is always
 * added before the readers of what it writes). */
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace ckptsim::dataflow {

using TaskId = std::uint32_t;
using DataId = std::uint32_t;
/** @brief A communication's unique tag (4.1.4); tags are 0, 1, 2... in order of creation. */
using Tag = std::uint32_t;
inline constexpr TaskId kNoTask = std::numeric_limits<TaskId>::max();
inline constexpr Tag kNoTag = std::numeric_limits<Tag>::max();

enum class TaskKind : std::uint8_t { Compute, Send, Receive };

struct Task {
  TaskKind kind = TaskKind::Compute;
  int process = -1;
  std::vector<DataId> reads;
  std::vector<DataId> writes;
  Tag tag = kNoTag; // send and receive tasks: their communication
  int peer = -1;    // send: the receiving process; receive: the sending process
  int cell = -1;    // application labels (Jacobi: the cell and the iteration it computes or carries)
  int iteration = -1;
};

struct Data {
  int process = -1;
  std::uint64_t bytes = 0;
  TaskId producer = kNoTask; // kNoTask: an input of the graph
  std::vector<TaskId> readers;
  int cell = -1; // Jacobi: the cell and the version (iteration) of its value
  int version = -1;
};

/** @brief A send/receive pair (4.1.4): @c source on the sender is copied into @c target on the
 *  receiver. */
struct Communication {
  Tag tag = kNoTag;
  int from = -1;
  int to = -1;
  TaskId send = kNoTask;
  TaskId receive = kNoTask;
  DataId source = 0;
  DataId target = 0;
};

/** @brief The partitioned data-flow graph G = union of the G^p (Definition 5 extended with
 *  communication tasks, 4.1.4). Built by adding data, then the tasks that write and read them. */
class TaskGraph {
 public:
  explicit TaskGraph(int processes);

  /** @brief A new datum of @p process, not written yet (an input until a task writes it). */
  DataId add_data(int process, std::uint64_t bytes, int cell = -1, int version = -1);
  /** @brief A computation task of @p process. Every datum must be @p process's; a written datum
   *  must have neither a writer nor a reader yet (single assignment, ids stay topological). */
  TaskId add_compute(int process, const std::vector<DataId>& reads, const std::vector<DataId>& writes, int cell = -1,
                     int iteration = -1);
  /** @brief A communication of @p source to process @p to (another process than the source's):
   *  a send task reading @p source, a new datum on @p to (same size and labels) written by a
   *  receive task. Returns its tag. */
  Tag add_communication(DataId source, int to);

  int processes() const { return processes_; }
  const std::vector<Task>& tasks() const { return tasks_; }
  const Task& task(TaskId t) const { return tasks_.at(t); }
  const std::vector<Data>& data() const { return data_; }
  const Data& datum(DataId d) const { return data_.at(d); }
  const std::vector<Communication>& communications() const { return comms_; }
  const Communication& communication(Tag t) const { return comms_.at(t); }
  /** @brief The tasks of G^p, ascending (a topological order). */
  const std::vector<TaskId>& tasks_of(int p) const { return by_process_.at(static_cast<std::size_t>(p)); }
  /** @brief The writers of what @p t reads (same process), ascending, without repetition. */
  std::vector<TaskId> predecessors(TaskId t) const;
  /** @brief The readers of what @p t writes (same process), ascending, without repetition. */
  std::vector<TaskId> successors(TaskId t) const;

 private:
  TaskId push_task(Task task);

  int processes_;
  std::vector<Task> tasks_;
  std::vector<Data> data_;
  std::vector<Communication> comms_;
  std::vector<std::vector<TaskId>> by_process_;
};

/** @brief V_i as a set (4.2.3 step 2.1): the processes @p p has a receive task from that is not
 *  in @p executed (indexed by TaskId; empty: nothing executed, the whole graph), ascending. */
std::vector<int> expected_senders(const TaskGraph& g, int p, const std::vector<bool>& executed = {});
/** @brief V_i = |expected_senders(i)| for every process (4.2.5). */
std::vector<int> neighbour_counts(const TaskGraph& g, const std::vector<bool>& executed = {});

/** @brief @p p's tasks in the order its scheduler prefers them when several are ready: a
 *  topological order of G^p. Without @p reorder, the order of construction; with it (local
 *  reordering, 4.4.3) the ready task that leads to the earliest send (in construction order) goes
 *  first, tasks leading to no send last, ties in construction order. Receive tasks count as
 *  ready here: at run time a receive waits for its message. */
std::vector<TaskId> local_order(const TaskGraph& g, int p, bool reorder);

/** @brief The data of @p p live with the progress @p executed: inputs or written by an executed
 *  task, and read by a task not executed yet or by no task at all (a result). A checkpoint holds
 *  the remaining graph and exactly these data (4.2.1); KAAPI frees a datum once all its readers
 *  ran, so they are also the data still in memory (4.4.2). Ascending. */
std::vector<DataId> live_data(const TaskGraph& g, int p, const std::vector<bool>& executed = {});

/** @brief A Jacobi instance (thesis 5.2.1, SPEC 2.2): @c width x @c height cells (@c height 1
 *  and @c dims 1 for Jacobi 1D), @c iterations steps, block partition over @c processes. */
struct JacobiSpec {
  int dims = 1;
  int width = 0;
  int height = 1;
  int iterations = 0;
  int processes = 0;
  std::uint64_t cell_bytes = 4096;
  /** 2D: processes per row of the process grid; 0 chooses the grid with the fewest cut edges
   *  among the factorizations with non-empty blocks (32 x 64 on 32 processes: 4 x 8 blocks of 8x8). */
  int grid_columns = 0;
};

/** @brief The cells [x0, x1) x [y0, y1) of one process. */
struct Block {
  int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
};

/** @brief A built Jacobi graph with the indices a stencil application needs. Cell c = y * width
 *  + x; its value of version k (k = 0: the initial value, an input) is written by compute(c, k),
 *  k = 1..iterations, which reads version k-1 of c and of its side neighbours (2 in 1D, 4 in 2D,
 *  fewer on the domain's border); a neighbour on another process arrives by a communication of
 *  its version k-1, one per (cell, version, receiving process). Construction order, per version
 *  k = 0..iterations-1: every process's sends of version k, then the receives, then the
 *  computations of version k+1 in cell order. */
class Jacobi {
 public:
  explicit Jacobi(const JacobiSpec& spec);

  const JacobiSpec& spec() const { return spec_; }
  const TaskGraph& graph() const { return graph_; }
  int grid_columns() const { return grid_x_; }
  int grid_rows() const { return grid_y_; }
  const Block& block(int p) const { return blocks_.at(static_cast<std::size_t>(p)); }
  int owner(int cell) const;
  int cells() const { return spec_.width * spec_.height; }
  /** @brief The side neighbours of @p cell in the domain, ascending. */
  std::vector<int> cell_neighbours(int cell) const;
  /** @brief The task computing version @p iteration (1..iterations) of @p cell. */
  TaskId compute(int cell, int iteration) const;
  /** @brief Version @p version (0..iterations) of @p cell on its owner. */
  DataId value(int cell, int version) const;
  /** @brief The communication of version @p version of @p cell to process @p to, if there is one. */
  std::optional<Tag> communication(int cell, int version, int to) const;

 private:
  void partition();

  JacobiSpec spec_;
  TaskGraph graph_;
  int grid_x_ = 1, grid_y_ = 1;
  std::vector<Block> blocks_;
  std::vector<int> owner_;
  std::vector<TaskId> compute_;                              // [(k-1) * cells + c]
  std::vector<DataId> value_;                                // [k * cells + c]
  std::vector<std::vector<std::pair<int, Tag>>> comm_index_; // [k * cells + c]: (receiving process, tag)
};

} // namespace ckptsim::dataflow
