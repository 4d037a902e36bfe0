/* The "stencil" application: a process runs its part of the Jacobi data-flow graph. See
 * workload.hpp. The ready tasks are kept in two sets ordered by local-order position (sends,
 * computations) and a per-task count of the data each still waits for, so a step costs
 * O(log n) however long the process waits for messages. */
#include "sim/app/stencil/workload.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace ckptsim {

namespace {
using dataflow::DataId;
using dataflow::TaskId;
using dataflow::TaskKind;

constexpr std::uint64_t kChecksumMask = (std::uint64_t{1} << 48) - 1;

dataflow::Jacobi build_jacobi(const Application& app, const FederationLayout& layout) {
  const StencilSpec& st = app.spec_as<StencilSpec>();
  const int n = layout.num_nodes();
  if (n <= 0) throw InputError(app.source, "", "the federation has no node to run the stencil on");
  if (auto problem = stencil_partition_problem(st, n))
    throw InputError(app.source, "/" + problem->first, problem->second);
  try {
    return dataflow::Jacobi(dataflow::JacobiSpec{.dims = st.dims,
                                                 .width = st.width,
                                                 .height = st.height,
                                                 .iterations = st.iterations,
                                                 .processes = n,
                                                 .cell_bytes = st.cell_bytes,
                                                 .grid_columns = st.grid_columns});
  } catch (const std::invalid_argument& e) {
    throw InputError(app.source, "", e.what());
  }
}

StencilState& as_stencil(AppState& s) {
  auto* p = dynamic_cast<StencilState*>(&s);
  if (!p) throw std::invalid_argument("stencil: not the state of a stencil process");
  return *p;
}
const StencilState& as_stencil(const AppState& s) {
  auto* p = dynamic_cast<const StencilState*>(&s);
  if (!p) throw std::invalid_argument("stencil: not the state of a stencil process");
  return *p;
}
} // namespace

StencilWorkload::StencilWorkload(const Application& app, const FederationLayout& layout)
    : spec_(app.spec_as<StencilSpec>())
    , jacobi_(build_jacobi(app, layout)) {
  const dataflow::TaskGraph& g = graph();
  const auto processes = static_cast<std::size_t>(g.processes());
  order_.resize(processes);
  local_index_.assign(g.tasks().size(), 0);
  order_pos_.assign(g.tasks().size(), 0);
  inputs_.resize(processes);
  results_.resize(processes);
  computations_.assign(processes, 0);
  for (int p = 0; p < g.processes(); p++) {
    const auto& mine = g.tasks_of(p);
    for (std::size_t i = 0; i < mine.size(); i++) {
      local_index_[mine[i]] = static_cast<std::uint32_t>(i);
      if (g.task(mine[i]).kind == TaskKind::Compute) computations_[static_cast<std::size_t>(p)]++;
    }
    auto& order = order_[static_cast<std::size_t>(p)];
    order = dataflow::local_order(g, p, spec_.reorder);
    for (std::size_t i = 0; i < order.size(); i++) order_pos_[order[i]] = static_cast<std::uint32_t>(i);
  }
  for (DataId d = 0; d < g.data().size(); d++)
    if (g.datum(d).producer == dataflow::kNoTask) inputs_[static_cast<std::size_t>(g.datum(d).process)].push_back(d);
  for (int c = 0; c < jacobi_.cells(); c++)
    results_[static_cast<std::size_t>(jacobi_.owner(c))].push_back(jacobi_.value(c, spec_.iterations));
}

std::uint64_t StencilWorkload::initial_value(int cell) { return mix_seed(static_cast<std::uint64_t>(cell), 0x57e9c11); }

AppStateValue StencilWorkload::initial_state(NodeId process, std::uint64_t seed) const {
  auto s = std::make_unique<StencilState>();
  s->rng.reseed(mix_seed(seed, static_cast<std::uint64_t>(process), 0x57e9c11));
  s->process = process;
  s->done.assign(graph().tasks_of(process).size(), 0);
  for (DataId d : inputs_.at(static_cast<std::size_t>(process)))
    s->values.emplace(d, initial_value(graph().datum(d).cell));
  rebuild_schedule(*s);
  return AppStateValue(std::move(s));
}

std::uint64_t StencilWorkload::compute_value(const StencilState& s, TaskId t) const {
  std::uint64_t h = 0;
  for (DataId d : graph().task(t).reads) {
    auto it = s.values.find(d);
    if (it == s.values.end())
      throw std::logic_error(fmt::format("stencil: task {} of process {} runs without datum {}", t, s.process, d));
    h = mix_seed(h, it->second);
  }
  return h;
}

