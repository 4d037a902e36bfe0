/* The failure kinds advise plans for: the node source's events (a synthetic source's mean gap, or
 * a failure log's events over their span) and each correlated source's, each recovered from the
 * first level that survives its scope. */
#include "sim/cli/advise/advise.hpp"
#include "sim/failures/source.hpp"
#include "sim/platform/layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace ckptsim::cli::advise {

namespace {

int first_surviving(const std::vector<AdvisedLevel>& levels, const std::string& scope) {
  for (std::size_t i = 0; i < levels.size(); i++)
    for (const std::string& s : levels[i].survives)
      if (s == "*" || s == scope) return static_cast<int>(i);
  return -1;
}

// A failure log's events, by what they struck, over the span of their dates.
void log_kinds(const Topology& topology, const FailureSourceInfo& info, std::vector<FailureKind>& out) {
  const FederationLayout layout(topology);
  auto source = info.make({topology, layout, 1});
  std::map<std::string, int> events;
  double last = 0;
  for (int n = 0; n < 1'000'000; n++) {
    auto e = source->next();
    if (!e) break;
    last = e->date;
    std::string scope = "node";
    if (e->victims.size() > 1) {
      scope = "nodes";
      const ClusterId c = layout.cluster_of(e->victims.front());
      if (static_cast<int>(e->victims.size()) == layout.cluster(c).size &&
          std::all_of(e->victims.begin(), e->victims.end(), [&](NodeId v) { return layout.cluster_of(v) == c; }))
        scope = "cluster";
    }
    events[scope]++;
  }
  for (const auto& [scope, n] : events)
    out.push_back({scope, last > 0 ? n / last : 0.0, -1,
                   fmt::format("{} event(s) of the {} log over {:.0f} s", n, info.name, last)});
}

} // namespace

std::vector<FailureKind> failure_kinds(const Topology& topology, const std::vector<AdvisedLevel>& levels) {
  std::vector<FailureKind> out;
  const FailureSourceInfo& info = FailureSourceRegistry::instance().get(topology.failures.model);
  if (info.mean_gap) {
    const double gap = info.mean_gap(topology);
    if (std::isfinite(gap) && gap > 0)
      out.push_back({"node", 1 / gap, -1, fmt::format("{} failures, federation MTBF {:.0f} s", info.name, gap)});
  } else if (info.name != "none") {
    log_kinds(topology, info, out);
  }
  for (const auto& c : topology.failures.correlated)
    out.push_back({c.scope, 1 / c.mtbf, -1, fmt::format("correlated {} outages, MTBF {:.0f} s", c.scope, c.mtbf)});
  for (auto& k : out) k.level = first_surviving(levels, k.scope);
  return out;
}

} // namespace ckptsim::cli::advise
