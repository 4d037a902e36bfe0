/* The "stochastic" kind's fields of the application file (docs/INPUTS.md). */
#include "sim/app/stochastic/spec.hpp"

#include <fmt/format.h>

#include <optional>

namespace ckptsim {

namespace {

constexpr const char* kEveryOtherCluster = "*";

// The "*" entry's send: {"same": p, "other": q}, kept as {p, q} until it is spread over clusters.
std::vector<double> parse_same_other(const json& j, const Where& at) {
  ObjectReader r(j, at);
  double same = 0;
  double other = 0;
  if (auto* v = r.optional("same")) same = as_probability(*v, r.where("same"));
  if (auto* v = r.optional("other")) other = as_probability(*v, r.where("other"));
  r.finish();
  if (same + other > 1)
    at.fail(fmt::format("\"same\" + \"other\" = {} is above 1: they are the probabilities to send to one's own "
                        "cluster and to any other cluster after a step",
                        same + other));
  return {same, other};
}

// The "*" entry made explicit for cluster @p self: probability "same" toward its own cluster, and
// "other" spread over the other clusters in proportion to their nodes, so that every node of another
// cluster is as likely as any to receive (other / their number of nodes, after each step).
StochasticCluster for_unlisted_cluster(const StochasticCluster& others, std::size_t self, const Topology& topo) {
  StochasticCluster sc = others;
  sc.cluster = topo.clusters[self].name;
  const double same = others.send_probability.empty() ? 0 : others.send_probability[0];
  const double other = others.send_probability.empty() ? 0 : others.send_probability[1];
  double other_nodes = 0;
  for (std::size_t d = 0; d < topo.clusters.size(); d++)
    if (d != self) other_nodes += topo.clusters[d].nodes;
  sc.send_probability.assign(topo.clusters.size(), 0.0);
  for (std::size_t d = 0; d < topo.clusters.size(); d++)
    sc.send_probability[d] = d == self ? same : other_nodes > 0 ? other * topo.clusters[d].nodes / other_nodes : 0;
  return sc;
}

} // namespace

void parse_stochastic(ObjectReader& r, Application& app, const Topology& topo) {
  StochasticSpec& st = app.spec.emplace<StochasticSpec>();
  st.total_time = as_positive_quantity(r.required("total_time"), r.where("total_time"), units::Kind::Duration);
  double default_size = 1024;
  if (auto* v = r.optional("message_size"))
    default_size = as_nonnegative_quantity(*v, r.where("message_size"), units::Kind::Size);

  const json& clusters = r.required("clusters");
  Where cw = r.where("clusters");
  if (!clusters.is_array()) cw.fail("expected an array with one entry per cluster (or a \"*\" entry for the others)");
  const std::size_t n = topo.clusters.size();
  st.clusters.assign(n, StochasticCluster{});
  std::vector<bool> given(n, false);
  std::optional<StochasticCluster> others; // the "*" entry, with its send as {same, other}
  for (std::size_t i = 0; i < clusters.size(); i++) {
    ObjectReader c(clusters[i], cw / i);
    std::string name = as_string(c.required("cluster"), c.where("cluster"));
    StochasticCluster sc;
    sc.cluster = name;
    // A step's computation: a bare duration is a mean, drawn exponentially (HC3I report section 5).
    sc.compute = parse_distribution(c.required("compute"), c.where("compute"), Distribution::Kind::Exponential, false);
    sc.message_size = default_size;
    if (auto* v = c.optional("message_size"))
      sc.message_size = as_nonnegative_quantity(*v, c.where("message_size"), units::Kind::Size);
    if (name == kEveryOtherCluster) {
      if (others) c.where("cluster").fail("\"*\" is given twice (one entry serves every cluster not listed)");
      if (auto* v = c.optional("send")) sc.send_probability = parse_same_other(*v, c.where("send"));
      c.finish();
      others = sc;
      continue;
    }
    int idx = topo.cluster_index(name);
    if (idx < 0)
      c.where("cluster").fail(fmt::format("no cluster named \"{}\" in the topology ({})", name, topo.source));
    if (given[idx]) c.where("cluster").fail(fmt::format("cluster \"{}\" is described twice", name));
    given[idx] = true;
    sc.send_probability.assign(n, 0.0);
    if (auto* v = c.optional("send")) {
      ObjectReader s(*v, c.where("send"));
      for (const auto& [dest, p] : v->items()) {
        if (is_documentation_key(dest)) continue;
        int d = topo.cluster_index(dest);
        if (d < 0 && (dest == "same" || dest == "other"))
          s.where(dest).fail("\"same\" and \"other\" belong to the \"*\" entry; a listed cluster names its "
                             "destination clusters");
        if (d < 0) s.where(dest).fail(fmt::format("no cluster named \"{}\" in the topology ({})", dest, topo.source));
        sc.send_probability[d] = as_probability(*s.optional(dest), s.where(dest));
      }
      s.finish();
    }
    c.finish();
    st.clusters[idx] = sc;
  }
  for (std::size_t i = 0; i < n; i++) {
    if (given[i]) continue;
    if (!others)
      cw.fail(fmt::format("cluster \"{}\" of the topology has no entry (every cluster needs one, or give a "
                          "\"*\" entry for those not listed)",
                          topo.clusters[i].name));
    st.clusters[i] = for_unlisted_cluster(*others, i, topo);
  }

  if (auto* v = r.optional("node_matrix")) {
    Where mw = r.where("node_matrix");
    std::size_t nodes = 0;
    for (const auto& c : topo.clusters) nodes += static_cast<std::size_t>(c.nodes);
    if (!v->is_array() || (nodes > 0 && v->size() != nodes))
      mw.fail(fmt::format("expected a {0} x {0} matrix (one row per node of the federation)", nodes));
    for (std::size_t i = 0; i < v->size(); i++) {
      const json& row = (*v)[i];
      if (!row.is_array() || row.size() != v->size())
        (mw / i).fail(fmt::format("row {} must hold {} probabilities", i, v->size()));
      st.node_matrix.emplace_back();
      for (std::size_t k = 0; k < row.size(); k++) st.node_matrix.back().push_back(as_probability(row[k], mw / i / k));
    }
  }
}

} // namespace ckptsim
