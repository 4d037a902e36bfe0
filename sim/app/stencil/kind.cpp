/* The registration of the "stencil" application (Jacobi as a data-flow task graph): its name, description and fields
 * (for `ckptsim list`), its parser and its Workload. */
#include "sim/app/kind.hpp"
#include "sim/app/stencil/workload.hpp"

namespace ckptsim {

namespace {
const ApplicationKindRegistration stencil_kind{{
    .name = "stencil",
    .description = "Jacobi 1D / 2D as a data-flow task graph known to the protocols, block-partitioned over every node",
    .rank = 2,
    .fields = {{"dims", "1 or 2; required"},
               {"width", "cells per row; required"},
               {"height", "rows (dims 2 only); required with dims 2"},
               {"iterations", "steps, each computing a new version of every cell; required"},
               {"task_cost", "work of one cell-iteration (seconds at 1 Gf); required"},
               {"cell_size", "bytes of one cell's value (a message, a datum in a checkpoint); default 4KiB"},
               {"grid_columns",
                "dims 2: processes per row of the process grid; default the grid with the fewest cut edges"},
               {"schedule", "in-order or reorder (local reordering); default in-order"},
               {"task_descriptor_size", "bytes a checkpoint holds per task not executed yet; default 1KiB"}},
    .waits_for_messages = true,
    .parse = parse_stencil,
    .make_workload = [](const Application& app,
                        const FederationLayout& layout) { return std::make_unique<StencilWorkload>(app, layout); },
}};
} // namespace

} // namespace ckptsim
