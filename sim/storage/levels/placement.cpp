#include "sim/storage/levels/placement.hpp"

#include "sim/config/input_error.hpp"
#include "sim/failures/domains.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace ckptsim::levels {

std::string domain_scope(const Level& l, const Topology& topology) {
  std::set<std::string> declared;
  for (const auto& [scope, spec] : topology.domains) declared.insert(scope);
  for (const auto& c : topology.clusters)
    for (const auto& [scope, spec] : c.domains) declared.insert(scope);
  if (!l.domain.empty()) {
    if (!declared.count(l.domain))
      throw InputError(topology.source, l.path + "/domain",
                       fmt::format("no failure domains \"{}\" are declared (the topology's \"domains\" has: {})",
                                   l.domain, declared.empty() ? "none" : fmt::format("{}", fmt::join(declared, ", "))));
    return l.domain;
  }
  if (declared.size() > 1)
    throw InputError(topology.source, l.path,
                     fmt::format("the topology declares several failure-domain scopes ({}): name the one this level's "
                                 "copies are spread over with \"domain\"",
                                 fmt::join(declared, ", ")));
  return declared.empty() ? std::string() : *declared.begin();
}

namespace {

ClusterOrder order_cluster(const ClusterLayout& c, const std::vector<int>& domain_of) {
  // Buckets of the cluster's nodes by domain, in the order of their first node; a node in no
  // domain is a bucket of its own.
  std::vector<std::vector<NodeId>> buckets;
  std::vector<int> bucket_domain;
  std::vector<int> bucket_of_domain;
  for (int i = 0; i < c.size; i++) {
    const NodeId n = c.first + i;
    const int d = domain_of.empty() ? -1 : domain_of[static_cast<std::size_t>(n)];
    if (d < 0) {
      buckets.push_back({n});
      bucket_domain.push_back(-1);
      continue;
    }
    if (static_cast<std::size_t>(d) >= bucket_of_domain.size())
      bucket_of_domain.resize(static_cast<std::size_t>(d) + 1, -1);
    int& b = bucket_of_domain[static_cast<std::size_t>(d)];
    if (b < 0) {
      b = static_cast<int>(buckets.size());
      buckets.emplace_back();
      bucket_domain.push_back(d);
    }
    buckets[static_cast<std::size_t>(b)].push_back(n);
  }
  ClusterOrder o;
  o.position.assign(static_cast<std::size_t>(c.size), -1);
  std::size_t longest = 0;
  for (const auto& b : buckets) longest = std::max(longest, b.size());
  const bool domains = !domain_of.empty();
  for (std::size_t slot = 0; slot < longest; slot++)
    for (std::size_t b = 0; b < buckets.size(); b++) {
      if (slot >= buckets[b].size()) continue;
      const NodeId n = buckets[b][slot];
      o.position[static_cast<std::size_t>(n - c.first)] = static_cast<int>(o.order.size());
      o.order.push_back(n);
      o.domain.push_back(domains ? bucket_domain[b] : -1);
    }
  return o;
}

void make_groups(ClusterOrder& o, const Level& l, const ClusterLayout& cl) {
  const int n = static_cast<int>(o.order.size());
  for (int start = 0; start < n; start += l.group) {
    const int size = std::min(l.group, n - start);
    // A remainder too small to survive a loss joins the group before it.
    if (start > 0 && size <= l.parity) break;
    o.group_start.push_back(start);
  }
  o.group_of.assign(static_cast<std::size_t>(n), 0);
  for (std::size_t g = 0; g < o.group_start.size(); g++) {
    const int end = g + 1 < o.group_start.size() ? o.group_start[g + 1] : n;
    for (int p = o.group_start[g]; p < end; p++)
      o.group_of[static_cast<std::size_t>(o.order[static_cast<std::size_t>(p)] - cl.first)] = static_cast<int>(g);
  }
}

} // namespace

