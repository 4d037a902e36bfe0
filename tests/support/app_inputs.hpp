/* Inputs the unit tests of the applications build without files: a one-cluster federation and a
 * stencil application, filled in as the loaders would. */
#pragma once

#include "sim/app/stencil/spec.hpp"
#include "sim/config/topology.hpp"
#include "sim/platform/layout.hpp"

#include <string>

namespace ckptsim::test_support {

/** One cluster "c0" of @p nodes nodes, the other fields at their defaults. */
inline Topology one_cluster(int nodes) {
  Topology t;
  ClusterSpec c;
  c.name = "c0";
  c.nodes = nodes;
  t.clusters.push_back(c);
  return t;
}

/** @p clusters clusters of @p nodes nodes each, named c0, c1...: node n is in c(n / nodes). */
inline Topology clusters_of(int clusters, int nodes) {
  Topology t;
  for (int c = 0; c < clusters; c++) {
    ClusterSpec spec;
    spec.name = "c" + std::to_string(c);
    spec.nodes = nodes;
    t.clusters.push_back(spec);
  }
  return t;
}

inline FederationLayout layout_of(int nodes) { return FederationLayout(one_cluster(nodes)); }

/** A Jacobi stencil of 0.25 s tasks. */
inline Application stencil_app(int dims, int width, int height, int iterations, bool reorder = false) {
  Application app;
  app.source = "app.json";
  app.kind = "stencil";
  app.spec = StencilSpec{
      .dims = dims, .width = width, .height = height, .iterations = iterations, .task_cost = 0.25, .reorder = reorder};
  return app;
}

} // namespace ckptsim::test_support
