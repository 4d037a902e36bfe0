#include "sim/failures/weibull/weibull.hpp"

#include "sim/failures/renewal.hpp"

#include <cmath>

namespace ckptsim {

double weibull_scale(double mean, double k) { return mean / std::tgamma(1.0 + 1.0 / k); }

namespace {

std::any read_weibull(ObjectReader& r, bool chosen, const std::string& /*base_dir*/) {
  WeibullSettings s;
  if (auto* v = r.optional("shape")) {
    if (!chosen) r.where("shape").fail("\"shape\" is only meaningful with \"model\": \"weibull\"");
    s.shape = as_number(*v, r.where("shape"));
    if (!(s.shape > 0)) r.where("shape").fail("the Weibull shape must be greater than zero");
  }
  return s;
}

const FailureSourceRegistration weibull_source{{
    .name = "weibull",
    .description = "the federation fails at Weibull inter-arrival times of mean the topology's \"mtbf\", each "
                   "failure striking one node drawn uniformly",
    .rank = 1,
    .fields = {{"shape", "the Weibull shape k (> 0; k < 1: failures come in bursts); default 1"}},
    .read = read_weibull,
    .make =
        [](const FailureSourceContext& context) {
          const double mtbf = context.topology.mtbf;
          const double k = context.topology.failures.settings_as<WeibullSettings>().shape;
          return std::make_unique<RenewalFailures>(
              context, [k, scale = weibull_scale(mtbf, k)](Rng& rng) { return rng.weibull(k, scale); });
        },
    .mean_gap = [](const Topology& topology) { return topology.mtbf; },
}};

} // namespace
} // namespace ckptsim
