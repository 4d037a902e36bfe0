/* The "stencil" kind's fields of the application file (docs/INPUTS.md), and the partition check
 * the parser and the workload share. */
#include "sim/app/stencil/spec.hpp"

#include <cmath>
#include <fmt/format.h>

namespace ckptsim {

namespace {
// The largest task graph a stencil may build (cells x iterations computations, plus about as many
// communication tasks): beyond, the graph alone needs gigabytes.
constexpr std::int64_t kMaxStencilComputations = 10'000'000;

} // namespace

void parse_stencil(ObjectReader& r, Application& app, const Topology& topo) {
  StencilSpec& st = app.spec.emplace<StencilSpec>();
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

} // namespace ckptsim
