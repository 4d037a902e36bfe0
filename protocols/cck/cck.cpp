/* Protocol "cck" (CCK thesis chapter 4): checkpoints coordinated only between the processes that
 * still exchange data (2N + 3 sum(V_i) control messages a wave), stable storage on checkpoint
 * servers plus a local copy, and a partial restart: the failed process restarts from its last
 * checkpoint, the others keep their state and re-execute only the tasks that produced what the
 * failed process lost (C_total). Needs a data-flow application (Workload::dataflow(), the "stencil"
 * kind today). */
#include "protocols/cck/coordinator.hpp"
#include "protocols/cck/process.hpp"
#include "sim/protocol/dataflow.hpp"
#include "sim/protocol/errors.hpp"

#include <fmt/format.h>

namespace ckptsim::cck {
namespace {

class Module : public ProtocolModule {
 public:
  Module(const DataflowApplication& workload, int nodes, bool reuse)
      : workload_(workload)
      , nodes_(nodes)
      , reuse_(reuse) {}
  // The restart compares the state of every process with one failure: a second failure waits.
  bool tolerates_overlapping_failures() const override { return false; }
  bool nodes_report_recovery() const override { return true; }
  // One copy per save where its model puts it: a multi-level storage is refused.
  StorageUse storage_use() const override { return StorageUse::Fixed; }
  std::vector<ServiceSpec> services() const override { return {{"coordinator"}}; }
  std::unique_ptr<Agent> make_agent(NodeId node, bool service) const override {
    if (service) return std::make_unique<Coordinator>();
    (void)node;
    return std::make_unique<Process>(workload_, nodes_, reuse_); // the coordinator is endpoint N
  }
  void summarize(const Stats& st, std::string& out) const override {
    const double waves = st.get("cck.waves_committed");
    out += fmt::format("\n  CCK\n  waves committed {:.0f}, aborted {:.0f}, mean coordination time {:.4f} s, "
                       "control messages {:.0f}\n",
                       waves, st.get("cck.waves_aborted"), waves > 0 ? st.get("cck.coordination_time") / waves : 0.0,
                       st.get("ctrl.total"));
    out += fmt::format("  restarts {:.0f}: tasks re-executed by non-failed processes {:.0f} (a global restart: "
                       "{:.0f}), C_lost {:.0f}, C_total {:.0f}\n",
                       st.get("cck.restarts"), st.get("cck.reexecuted_tasks"), st.get("cck.global_restart_tasks"),
                       st.get("cck.c_lost"), st.get("cck.c_total"));
  }

 private:
  const DataflowApplication& workload_;
  int nodes_;
  bool reuse_;
};

const ProtocolRegistration registration{
    {"cck",
     "CCK: checkpoints coordinated with data-flow neighbours only (INIT/PING/PONG/CONT/ACK), partial restart",
     [](const ProtocolSetup& setup) -> std::unique_ptr<ProtocolModule> {
       const DataflowApplication* dataflow = dataflow_application(setup);
       if (!dataflow)
         throw InputError(setup.application_file, "/kind",
                          "protocol \"cck\" needs a data-flow application whose task graph is known: kind "
                          "\"stencil\"");
       return std::make_unique<Module>(*dataflow, setup.layout->num_nodes(), bool_param(setup, "reuse"));
     },
     {{"reuse", "true: a non-failed process reuses the data still in its memory instead of recomputing them "
                "(thesis 4.4.2); default false"}}}};

} // namespace
} // namespace ckptsim::cck
