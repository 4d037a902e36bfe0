/* The "master-worker" kind's fields of the application file (docs/INPUTS.md). */
#include "sim/app/master_worker/spec.hpp"

#include <fmt/format.h>

namespace ckptsim {

void parse_master_worker(ObjectReader& r, Application& app, const Topology& topo) {
  MasterWorkerSpec& mw = app.spec.emplace<MasterWorkerSpec>();
  mw.matrix_size = static_cast<int>(as_integer(r.required("matrix_size"), r.where("matrix_size"), 1, 1'000'000));
  mw.repetitions = static_cast<int>(as_integer(r.required("repetitions"), r.where("repetitions"), 1, 100'000'000));
  mw.row_cost = as_positive_quantity(r.required("row_cost"), r.where("row_cost"), units::Kind::Duration);
  if (auto* v = r.optional("element_size"))
    mw.element_bytes = as_positive_quantity(*v, r.where("element_size"), units::Kind::Size);
  // With a platform XML the nodes are not known yet: the workload checks again once they are.
  int nodes = 0;
  for (const auto& c : topo.clusters) nodes += c.nodes;
  if (nodes == 1)
    r.where("kind").fail("a master-worker application needs a master and at least one worker: the topology has "
                         "one node");
  if (nodes > mw.matrix_size)
    r.where("matrix_size")
        .fail(fmt::format("{} rows cannot give each of the {} processes (every node of the federation) a row",
                          mw.matrix_size, nodes));
}

} // namespace ckptsim
