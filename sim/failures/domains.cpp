#include "sim/failures/domains.hpp"

#include "sim/config/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ckptsim {

namespace {

std::vector<NodeId> nodes_of(const ClusterLayout& c) {
  std::vector<NodeId> out(static_cast<std::size_t>(c.size));
  for (int i = 0; i < c.size; i++) out[i] = c.first + i;
  return out;
}

// The groups of a spec inside cluster @p c (consecutive groups) or anywhere (@p c < 0, explicit).
void add_domains(const DomainSpec& spec, const FederationLayout& layout, ClusterId c, const Topology& t,
                 const std::string& field, std::vector<std::vector<NodeId>>& out) {
  if (spec.size > 0) {
    const ClusterLayout& cl = layout.cluster(c);
    for (int from = 0; from < cl.size; from += spec.size) {
      out.emplace_back();
      for (int i = from; i < std::min(cl.size, from + spec.size); i++) out.back().push_back(cl.first + i);
    }
    return;
  }
  for (std::size_t g = 0; g < spec.groups.size(); g++) {
    out.emplace_back();
    for (std::size_t k = 0; k < spec.groups[g].size(); k++) {
      const std::string& name = spec.groups[g][k];
      const NodeId v = layout.resolve(name);
      if (v < 0 || layout.host_name(v) != name)
        throw InputError(t.source, fmt::format("{}/{}/{}", field, g, k),
                         fmt::format("no node \"{}\" in the federation", name));
      if (c >= 0 && layout.cluster_of(v) != c)
        throw InputError(t.source, fmt::format("{}/{}/{}", field, g, k),
                         fmt::format("node \"{}\" is not in cluster {}", name, layout.cluster(c).name));
      out.back().push_back(v);
    }
    std::sort(out.back().begin(), out.back().end());
  }
}

} // namespace

std::vector<std::vector<NodeId>> failure_domains(const Topology& t, const FederationLayout& layout,
                                                 const std::string& scope) {
  std::vector<std::vector<NodeId>> out;
  if (scope == "cluster" || (scope == "site" && t.sites.empty())) {
    for (ClusterId c = 0; c < layout.num_clusters(); c++) out.push_back(nodes_of(layout.cluster(c)));
    return out;
  }
  if (scope == "site") {
    for (const auto& [site, clusters] : t.sites) {
      out.emplace_back();
      for (const std::string& name : clusters) {
        ClusterId found = -1;
        for (ClusterId c = 0; c < layout.num_clusters(); c++)
          if (layout.cluster(c).name == name) found = c;
        if (found < 0)
          throw InputError(t.source, "/sites/" + site, fmt::format("no cluster \"{}\" in the federation", name));
        for (NodeId n : nodes_of(layout.cluster(found))) out.back().push_back(n);
      }
      std::sort(out.back().begin(), out.back().end());
    }
    return out;
  }
  const auto top = t.domains.find(scope);
  if (top != t.domains.end() && top->second.size == 0)
    add_domains(top->second, layout, -1, t, "/domains/" + scope, out);
  for (ClusterId c = 0; c < layout.num_clusters(); c++) {
    const ClusterSpec* own = nullptr;
    std::size_t index = 0;
    for (std::size_t i = 0; i < t.clusters.size(); i++)
      if (t.clusters[i].name == layout.cluster(c).name && t.clusters[i].domains.count(scope)) {
        own = &t.clusters[i];
        index = i;
      }
    if (own != nullptr)
      add_domains(own->domains.at(scope), layout, c, t, fmt::format("/clusters/{}/domains/{}", index, scope), out);
    else if (top != t.domains.end() && top->second.size > 0)
      add_domains(top->second, layout, c, t, "/domains/" + scope, out);
  }
  std::vector<int> seen(static_cast<std::size_t>(layout.num_nodes()), 0);
  for (const auto& d : out)
    for (NodeId n : d)
      if (seen[n]++ > 0)
        throw InputError(t.source, "/domains/" + scope,
                         fmt::format("node {} is in two \"{}\" domains", layout.host_name(n), scope));
  return out;
}

} // namespace ckptsim
