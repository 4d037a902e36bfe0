/* The data-flow graph (CCK thesis 4.1.2, 4.1.4), V_i and the wave count (4.2.3, 4.2.5), local
 * reordering (4.4.3) and the Jacobi builders (5.2.1, SPEC 2.2). See graph.hpp. */
#include "sim/app/dataflow/graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>

namespace ckptsim::dataflow {

namespace {
void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("cck graph: " + what);
}
std::size_t idx(int i) { return static_cast<std::size_t>(i); }
} // namespace

TaskGraph::TaskGraph(int processes)
    : processes_(processes) {
  require(processes > 0, "at least one process");
  by_process_.resize(idx(processes));
}

DataId TaskGraph::add_data(int process, std::uint64_t bytes, int cell, int version) {
  require(process >= 0 && process < processes_, fmt::format("no process {}", process));
  data_.push_back({process, bytes, kNoTask, {}, cell, version});
  return static_cast<DataId>(data_.size() - 1);
}

TaskId TaskGraph::push_task(Task task) {
  const auto id = static_cast<TaskId>(tasks_.size());
  for (DataId d : task.reads) {
    require(d < data_.size() && data_[d].process == task.process,
            fmt::format("task of process {} reads datum {} of another process", task.process, d));
  }
  for (DataId d : task.writes) {
    require(d < data_.size() && data_[d].process == task.process,
            fmt::format("task of process {} writes datum {} of another process", task.process, d));
    require(data_[d].producer == kNoTask && data_[d].readers.empty(),
            fmt::format("datum {} is already written or read: one writer, before its readers", d));
  }
  for (DataId d : task.reads) {
    auto& r = data_[d].readers;
    if (r.empty() || r.back() != id) r.push_back(id);
  }
  for (DataId d : task.writes) data_[d].producer = id;
  by_process_[idx(task.process)].push_back(id);
  tasks_.push_back(std::move(task));
  return id;
}

TaskId TaskGraph::add_compute(int process, const std::vector<DataId>& reads, const std::vector<DataId>& writes,
                              int cell, int iteration) {
  require(process >= 0 && process < processes_, fmt::format("no process {}", process));
  Task t;
  t.kind = TaskKind::Compute;
  t.process = process;
  t.reads = reads;
  t.writes = writes;
  t.cell = cell;
  t.iteration = iteration;
  return push_task(std::move(t));
}

Tag TaskGraph::add_communication(DataId source, int to) {
  require(source < data_.size(), fmt::format("no datum {}", source));
  require(to >= 0 && to < processes_, fmt::format("no process {}", to));
  const Data src = data_[source];
  require(src.process != to, "a communication joins two distinct processes (4.3.2)");
  const auto tag = static_cast<Tag>(comms_.size());
  const DataId target = add_data(to, src.bytes, src.cell, src.version);
  Task send;
  send.kind = TaskKind::Send;
  send.process = src.process;
  send.reads = {source};
  send.tag = tag;
  send.peer = to;
  send.cell = src.cell;
  send.iteration = src.version;
  Task receive = send;
  receive.kind = TaskKind::Receive;
  receive.process = to;
  receive.reads.clear();
  receive.writes = {target};
  receive.peer = src.process;
  const TaskId s = push_task(std::move(send));
  const TaskId r = push_task(std::move(receive));
  comms_.push_back({tag, src.process, to, s, r, source, target});
  return tag;
}

