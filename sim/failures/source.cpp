#include "sim/failures/source.hpp"

#include "sim/failures/replay.hpp"

namespace ckptsim {

std::unique_ptr<FailureSource> make_failure_source(const FailureSourceContext& context,
                                                   const std::vector<FailureEvent>& scripted) {
  if (!scripted.empty()) return std::make_unique<ReplayedFailures>(scripted, context.layout);
  return FailureSourceRegistry::instance().get(context.topology.failures.model).make(context);
}

} // namespace ckptsim
