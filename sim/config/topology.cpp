#include "sim/config/topology.hpp"

#include <fmt/format.h>
#include <fstream>
#include <set>

namespace ckptsim {

LinkSpec parse_link(const json& j, const Where& at) {
  ObjectReader r(j, at);
  LinkSpec link;
  link.latency = as_nonnegative_quantity(r.required("latency"), r.where("latency"), units::Kind::Duration);
  link.bandwidth = as_positive_quantity(r.required("bandwidth"), r.where("bandwidth"), units::Kind::Bandwidth);
  r.finish();
  return link;
}

int Topology::cluster_index(const std::string& name) const {
  for (std::size_t i = 0; i < clusters.size(); i++)
    if (clusters[i].name == name) return static_cast<int>(i);
  return -1;
}

const char* to_string(OverlapPolicy policy) {
  switch (policy) {
  case OverlapPolicy::Protocol:
    return "protocol";
  case OverlapPolicy::Allow:
    return "allow";
  case OverlapPolicy::Defer:
    return "defer";
  }
  return "?";
}

const char* to_string(RestartPlacement placement) { return placement == RestartPlacement::Shrink ? "shrink" : "spare"; }

} // namespace ckptsim