void StencilWorkload::store(StencilState& s, DataId d, std::uint64_t value) const {
  const dataflow::Data& datum = graph().datum(d);
  const bool wanted = datum.readers.empty() || std::any_of(datum.readers.begin(), datum.readers.end(),
                                                           [&](TaskId r) { return !is_executed(s, r); });
  if (!wanted) return;
  if (!s.values.insert_or_assign(d, value).second) return; // already there: its readers know
  for (TaskId r : datum.readers) {
    if (is_executed(s, r)) continue;
    auto& m = s.missing[local_index_[r]];
    if (m > 0 && --m == 0 && r != s.current) {
      const dataflow::Task& task = graph().task(r);
      if (task.kind == TaskKind::Send)
        s.ready_sends.insert(order_pos_[r]);
      else if (task.kind == TaskKind::Compute)
        s.ready_computes.insert(order_pos_[r]);
    }
  }
}

void StencilWorkload::release_reads(StencilState& s, TaskId t) const {
  for (DataId d : graph().task(t).reads) {
    const auto& readers = graph().datum(d).readers;
    if (std::all_of(readers.begin(), readers.end(), [&](TaskId r) { return is_executed(s, r); })) s.values.erase(d);
  }
}

void StencilWorkload::advance_cursor(StencilState& s) const {
  const auto& order = order_[static_cast<std::size_t>(s.process)];
  while (s.cursor < order.size() && s.done[local_index_[order[s.cursor]]]) s.cursor++;
}

void StencilWorkload::rebuild_schedule(StencilState& s) const {
  const auto& order = order_[static_cast<std::size_t>(s.process)];
  s.missing.assign(s.done.size(), 0);
  s.ready_sends.clear();
  s.ready_computes.clear();
  advance_cursor(s);
  for (std::size_t pos = s.cursor; pos < order.size(); pos++) {
    const TaskId t = order[pos];
    if (is_executed(s, t)) continue;
    const dataflow::Task& task = graph().task(t);
    std::size_t m = 0;
    for (DataId d : task.reads) m += s.values.count(d) ? 0 : 1;
    s.missing[local_index_[t]] = static_cast<std::uint8_t>(m);
    if (m > 0 || t == s.current) continue;
    if (task.kind == TaskKind::Send)
      s.ready_sends.insert(static_cast<std::uint32_t>(pos));
    else if (task.kind == TaskKind::Compute)
      s.ready_computes.insert(static_cast<std::uint32_t>(pos));
  }
}

void StencilWorkload::execute(StencilState& s, TaskId t) const {
  s.done[local_index_[t]] = 1;
  release_reads(s, t);
  advance_cursor(s);
}

std::optional<double> StencilWorkload::advance(AppState& base, NodeId self, std::vector<AppMessage>& sends) const {
  auto& s = as_stencil(base);
  // A step whose work is over but that nobody completed (a state saved at that very moment).
  if (s.current != dataflow::kNoTask) complete_step(s, self);
  const auto& order = order_[static_cast<std::size_t>(s.process)];
  while (!s.ready_sends.empty()) {
    const TaskId t = order[*s.ready_sends.begin()];
    s.ready_sends.erase(s.ready_sends.begin());
    const dataflow::Task& task = graph().task(t);
    const DataId source = task.reads.front();
    AppMessage m;
    m.src = self;
    m.dst = task.peer;
    m.seq = task.tag;
    m.digest = s.values.at(source);
    m.size = static_cast<double>(graph().datum(source).bytes);
    sends.push_back(m);
    execute(s, t);
  }
  if (!s.ready_computes.empty()) {
    s.current = order[*s.ready_computes.begin()];
    s.ready_computes.erase(s.ready_computes.begin());
    return spec_.task_cost;
  }
  if (s.cursor == order.size()) s.finished = true;
  return std::nullopt;
}

void StencilWorkload::complete_step(AppState& base, NodeId /*self*/) const {
  auto& s = as_stencil(base);
  if (s.current == dataflow::kNoTask) return;
  const TaskId t = s.current;
  const std::uint64_t value = compute_value(s, t);
  s.current = dataflow::kNoTask;
  s.done[local_index_[t]] = 1;
  for (DataId d : graph().task(t).writes) store(s, d, value);
  release_reads(s, t);
  advance_cursor(s);
}

bool StencilWorkload::iteration_done(const StencilState& s, int iteration) const {
  const dataflow::Block& b = jacobi_.block(s.process);
  const int width = jacobi_.spec().width;
  // Last cells first: the in-order schedule computes them last, so an iteration under way is
  // usually told at the first cell looked at.
  for (int y = b.y1 - 1; y >= b.y0; y--)
    for (int x = b.x1 - 1; x >= b.x0; x--)
      if (!is_executed(s, jacobi_.compute(y * width + x, iteration))) return false;
  return true;
}

std::optional<AppPoint> StencilWorkload::next_point(const AppState& base, NodeId /*self*/) const {
  const auto& s = as_stencil(base);
  // Iterations below the last point announced are done (points only move forward).
  auto k = std::max<std::uint64_t>(s.points_announced, 1);
  while (k <= static_cast<std::uint64_t>(spec_.iterations) && iteration_done(s, static_cast<int>(k))) k++;
  return AppPoint{"iteration", k};
}

