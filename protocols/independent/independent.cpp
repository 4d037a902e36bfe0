/* Protocol "independent" (SPEC 3.5): uncoordinated checkpointing. Every checkpoint unit (a
 * process, or a cluster taking an intra-cluster coordinated checkpoint) checkpoints on its own
 * timer; messages between units carry the sender's epoch and interval; a recovery manager
 * computes the recovery line from the dependency information when a node fails (the domino
 * effect may take units back to their initial states) and a periodic garbage collector removes
 * the checkpoints that no recovery line can use any more. Lost messages are re-sent from the
 * senders' logs. Stable storage "servers" by default; one failure at a time. */
#include "protocols/independent/manager.hpp"
#include "protocols/independent/process.hpp"
#include "sim/protocol/errors.hpp"

#include <fmt/format.h>

namespace ckptsim::independent {
namespace {

class Module : public ProtocolModule {
 public:
  Module(const FederationLayout& layout, UnitKind kind)
      : units_(layout, kind)
      , manager_(layout.num_nodes()) {}
  // The line is computed from one consistent picture of every node: a second failure waits.
  bool tolerates_overlapping_failures() const override { return false; }
  // Nodes roll back on the manager's order, after the failure notice.
  bool nodes_report_recovery() const override { return true; }
  std::vector<ServiceSpec> services() const override { return {{"recovery_manager"}}; }
  std::unique_ptr<Agent> make_agent(NodeId node, bool service) const override {
    if (service) return std::make_unique<RecoveryManager>(units_);
    return std::make_unique<Process>(units_, node, manager_);
  }
  void summarize(const Stats& st, std::string& out) const override;

 private:
  Units units_;
  NodeId manager_; // the first service: endpoint N
};

void Module::summarize(const Stats& st, std::string& out) const {
  const double recoveries = st.get("independent.recoveries");
  const double rolled = st.get("independent.rollbacks");
  out += fmt::format("\n  Independent checkpointing ({} units: {})\n", units_.kind_name(), units_.count());
  out +=
      fmt::format("  {:>11} {:>8} {:>11} {:>10} {:>11} {:>15} {:>14} {:>13} {:>11}\n", "checkpoints", "aborted",
                  "stored max", "stored end", "recoveries", "units rolled", "mean rolled", "max rolled", "to initial");
  out += fmt::format("  {:>11.0f} {:>8.0f} {:>11.0f} {:>10.0f} {:>11.0f} {:>15.0f} {:>14.2f} {:>13.0f} {:>11.0f}\n",
                     st.get("independent.checkpoints"), st.get("independent.checkpoints_aborted"),
                     st.get("independent.stored_max"), st.get("independent.stored"), recoveries, rolled,
                     rolled > 0 ? st.get("independent.rolled_over") / rolled : 0.0, st.get("independent.max_depth"),
                     st.get("independent.to_initial"));
  out += fmt::format("  checkpoint bytes stored max {:.4g}, end {:.4g}; log entries max {:.0f} (one node {:.0f}), "
                     "end {:.0f}; re-sent {:.0f}; garbage collections {:.0f}\n",
                     st.get("independent.stored_bytes_max"), st.get("independent.stored_bytes"),
                     st.get("log.entries_max"), st.get("log.entries_node_max"), st.get("log.entries"),
                     st.get("independent.replays"), st.get("independent.gcs"));
}

std::unique_ptr<ProtocolModule> make_module(const ProtocolSetup& setup) {
  UnitKind kind = UnitKind::Process;
  if (auto it = setup.params.find("unit"); it != setup.params.end()) {
    if (it->second == "cluster")
      kind = UnitKind::Cluster;
    else if (it->second != "process")
      throw InputError("command line", "--param unit",
                       fmt::format("expected \"process\" or \"cluster\", got \"{}\"", it->second));
  }
  return std::make_unique<Module>(*setup.layout, kind);
}

const ProtocolRegistration registration{
    {.name = "independent",
     .description =
         "uncoordinated checkpoints per process or per cluster, recovery line from the dependencies (domino), GC",
     .factory = make_module,
     .params = {{"unit", "checkpoint unit: \"process\" (every process on its own timer) or \"cluster\" (each cluster "
                         "with an intra-cluster coordinated checkpoint); default process"}},
     .compared_by_default = "unit=cluster"}}; // the federation's other hierarchical choice, next to hc3i

} // namespace
} // namespace ckptsim::independent