Placement::Placement(const Plan& plan, const Topology& topology, const FederationLayout& layout,
                     const std::vector<bool>& uses)
    : layout_(layout)
    , levels_(plan.levels) {
  by_level_.resize(plan.levels.size());
  for (std::size_t li = 0; li < plan.levels.size(); li++) {
    const Level& l = plan.levels[li];
    if (l.kind != Kind::Partner && l.kind != Kind::Xor && l.kind != Kind::Rs) continue;
    const std::string scope = domain_scope(l, topology);
    std::vector<int> domain_of;
    if (!scope.empty()) {
      domain_of.assign(static_cast<std::size_t>(layout.num_nodes()), -1);
      const auto domains = failure_domains(topology, layout, scope);
      for (std::size_t d = 0; d < domains.size(); d++)
        for (NodeId n : domains[d]) domain_of[static_cast<std::size_t>(n)] = static_cast<int>(d);
    }
    by_level_[li].resize(static_cast<std::size_t>(layout.num_clusters()));
    for (ClusterId c = 0; c < layout.num_clusters(); c++) {
      if (!uses[static_cast<std::size_t>(c)]) continue;
      const ClusterLayout& cl = layout.cluster(c);
      ClusterOrder o = order_cluster(cl, domain_of);
      if (l.kind == Kind::Partner) {
        if (cl.size < 2)
          throw InputError(topology.source, l.path,
                           fmt::format("cluster {} has one node: no partner for its checkpoints", cl.name));
        if (!domain_of.empty() &&
            std::all_of(o.domain.begin(), o.domain.end(), [&](int d) { return d == o.domain[0] && d >= 0; }))
          throw InputError(topology.source, l.path,
                           fmt::format("every node of cluster {} is in one \"{}\" domain: no partner in another domain",
                                       cl.name, scope));
      } else {
        if (cl.size <= l.parity)
          throw InputError(topology.source, l.path,
                           fmt::format("cluster {} has {} node(s): a {} group needs more than {} (its parity)", cl.name,
                                       cl.size, to_string(l.kind), l.parity));
        make_groups(o, l, cl);
      }
      by_level_[li][static_cast<std::size_t>(c)] = std::move(o);
    }
  }
}

const ClusterOrder& Placement::at(int level, NodeId node) const {
  return by_level_[static_cast<std::size_t>(level)][static_cast<std::size_t>(layout_.cluster_of(node))];
}

std::optional<NodeId> Placement::partner(int level, NodeId node) const {
  const ClusterOrder& o = at(level, node);
  const int n = static_cast<int>(o.order.size());
  if (n < 2) return std::nullopt;
  const int pos = o.position[static_cast<std::size_t>(node - layout_.cluster(layout_.cluster_of(node)).first)];
  const int mine = o.domain[static_cast<std::size_t>(pos)];
  // The distance-th next node of the order, then on to the first in another domain (the order
  // alternates domains while they last; the tail of the largest ones may not).
  const int distance = levels_[static_cast<std::size_t>(level)].distance;
  for (int step = 0; step < n - 1; step++) {
    const int p = (pos + distance + step) % n;
    if (p == pos) continue;
    const int d = o.domain[static_cast<std::size_t>(p)];
    if (mine < 0 || d != mine) return o.order[static_cast<std::size_t>(p)];
  }
  return std::nullopt;
}

std::vector<NodeId> Placement::group(int level, NodeId node) const {
  const ClusterOrder& o = at(level, node);
  const int g = o.group_of[static_cast<std::size_t>(node - layout_.cluster(layout_.cluster_of(node)).first)];
  const int start = o.group_start[static_cast<std::size_t>(g)];
  const int end = static_cast<std::size_t>(g) + 1 < o.group_start.size()
                      ? o.group_start[static_cast<std::size_t>(g) + 1]
                      : static_cast<int>(o.order.size());
  return {o.order.begin() + start, o.order.begin() + end};
}

int Placement::group_id(int level, NodeId node) const {
  const ClusterOrder& o = at(level, node);
  const int g = o.group_of[static_cast<std::size_t>(node - layout_.cluster(layout_.cluster_of(node)).first)];
  // The group's first member stands for it; levels apart by the node count.
  return level * layout_.num_nodes() + o.order[static_cast<std::size_t>(o.group_start[static_cast<std::size_t>(g)])];
}

} // namespace ckptsim::levels