void StencilWorkload::deliver(AppState& base, const AppMessage& msg) const {
  auto& s = as_stencil(base);
  if (msg.seq >= graph().communications().size())
    throw std::logic_error(fmt::format("stencil: message of tag {}: no such communication", msg.seq));
  const dataflow::Communication& c = graph().communication(static_cast<dataflow::Tag>(msg.seq));
  if (c.to != s.process)
    throw std::logic_error(
        fmt::format("stencil: message of tag {} (for process {}) delivered to process {}", msg.seq, c.to, s.process));
  if (is_executed(s, c.receive)) return; // a copy of a message already received (a re-execution re-sent it)
  s.delivered++;
  s.done[local_index_[c.receive]] = 1;
  store(s, c.target, msg.digest);
  advance_cursor(s);
}

double StencilWorkload::state_bytes(const AppState& base) const {
  const auto& s = as_stencil(base);
  double bytes = 0;
  for (const auto& [d, v] : s.values) bytes += static_cast<double>(graph().datum(d).bytes);
  const auto pending = static_cast<double>(std::count(s.done.begin(), s.done.end(), std::uint8_t{0}));
  return bytes + pending * spec_.task_descriptor_bytes;
}

double StencilWorkload::failure_free_work(NodeId process) const {
  return static_cast<double>(computations_.at(static_cast<std::size_t>(process))) * spec_.task_cost;
}

bool StencilWorkload::executed(const AppState& base, TaskId t) const {
  const auto& s = as_stencil(base);
  if (graph().task(t).process != s.process)
    throw std::invalid_argument(
        fmt::format("stencil: task {} is of process {}, not {}", t, graph().task(t).process, s.process));
  return is_executed(s, t);
}

bool StencilWorkload::received(const AppState& s, dataflow::Tag tag) const {
  return executed(s, graph().communication(tag).receive);
}

void StencilWorkload::reset_tasks(AppState& base, const std::vector<TaskId>& tasks, const AppState& checkpoint) const {
  auto& s = as_stencil(base);
  const auto& cp = as_stencil(checkpoint);
  const dataflow::TaskGraph& g = graph();
  if (cp.process != s.process)
    throw std::invalid_argument(
        fmt::format("stencil: checkpoint of process {} given to reset process {}", cp.process, s.process));
  std::vector<std::uint8_t> in_reset(s.done.size(), 0);
  std::vector<TaskId> reset;
  for (TaskId t : tasks) {
    if (g.task(t).process != s.process)
      throw std::invalid_argument(
          fmt::format("stencil: task {} is of process {}, not {}", t, g.task(t).process, s.process));
    const std::uint32_t li = local_index_[t];
    if (!s.done[li] || in_reset[li]) continue;
    in_reset[li] = 1;
    reset.push_back(t);
  }
  if (reset.empty()) return;
  auto resets = [&](DataId d) {
    const TaskId w = g.datum(d).producer;
    return w != dataflow::kNoTask && in_reset[local_index_[w]];
  };

  // What the tasks read and no reset task writes must be in memory or in the checkpoint: checked
  // before anything changes, so a refused reset leaves the state as it was.
  std::vector<std::pair<DataId, std::uint64_t>> restore;
  for (TaskId t : reset) {
    for (DataId d : g.task(t).reads) {
      if (resets(d) || s.values.count(d)) continue;
      auto it = cp.values.find(d);
      if (it == cp.values.end())
        throw std::logic_error(fmt::format("stencil: process {} re-executes task {}, which reads datum {} (cell {}, "
                                           "version {}): neither in memory nor in the checkpoint",
                                           s.process, t, d, g.datum(d).cell, g.datum(d).version));
      restore.emplace_back(d, it->second);
    }
  }

  if (s.current != dataflow::kNoTask) {
    const auto& reads = g.task(s.current).reads;
    if (std::any_of(reads.begin(), reads.end(), resets)) { // its inputs are to be recomputed
      s.work_done -= std::max(0.0, spec_.task_cost - s.step_remaining);
      s.step_remaining = 0;
      s.current = dataflow::kNoTask;
    }
  }
  std::size_t first = s.cursor;
  for (TaskId t : reset) {
    s.done[local_index_[t]] = 0;
    if (g.task(t).kind == TaskKind::Compute) s.work_done -= spec_.task_cost;
    // A receive made pending again is delivered again: not a delivery beyond the most this process
    // had (the watchdog's progress), as work redone is not.
    if (g.task(t).kind == TaskKind::Receive && s.delivered > 0) s.delivered--;
    first = std::min<std::size_t>(first, order_pos_[t]);
  }
  for (TaskId t : reset)
    for (DataId d : g.task(t).writes) s.values.erase(d);
  for (const auto& [d, value] : restore) s.values.emplace(d, value);
  s.finished = false;
  s.cursor = first;
  rebuild_schedule(s);
}

std::uint64_t StencilWorkload::checksum(const AppState& base) const {
  const auto& s = as_stencil(base);
  if (!s.finished) return 0;
  std::uint64_t h = 0;
  for (DataId d : results_.at(static_cast<std::size_t>(s.process))) h = mix_seed(h, s.values.at(d));
  return h & kChecksumMask;
}

} // namespace ckptsim
