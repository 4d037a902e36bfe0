/* The registration of the "mpi-trace" application (an MPI program's time-independent trace from
 * SMPI, replayed): its name, description and fields (for `ckptsim list`), its parser and its
 * Workload. */
#include "sim/app/kind.hpp"
#include "sim/app/mpi_trace/workload.hpp"

namespace ckptsim {

namespace {
const ApplicationKindRegistration mpi_trace_kind{{
    .name = "mpi-trace",
    .description = "an MPI program's time-independent trace (smpirun -trace-ti), replayed: computations in flops at "
                   "the node's speed, point-to-point messages and collectives through the protocol",
    .rank = 4,
    .fields = {{"trace", "the index file smpirun -trace-ti writes (one file per rank) or one file holding every rank's "
                         "actions; relative to the application file; required"},
               {"placement", "\"linear\" (rank i on node i in platform order), \"round-robin\" (over the clusters) "
                             "or an array of node names (host name or global index) by rank; default \"linear\""},
               {"compute_scale", "multiplies every computation and sleep of the trace (the same communication pattern "
                                 "around longer computations); default 1"},
               {"sends",
                "\"rendezvous\" (as SMPI: a transfer starts once its receive is posted too, a send of "
                "64 KiB or more ends once delivered) or \"eager\" (every transfer starts at its send); default "
                "\"rendezvous\""}},
    .network_model = "SMPI",
    .waits_for_messages = true,
    .parse = parse_mpi_trace,
    .make_workload = [](const Application& app,
                        const FederationLayout& layout) { return std::make_unique<MpiTraceWorkload>(app, layout); },
}};
} // namespace

} // namespace ckptsim
