/* The registration of the "scripted" application (the papers' worked examples): its name, description and fields (for
 * `ckptsim list`), its parser and its Workload. */
#include "sim/app/kind.hpp"
#include "sim/app/scripted/workload.hpp"

namespace ckptsim {

namespace {
const ApplicationKindRegistration scripted_kind{{
    .name = "scripted",
    .description =
        "an explicit list of computations and sends per node, and scripted failures (the papers' worked examples)",
    .rank = 1,
    .fields = {{"nodes", "node (host name or global index) -> array of actions: {\"compute\": d} or {\"send\": node, "
                         "\"size\": s (default 1KiB), \"label\": l}; required"},
               {"failures", "[{\"date\": d, \"node\": n}, ...] in date order, replacing the topology's failure model; "
                            "default none"},
               {"expected", "free-form expected outcome, read by tests, ignored by the simulator"}},
    .parse = parse_scripted,
    .make_workload = [](const Application& app,
                        const FederationLayout& layout) { return std::make_unique<ScriptedWorkload>(app, layout); },
}};
} // namespace

} // namespace ckptsim
