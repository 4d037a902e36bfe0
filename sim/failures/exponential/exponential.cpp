/* The "exponential" failure source, the default: the federation fails at rate 1 / MTBF
 * (memoryless inter-arrival times of mean the topology's "mtbf"), the victim uniform among the
 * nodes (HC3I report section 5.1). */
#include "sim/failures/renewal.hpp"

namespace ckptsim {
namespace {

const FailureSourceRegistration exponential_source{{
    .name = "exponential",
    .description = "the federation fails at exponential inter-arrival times of mean the topology's \"mtbf\", "
                   "each failure striking one node drawn uniformly (the default)",
    .rank = 0,
    .make =
        [](const FailureSourceContext& context) {
          const double mtbf = context.topology.mtbf;
          return std::make_unique<RenewalFailures>(context, [mtbf](Rng& rng) { return rng.exponential(mtbf); });
        },
    .mean_gap = [](const Topology& topology) { return topology.mtbf; },
}};

} // namespace
} // namespace ckptsim
