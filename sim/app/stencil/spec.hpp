/* The "stencil" application's part of the application file (CCK thesis 5.2.1): Jacobi 1D or 2D on
 * width x height cells for a number of iterations, block-partitioned over every node of the
 * federation. */
#pragma once

#include "sim/config/application.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace ckptsim {

struct StencilSpec {
  int dims = 1;
  int width = 0;
  int height = 1; // 1 in 1D
  int iterations = 0;
  double task_cost = 0;                // work of one cell-iteration, seconds at 1 Gf
  std::uint64_t cell_bytes = 4096;     // size of one cell's value (a datum, a message)
  int grid_columns = 0;                // 2D: processes per row of the process grid; 0: automatic
  bool reorder = false;                // "schedule": "reorder" (thesis 4.4.3) rather than "in-order"
  double task_descriptor_bytes = 1024; // checkpointed bytes per task not executed yet
};

/** @brief Why @p spec cannot be partitioned over @p processes processes (the JSON field to blame,
 *  the problem), or nullopt when it can (same rule as dataflow::Jacobi's block partition). */
std::optional<std::pair<std::string, std::string>> stencil_partition_problem(const StencilSpec& spec, int processes);

/** @brief Reads the kind's fields into app.spec (a StencilSpec). */
void parse_stencil(ObjectReader& doc, Application& app, const Topology& topology);

} // namespace ckptsim
