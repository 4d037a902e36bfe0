/* The registration of the "master-worker" application (the LAM/MPI paper's matrix product): its name, description and
 * fields (for `ckptsim list`), its parser and its Workload. */
#include "sim/app/kind.hpp"
#include "sim/app/master_worker/workload.hpp"

namespace ckptsim {

namespace {
const ApplicationKindRegistration master_worker_kind{{
    .name = "master-worker",
    .description =
        "LAM/MPI paper: C = A x B repeated, process 0 the master (bcast, scatter, compute, gather), collectives as "
        "program-order points",
    .rank = 3,
    .fields = {{"matrix_size", "n, at least one row per process; required"},
               {"repetitions", "R; required"},
               {"row_cost", "work of one row of C (seconds at 1 Gf); required"},
               {"element_size", "bytes of one matrix element on the wire; default 8"}},
    .waits_for_messages = true,
    .parse = parse_master_worker,
    .make_workload = [](const Application& app,
                        const FederationLayout& layout) { return std::make_unique<MasterWorkerWorkload>(app, layout); },
}};
} // namespace

} // namespace ckptsim
