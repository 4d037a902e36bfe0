/* The Run's side of the max-min precision (sim/engine/precision.hpp): the loads of the platform's
 * shared links, from the routes between a sample of its hosts, and the precision applied as
 * SimGrid's default, so that a user's --cfg (already parsed) wins. */
#include "sim/engine/precision.hpp"
#include "sim/engine/run.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <unordered_map>

namespace ckptsim {

namespace {
// Routes between at most this many hosts (spread evenly over the platform): 40,000 routes.
constexpr std::size_t kSampledHosts = 200;
} // namespace

void Run::plan_precision_for_run() {
  // The nodes, then the services (which talk to nodes only: two services may have no route).
  std::vector<sg4::Host*> hosts = platform_.hosts;
  const std::size_t nodes = hosts.size();
  if (platform_.controller) hosts.push_back(platform_.controller);
  hosts.insert(hosts.end(), platform_.servers.begin(), platform_.servers.end());
  std::vector<std::size_t> sample;
  const std::size_t stride = std::max<std::size_t>((hosts.size() + kSampledHosts - 1) / kSampledHosts, 1);
  for (std::size_t i = 0; i < hosts.size(); i += stride) sample.push_back(i);

  PrecisionRequest r;
  const auto n = static_cast<double>(hosts.size());
  const auto services = static_cast<double>(hosts.size() - nodes);
  r.pairs = n * (n - 1) - services * (services - 1);
  r.default_precision = simgrid::config::get_value<double>("maxmin/precision");
  if (!simgrid::config::is_default("maxmin/precision")) r.user = r.default_precision;
  r.aborted_at = inputs_.config.options.maxmin_aborted_at;
  if (r.user) { // used as given: nothing to estimate
    precision_ = plan_maxmin_precision(r);
    return;
  }
  const double weight_s = simgrid::config::get_value<double>("network/weight-S");
  const double latency_factor = simgrid::config::get_value<double>("network/latency-factor");
  std::unordered_map<const sg4::Link*, LinkLoad> loads;
  std::vector<sg4::Link*> links;
  for (const std::size_t a : sample)
    for (const std::size_t b : sample) {
      if (a == b || (a >= nodes && b >= nodes)) continue;
      links.clear();
      double latency = 0;
      try {
        hosts[a]->route_to(hosts[b], links, &latency);
      } catch (const std::exception&) {
        continue; // no route between these two: they never exchange a message
      }
      // SimGrid's penalty of a flow on this route (NetworkCm02Model::communicate).
      double penalty = latency * latency_factor;
      for (const auto* l : links) penalty += weight_s / l->get_bandwidth();
      if (!(penalty > 0)) continue; // a route that costs nothing: SimGrid gives it no usage to round
      r.sampled_pairs++;
      r.max_route_penalty = std::max(r.max_route_penalty, penalty);
      for (const auto* l : links) {
        if (l->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE) continue;
        LinkLoad& load = loads[l];
        load.flows++;
        load.usage += 1 / penalty;
      }
    }
  for (const auto& [link, load] : loads) r.links.push_back(load);
  precision_ = plan_maxmin_precision(r);
  if (!precision_.error.empty()) throw InputError("command line", "--cfg=maxmin/precision", precision_.error);
  if (precision_.chosen) simgrid::config::set_default<double>("maxmin/precision", precision_.precision);
}

nlohmann::ordered_json Run::precision_json() const {
  nlohmann::ordered_json j{{"value", precision_.precision},
                           {"rounding_estimate", precision_.needed},
                           {"from", precision_.chosen                                  ? "ckptsim"
                                    : !simgrid::config::is_default("maxmin/precision") ? "--cfg"
                                                                                       : "SimGrid's default"}};
  if (precision_.retried) j["after_abort_at"] = inputs_.config.options.maxmin_aborted_at;
  return j;
}

} // namespace ckptsim