std::vector<TaskId> TaskGraph::predecessors(TaskId t) const {
  std::vector<TaskId> out;
  for (DataId d : task(t).reads)
    if (data_[d].producer != kNoTask) out.push_back(data_[d].producer);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<TaskId> TaskGraph::successors(TaskId t) const {
  std::vector<TaskId> out;
  for (DataId d : task(t).writes) out.insert(out.end(), data_[d].readers.begin(), data_[d].readers.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> expected_senders(const TaskGraph& g, int p, const std::vector<bool>& executed) {
  std::vector<int> out;
  for (TaskId t : g.tasks_of(p)) {
    const Task& task = g.task(t);
    if (task.kind == TaskKind::Receive && (executed.empty() || !executed.at(t))) out.push_back(task.peer);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> neighbour_counts(const TaskGraph& g, const std::vector<bool>& executed) {
  std::vector<int> v;
  for (int p = 0; p < g.processes(); p++) v.push_back(static_cast<int>(expected_senders(g, p, executed).size()));
  return v;
}

std::vector<TaskId> local_order(const TaskGraph& g, int p, bool reorder) {
  const auto& mine = g.tasks_of(p);
  if (!reorder) return mine;
  // key[t]: the first send (in construction order) reachable from t inside G^p. Ids are
  // topological, so successors are settled when t is visited in descending order.
  constexpr TaskId kNone = kNoTask;
  std::vector<TaskId> key(g.tasks().size(), kNone);
  for (auto it = mine.rbegin(); it != mine.rend(); ++it) {
    TaskId k = g.task(*it).kind == TaskKind::Send ? *it : kNone;
    for (TaskId s : g.successors(*it)) k = std::min(k, key[s]);
    key[*it] = k;
  }
  std::vector<int> missing(g.tasks().size(), 0);
  using Entry = std::pair<TaskId, TaskId>; // (key, id): smallest first
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
  for (TaskId t : mine) {
    missing[t] = static_cast<int>(g.predecessors(t).size());
    if (missing[t] == 0) ready.push({key[t], t});
  }
  std::vector<TaskId> order;
  order.reserve(mine.size());
  while (!ready.empty()) {
    const TaskId t = ready.top().second;
    ready.pop();
    order.push_back(t);
    for (TaskId s : g.successors(t))
      if (--missing[s] == 0) ready.push({key[s], s});
  }
  return order;
}

std::vector<DataId> live_data(const TaskGraph& g, int p, const std::vector<bool>& executed) {
  auto done = [&](TaskId t) { return !executed.empty() && executed.at(t); };
  std::vector<DataId> out;
  for (DataId d = 0; d < g.data().size(); d++) {
    const Data& data = g.datum(d);
    if (data.process != p) continue;
    if (data.producer != kNoTask && !done(data.producer)) continue;
    const bool wanted = data.readers.empty() ||
                        std::any_of(data.readers.begin(), data.readers.end(), [&](TaskId r) { return !done(r); });
    if (wanted) out.push_back(d);
  }
  return out;
}

// ---- Jacobi -----------------------------------------------------------------------------------

namespace {
/** Bounds of part @p i of @p n cells split in @p parts blocks, the first n % parts one larger. */
std::pair<int, int> split(int n, int parts, int i) {
  const int base = n / parts, extra = n % parts;
  const int lo = i * base + std::min(i, extra);
  return {lo, lo + base + (i < extra ? 1 : 0)};
}
} // namespace

Jacobi::Jacobi(const JacobiSpec& spec)
    : spec_(spec)
    , graph_(spec.processes > 0 ? spec.processes : 1) {
  require(spec.dims == 1 || spec.dims == 2, "Jacobi is 1D or 2D");
  require(spec.width > 0 && spec.height > 0, "the domain has at least one cell");
  require(spec.dims == 2 || spec.height == 1, "Jacobi 1D has height 1");
  require(spec.iterations >= 1, "at least one iteration");
  require(spec.processes > 0, "at least one process");
  partition();

  const int n = cells();
  const int iters = spec.iterations;
  for (int c = 0; c < n; c++) value_.push_back(graph_.add_data(owner(c), spec.cell_bytes, c, 0));
  value_.resize(idx((iters + 1) * n));
  compute_.resize(idx(iters * n));
  std::vector<std::vector<std::pair<int, Tag>>> sent(idx(iters * n)); // [k * n + c]: (to, tag)
  std::vector<std::vector<int>> readers(idx(n));                      // processes reading c besides its owner
  for (int c = 0; c < n; c++) {
    for (int m : cell_neighbours(c))
      if (owner(m) != owner(c)) readers[idx(c)].push_back(owner(m));
    auto& r = readers[idx(c)];
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }

  for (int k = 0; k < iters; k++) {
    // Sends (and their receives) of version k, process by process, cells ascending.
    std::vector<std::pair<int, int>> order; // (owner, cell)
    for (int c = 0; c < n; c++)
      if (!readers[idx(c)].empty()) order.emplace_back(owner(c), c);
    std::sort(order.begin(), order.end());
    for (const auto& [p, c] : order)
      for (int to : readers[idx(c)]) sent[idx(k * n + c)].emplace_back(to, graph_.add_communication(value(c, k), to));
    // Computations of version k + 1.
    for (int c = 0; c < n; c++) {
      const int p = owner(c);
      std::vector<DataId> reads{value(c, k)};
      for (int m : cell_neighbours(c)) {
        if (owner(m) == p) {
          reads.push_back(value(m, k));
          continue;
        }
        for (const auto& [to, tag] : sent[idx(k * n + m)])
          if (to == p) reads.push_back(graph_.communication(tag).target);
      }
      const DataId out = graph_.add_data(p, spec.cell_bytes, c, k + 1);
      value_[idx((k + 1) * n + c)] = out;
      compute_[idx(k * n + c)] = graph_.add_compute(p, reads, {out}, c, k + 1);
    }
  }
  comm_index_ = std::move(sent);
}

void Jacobi::partition() {
  const int w = spec_.width, h = spec_.height, np = spec_.processes;
  if (spec_.dims == 1) {
    grid_x_ = np;
    grid_y_ = 1;
  } else if (spec_.grid_columns > 0) {
    require(np % spec_.grid_columns == 0, "grid_columns divides the number of processes");
    grid_x_ = spec_.grid_columns;
    grid_y_ = np / grid_x_;
  } else {
    long best = -1;
    for (int gx = 1; gx <= np; gx++) {
      if (np % gx != 0) continue;
      const int gy = np / gx;
      if (gx > w || gy > h) continue;
      const long cut = static_cast<long>(gx - 1) * h + static_cast<long>(gy - 1) * w;
      if (best < 0 || cut < best) {
        best = cut;
        grid_x_ = gx;
        grid_y_ = gy;
      }
    }
    require(best >= 0, fmt::format("no process grid of {} processes fits {} x {} cells", np, w, h));
  }
  require(grid_x_ <= w && grid_y_ <= h,
          fmt::format("{} x {} processes leave empty blocks on {} x {} cells", grid_x_, grid_y_, w, h));
  owner_.assign(idx(w * h), -1);
  for (int gy = 0; gy < grid_y_; gy++) {
    for (int gx = 0; gx < grid_x_; gx++) {
      const auto [x0, x1] = split(w, grid_x_, gx);
      const auto [y0, y1] = split(h, grid_y_, gy);
      const int p = gy * grid_x_ + gx;
      blocks_.push_back({x0, x1, y0, y1});
      for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) owner_[idx(y * w + x)] = p;
    }
  }
}

int Jacobi::owner(int cell) const { return owner_.at(idx(cell)); }

std::vector<int> Jacobi::cell_neighbours(int cell) const {
  const int w = spec_.width, h = spec_.height;
  const int x = cell % w, y = cell / w;
  std::vector<int> out;
  if (y > 0) out.push_back(cell - w);
  if (x > 0) out.push_back(cell - 1);
  if (x + 1 < w) out.push_back(cell + 1);
  if (y + 1 < h) out.push_back(cell + w);
  return out;
}

TaskId Jacobi::compute(int cell, int iteration) const {
  require(iteration >= 1 && iteration <= spec_.iterations, fmt::format("no iteration {}", iteration));
  return compute_.at(idx((iteration - 1) * cells() + cell));
}

DataId Jacobi::value(int cell, int version) const {
  require(version >= 0 && version <= spec_.iterations, fmt::format("no version {}", version));
  return value_.at(idx(version * cells() + cell));
}

std::optional<Tag> Jacobi::communication(int cell, int version, int to) const {
  if (version < 0 || version >= spec_.iterations) return std::nullopt;
  for (const auto& [p, tag] : comm_index_.at(idx(version * cells() + cell)))
    if (p == to) return tag;
  return std::nullopt;
}

} // namespace ckptsim::dataflow
