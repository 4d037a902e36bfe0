#include "sim/failures/replay.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

namespace ckptsim {

ReplayedFailures::ReplayedFailures(const std::vector<FailureEvent>& events, const FederationLayout& layout) {
  for (const auto& ev : events) {
    NodeId v = layout.resolve(ev.node);
    if (v < 0) {
      auto colon = ev.where.find(": ");
      throw InputError(
          ev.where.substr(0, colon), colon == std::string::npos ? "" : ev.where.substr(colon + 2),
          fmt::format("no node \"{}\" in the federation (host name or index below {})", ev.node, layout.num_nodes()));
    }
    events_.emplace_back(ev.date, v);
  }
}

std::optional<FailureArrival> ReplayedFailures::next() {
  if (next_ >= events_.size()) return std::nullopt;
  const auto& [date, victim] = events_[next_++];
  return FailureArrival{date, {victim}, std::nullopt};
}

} // namespace ckptsim
