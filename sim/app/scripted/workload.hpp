/* The "scripted" application: each node runs an explicit list of computations and sends, so a
 * paper's worked example (who sends what, when, to whom) is replayed exactly. Failures of the
 * script are injected by the failure trace. Nodes without a script have nothing to do. */
#pragma once

#include "sim/app/scripted/spec.hpp"
#include "sim/app/workload.hpp"

namespace ckptsim {

class ScriptedWorkload : public Workload {
 public:
  ScriptedWorkload(const Application& app, const FederationLayout& layout);
  AppStateValue initial_state(NodeId process, std::uint64_t seed) const override;
  std::optional<double> advance(AppState& state, NodeId self, std::vector<AppMessage>& sends) const override;
  double failure_free_work(NodeId process) const override;

 private:
  struct Action {
    bool compute;
    double work;
    NodeId to;
    double size;
    std::string label;
  };
  std::vector<std::vector<Action>> scripts_; // per node
};

} // namespace ckptsim
