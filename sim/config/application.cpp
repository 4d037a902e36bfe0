#include "sim/config/application.hpp"

#include "sim/app/kind.hpp"

#include <cmath>
#include <fmt/format.h>
#include <set>

namespace ckptsim {

namespace {

Distribution parse_distribution(const json& j, const Where& at) {
  Distribution d;
  if (j.is_number() || j.is_string()) { // shorthand: a mean, exponentially distributed
    d.mean = as_positive_quantity(j, at, units::Kind::Duration);
    return d;
  }
  ObjectReader r(j, at);
  auto kind = as_choice(r.required("distribution"), r.where("distribution"), {"exponential", "constant", "uniform"});
  if (kind == "uniform") {
    d.kind = Distribution::Kind::Uniform;
    d.min = as_nonnegative_quantity(r.required("min"), r.where("min"), units::Kind::Duration);
    d.max = as_positive_quantity(r.required("max"), r.where("max"), units::Kind::Duration);
    if (d.max <= d.min) r.where("max").fail("\"max\" must be greater than \"min\"");
    d.mean = (d.min + d.max) / 2;
  } else {
    d.kind = kind == "constant" ? Distribution::Kind::Constant : Distribution::Kind::Exponential;
    d.mean = as_positive_quantity(r.required("mean"), r.where("mean"), units::Kind::Duration);
  }
  r.finish();
  return d;
}

} // namespace

void parse_stochastic(ObjectReader& r, Application& app, const Topology& topo) {
  app.total_time = as_positive_quantity(r.required("total_time"), r.where("total_time"), units::Kind::Duration);
  double default_size = 1024;
  if (auto* v = r.optional("message_size"))
    default_size = as_nonnegative_quantity(*v, r.where("message_size"), units::Kind::Size);

  const json& clusters = r.required("clusters");
  Where cw = r.where("clusters");
  if (!clusters.is_array()) cw.fail("expected an array with one entry per cluster");
  const std::size_t n = topo.clusters.size();
  app.clusters.assign(n, StochasticCluster{});
  std::vector<bool> given(n, false);
  for (std::size_t i = 0; i < clusters.size(); i++) {
    ObjectReader c(clusters[i], cw / i);
    std::string name = as_string(c.required("cluster"), c.where("cluster"));
    int idx = topo.cluster_index(name);
    if (idx < 0)
      c.where("cluster").fail(fmt::format("no cluster named \"{}\" in the topology ({})", name, topo.source));
    if (given[idx]) c.where("cluster").fail(fmt::format("cluster \"{}\" is described twice", name));
    given[idx] = true;
    StochasticCluster& sc = app.clusters[idx];
    sc.cluster = name;
    sc.compute = parse_distribution(c.required("compute"), c.where("compute"));
    sc.message_size = default_size;
    if (auto* v = c.optional("message_size"))
      sc.message_size = as_nonnegative_quantity(*v, c.where("message_size"), units::Kind::Size);
    sc.send_probability.assign(n, 0.0);
    if (auto* v = c.optional("send")) {
      ObjectReader s(*v, c.where("send"));
      for (const auto& [dest, p] : v->items()) {
        if (is_documentation_key(dest)) continue;
        int d = topo.cluster_index(dest);
        if (d < 0) s.where(dest).fail(fmt::format("no cluster named \"{}\" in the topology ({})", dest, topo.source));
        sc.send_probability[d] = as_probability(*s.optional(dest), s.where(dest));
      }
      s.finish();
    }
    c.finish();
  }
  if (!topo.clusters.empty())
    for (std::size_t i = 0; i < n; i++)
      if (!given[i])
        cw.fail(fmt::format("cluster \"{}\" of the topology has no entry (every cluster needs one)",
                            topo.clusters[i].name));

  if (auto* v = r.optional("node_matrix")) {
    Where mw = r.where("node_matrix");
    std::size_t nodes = 0;
    for (const auto& c : topo.clusters) nodes += static_cast<std::size_t>(c.nodes);
    if (!v->is_array() || (nodes > 0 && v->size() != nodes))
      mw.fail(fmt::format("expected a {0} x {0} matrix (one row per node of the federation)", nodes));
    for (std::size_t i = 0; i < v->size(); i++) {
      const json& row = (*v)[i];
      if (!row.is_array() || row.size() != v->size())
        (mw / i).fail(fmt::format("row {} must hold {} probabilities", i, v->size()));
      app.node_matrix.emplace_back();
      for (std::size_t k = 0; k < row.size(); k++) app.node_matrix.back().push_back(as_probability(row[k], mw / i / k));
    }
  }
}

namespace {
std::string node_ref(const json& j, const Where& at) {
  if (j.is_number_integer()) return std::to_string(as_integer(j, at, 0, 100'000'000));
  if (j.is_string() && !j.get<std::string>().empty()) return j.get<std::string>();
  at.fail("expected a node: a host name such as \"c0-3\" or a global node index");
}

} // namespace

void parse_scripted(ObjectReader& r, Application& app, const Topology& /*topology*/) {
  const json& nodes = r.required("nodes");
  Where nw = r.where("nodes");
  if (!nodes.is_object()) nw.fail("expected an object mapping node names to their list of actions");
  for (const auto& [name, actions] : nodes.items()) {
    if (is_documentation_key(name)) continue;
    Where aw = nw / name;
    if (!actions.is_array())
      aw.fail("expected an array of actions ({\"compute\": d} or {\"send\": node, \"size\": s, \"label\": l})");
    ScriptedNode sn{name, aw.file() + ": " + aw.path(), {}};
    for (std::size_t i = 0; i < actions.size(); i++) {
      ObjectReader a(actions[i], aw / i);
      ScriptedAction act;
      act.where = (aw / i).file() + ": " + (aw / i).path();
      if (a.has("compute")) {
        act.kind = ScriptedAction::Kind::Compute;
        act.work = as_nonnegative_quantity(*a.optional("compute"), a.where("compute"), units::Kind::Duration);
      } else if (a.has("send")) {
        act.kind = ScriptedAction::Kind::Send;
        act.to = node_ref(*a.optional("send"), a.where("send"));
        act.size = 1024;
        if (auto* v = a.optional("size")) act.size = as_nonnegative_quantity(*v, a.where("size"), units::Kind::Size);
        if (auto* v = a.optional("label")) act.label = as_string(*v, a.where("label"));
      } else {
        (aw / i).fail("an action needs \"compute\" or \"send\"");
      }
      a.finish();
      sn.actions.push_back(std::move(act));
    }
    app.script.push_back(std::move(sn));
  }
  if (auto* v = r.optional("failures")) {
    Where fw = r.where("failures");
    if (!v->is_array()) fw.fail("expected an array of {\"date\": d, \"node\": n}");
    double previous = 0;
    for (std::size_t i = 0; i < v->size(); i++) {
      ObjectReader f((*v)[i], fw / i);
      FailureEvent ev;
      ev.date = as_nonnegative_quantity(f.required("date"), f.where("date"), units::Kind::Duration);
      if (ev.date < previous) f.where("date").fail("failures must be listed in non-decreasing date order");
      previous = ev.date;
      ev.node = node_ref(f.required("node"), f.where("node"));
      ev.where = (fw / i).file() + ": " + (fw / i).path();
      f.finish();
      app.scripted_failures.push_back(ev);
    }
  }
  r.optional("expected"); // free-form expectations of the scenario, read by tests, not by the simulator
}

namespace {
// The largest task graph a stencil may build (cells x iterations computations, plus about as many
// communication tasks): beyond, the graph alone needs gigabytes.
constexpr std::int64_t kMaxStencilComputations = 10'000'000;

} // namespace

void parse_stencil(ObjectReader& r, Application& app, const Topology& topo) {
  StencilSpec& st = app.stencil;
  st.dims = static_cast<int>(as_integer(r.required("dims"), r.where("dims"), 1, 2));
  st.width = static_cast<int>(as_integer(r.required("width"), r.where("width"), 1, 1'000'000));
  const json* height = r.optional("height");
  const json* columns = r.optional("grid_columns");
  if (st.dims == 1) {
    if (height) r.where("height").fail("\"height\" is for \"dims\": 2 only (Jacobi 1D is one row of \"width\" cells)");
    if (columns)
      r.where("grid_columns").fail("\"grid_columns\" is for \"dims\": 2 only (Jacobi 1D splits the row in blocks)");
    st.height = 1;
  } else {
    if (!height) r.where().fail("missing required field \"height\" (required with \"dims\": 2)");
    st.height = static_cast<int>(as_integer(*height, r.where("height"), 1, 1'000'000));
    if (columns) st.grid_columns = static_cast<int>(as_integer(*columns, r.where("grid_columns"), 1, 1'000'000));
  }
  st.iterations = static_cast<int>(as_integer(r.required("iterations"), r.where("iterations"), 1, 1'000'000));
  const std::int64_t computations = static_cast<std::int64_t>(st.width) * st.height * st.iterations;
  if (computations > kMaxStencilComputations)
    r.where("iterations")
        .fail(fmt::format("{} x {} cells x {} iterations make {} tasks; at most {} are supported", st.width, st.height,
                          st.iterations, computations, kMaxStencilComputations));
  st.task_cost = as_positive_quantity(r.required("task_cost"), r.where("task_cost"), units::Kind::Duration);
  if (auto* v = r.optional("cell_size"))
    st.cell_bytes =
        static_cast<std::uint64_t>(std::ceil(as_positive_quantity(*v, r.where("cell_size"), units::Kind::Size)));
  if (auto* v = r.optional("schedule"))
    st.reorder = as_choice(*v, r.where("schedule"), {"in-order", "reorder"}) == "reorder";
  if (auto* v = r.optional("task_descriptor_size"))
    st.task_descriptor_bytes = as_nonnegative_quantity(*v, r.where("task_descriptor_size"), units::Kind::Size);

  // With a platform XML the nodes are not known yet: the workload checks again once they are.
  int nodes = 0;
  for (const auto& c : topo.clusters) nodes += c.nodes;
  if (nodes > 0)
    if (auto problem = stencil_partition_problem(st, nodes)) r.where(problem->first).fail(problem->second);
}

void parse_master_worker(ObjectReader& r, Application& app, const Topology& topo) {
  MasterWorkerSpec& mw = app.master_worker;
  mw.matrix_size = static_cast<int>(as_integer(r.required("matrix_size"), r.where("matrix_size"), 1, 1'000'000));
  mw.repetitions = static_cast<int>(as_integer(r.required("repetitions"), r.where("repetitions"), 1, 100'000'000));
  mw.row_cost = as_positive_quantity(r.required("row_cost"), r.where("row_cost"), units::Kind::Duration);
  if (auto* v = r.optional("element_size"))
    mw.element_bytes = as_positive_quantity(*v, r.where("element_size"), units::Kind::Size);
  // With a platform XML the nodes are not known yet: the workload checks again once they are.
  int nodes = 0;
  for (const auto& c : topo.clusters) nodes += c.nodes;
  if (nodes == 1)
    r.where("kind").fail("a master-worker application needs a master and at least one worker: the topology has "
                         "one node");
  if (nodes > mw.matrix_size)
    r.where("matrix_size")
        .fail(fmt::format("{} rows cannot give each of the {} processes (every node of the federation) a row",
                          mw.matrix_size, nodes));
}

std::optional<std::pair<std::string, std::string>> stencil_partition_problem(const StencilSpec& st, int processes) {
  using Problem = std::pair<std::string, std::string>;
  const std::string who = fmt::format("{} processes (every node of the federation)", processes);
  if (st.dims == 1) {
    if (processes > st.width)
      return Problem{"width", fmt::format("{} need at least one cell each: \"width\" is {}", who, st.width)};
    return std::nullopt;
  }
  if (st.grid_columns > 0) {
    if (processes % st.grid_columns != 0)
      return Problem{"grid_columns", fmt::format("{} do not form rows of {}", who, st.grid_columns)};
    if (st.grid_columns > st.width)
      return Problem{"grid_columns", fmt::format("{} columns of processes leave empty blocks on a width of {} cells",
                                                 st.grid_columns, st.width)};
    if (processes / st.grid_columns > st.height)
      return Problem{"height", fmt::format("{} rows of {} processes leave empty blocks on a height of {} cells",
                                           processes / st.grid_columns, st.grid_columns, st.height)};
    return std::nullopt;
  }
  for (int gx = 1; gx <= processes; gx++)
    if (processes % gx == 0 && gx <= st.width && processes / gx <= st.height) return std::nullopt;
  return Problem{"width",
                 fmt::format("no grid of {} fits {} x {} cells without an empty block", who, st.width, st.height)};
}

Application parse_application(const json& doc, const std::string& file, const Topology& topology) {
  ObjectReader r(doc, Where(file));
  Application app;
  app.source = file;
  const ApplicationKindInfo& kind = ApplicationKindRegistry::instance().choose(r.required("kind"), r.where("kind"));
  app.kind = kind.name;
  if (auto* v = r.optional("deterministic")) app.deterministic = as_bool(*v, r.where("deterministic"));
  kind.parse(r, app, topology);
  r.finish();
  return app;
}

} // namespace ckptsim
