#include "sim/failures/failure_process.hpp"

#include "sim/config/input_error.hpp"

#include <cmath>
#include <fmt/format.h>

namespace ckptsim {

FailureProcess::FailureProcess(const Topology& topology, const FederationLayout& layout, std::uint64_t seed,
                               const std::vector<FailureEvent>& trace_override)
    : model_(topology.failures.model)
    , mtbf_(topology.mtbf)
    , shape_(topology.failures.weibull_shape)
    , nodes_(layout.num_nodes())
    , rng_(mix_seed(seed, 0xfa11u, 0x1d)) {
  const auto& events = trace_override.empty() ? topology.failures.trace : trace_override;
  if (!trace_override.empty()) model_ = FailureModel::Trace;
  if (model_ == FailureModel::Trace) {
    for (const auto& ev : events) {
      NodeId v = layout.resolve(ev.node);
      if (v < 0) {
        auto colon = ev.where.find(": ");
        throw InputError(
            ev.where.substr(0, colon), colon == std::string::npos ? "" : ev.where.substr(colon + 2),
            fmt::format("no node \"{}\" in the federation (host name or index below {})", ev.node, layout.num_nodes()));
      }
      trace_.push_back({ev.date, v});
    }
  }
}

double FailureProcess::weibull_scale(double mean, double k) { return mean / std::tgamma(1.0 + 1.0 / k); }

std::optional<FailureArrival> FailureProcess::next() {
  switch (model_) {
  case FailureModel::None:
    return std::nullopt;
  case FailureModel::Trace:
    if (next_trace_ >= trace_.size()) return std::nullopt;
    return trace_[next_trace_++];
  case FailureModel::Exponential:
  case FailureModel::Weibull:
    break;
  }
  if (std::isinf(mtbf_) || nodes_ == 0) return std::nullopt;
  double gap = model_ == FailureModel::Exponential ? rng_.exponential(mtbf_)
                                                   : rng_.weibull(shape_, weibull_scale(mtbf_, shape_));
  clock_ += gap;
  auto victim = static_cast<NodeId>(rng_.below(static_cast<std::uint64_t>(nodes_)));
  return FailureArrival{clock_, victim};
}

} // namespace ckptsim
