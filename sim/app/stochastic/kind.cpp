/* The registration of the "stochastic" application (HC3I report section 5): its name, description and fields (for
 * `ckptsim list`), its parser and its Workload. */
#include "sim/app/kind.hpp"
#include "sim/app/stochastic/workload.hpp"

namespace ckptsim {

namespace {
const ApplicationKindRegistration stochastic_kind{{
    .name = "stochastic",
    .description = "HC3I report section 5: each process computes for drawn times and, after each step, sends to each "
                   "cluster with a given probability; it never waits for a message",
    .rank = 0,
    .fields = {{"total_time", "failure-free computation of every process; required"},
               {"clusters",
                "one entry per cluster of the topology: {\"cluster\": name, \"compute\": a duration (mean of "
                "an exponential) or a distribution, \"send\": {cluster: probability} (default none), "
                "\"message_size\": s (default the file's)}, or one entry {\"cluster\": \"*\", ..., \"send\": "
                "{\"same\": p, \"other\": q}} for every cluster not listed; required"},
               {"message_size", "size of every message; default 1KiB"},
               {"node_matrix", "N x N node-to-node send probabilities, replacing every \"send\"; default none"}},
    .parse = parse_stochastic,
    .make_workload = [](const Application& app,
                        const FederationLayout& layout) { return std::make_unique<StochasticWorkload>(app, layout); },
}};
} // namespace

} // namespace ckptsim
