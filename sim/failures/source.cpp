#include "sim/failures/source.hpp"

#include "sim/app/rng.hpp"
#include "sim/failures/correlated.hpp"
#include "sim/failures/domains.hpp"
#include "sim/failures/replay.hpp"

namespace ckptsim {

std::unique_ptr<FailureSource> make_failure_source(const FailureSourceContext& context,
                                                   const std::vector<FailureEvent>& scripted) {
  if (!scripted.empty()) return std::make_unique<ReplayedFailures>(scripted, context.layout);
  const Topology& t = context.topology;
  std::unique_ptr<FailureSource> source = FailureSourceRegistry::instance().get(t.failures.model).make(context);
  // Streams of their own (mix_seed's second word): adding correlated failures leaves the node
  // source's failures as they were.
  if (t.failures.cascade)
    source = std::make_unique<CascadingFailures>(
        std::move(source), failure_domains(t, context.layout, t.failures.cascade->scope), context.layout.num_nodes(),
        *t.failures.cascade, mix_seed(context.seed, 0xca5cade, 0));
  if (t.failures.correlated.empty()) return source;
  std::vector<std::unique_ptr<FailureSource>> sources;
  sources.push_back(std::move(source));
  for (std::size_t i = 0; i < t.failures.correlated.size(); i++) {
    const auto& c = t.failures.correlated[i];
    sources.push_back(std::make_unique<CorrelatedFailures>(failure_domains(t, context.layout, c.scope), c,
                                                           mix_seed(context.seed, 0xc0a1e5ced, i)));
  }
  return std::make_unique<MergedFailures>(std::move(sources));
}

} // namespace ckptsim
