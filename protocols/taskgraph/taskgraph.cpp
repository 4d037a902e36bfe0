/* Protocol "taskgraph": Lion's partial rollback for distributed task graphs (StarPU-MPI; "Tolérance
 * aux pannes dans l'exécution distribuée de graphes de tâches"), on the `stencil` application.
 * Checkpoints at program-order points every process knows (no coordination message), each held
 * by the process' backup node (`buddy` storage by default), sender-based logging in volatile
 * memory, garbage collection by checkpoint numbers, and after a failure the restart of the failed
 * process alone, from its backup's copy, with the replay of what its peers sent it since. A
 * separate module rather than a mode of `msglog`: see docs/MODEL.md. One failure at a time
 * (the paper's assumption; later ones are deferred). */
#include "protocols/taskgraph/process.hpp"
#include "sim/protocol/dataflow.hpp"
#include "sim/protocol/errors.hpp"
#include "sim/protocol/storage.hpp"

#include <fmt/format.h>

namespace ckptsim::taskgraph {
namespace {

// The storage model a process' backup follows, and the protocol's default.
constexpr const char* kBackupStorage = "buddy";

class Module : public ProtocolModule {
 public:
  Module(const DataflowApplication& workload, std::vector<NodeId> backups, Options options)
      : workload_(workload)
      , backups_(std::move(backups))
      , points_(workload.graph())
      , options_(options) {}
  // One failure at a time (Lion 3.1 leaves a second one during a recovery out): a failure during
  // a replay would need the replay's own re-sends to be recovered too.
  bool tolerates_overlapping_failures() const override { return false; }
  // The substitute reports once its peers have replayed and it has sent again what they hold.
  bool nodes_report_recovery() const override { return true; }
  // A failed backup's recovery also re-creates the copies it held (transfers) and its knowledge
  // (TG_STORED): over only when those are done, so that the next failure finds them.
  bool recovery_needs_quiescence() const override { return true; }
  std::string default_storage() const override { return kBackupStorage; }
  // One copy per save where its model puts it: a multi-level storage is refused.
  StorageUse storage_use() const override { return StorageUse::Fixed; }
  std::unique_ptr<Agent> make_agent(NodeId node, bool service) const override {
    if (service) throw std::logic_error("taskgraph: no service");
    return std::make_unique<Process>(workload_, points_, node, backups_.at(static_cast<std::size_t>(node)), options_);
  }
  void summarize(const Stats& st, std::string& out) const override;

 private:
  const DataflowApplication& workload_;
  std::vector<NodeId> backups_; // per process: backup_of
  Points points_;
  Options options_;
};

void Module::summarize(const Stats& st, std::string& out) const {
  out += fmt::format("\n  Task-graph partial rollback (a checkpoint every {} iterations)\n", options_.interval);
  out += fmt::format("  checkpoints committed {:.0f}, skipped {:.0f} (previous save not acknowledged)\n",
                     st.get("taskgraph.checkpoints"), st.get("taskgraph.checkpoints_skipped"));
  out += fmt::format("  {:<34} {:>14} {:>14}\n", "", "max", "end");
  out += fmt::format("  {:<34} {:>14.0f} {:>14.0f}\n", "log entries (all senders)", st.get("log.entries_max"),
                     st.get("log.entries"));
  out += fmt::format("  {:<34} {:>14.4g} {:>14.4g}\n", "log bytes (all senders)", st.get("log.bytes_max"),
                     st.get("log.bytes"));
  out += fmt::format("  log entries dropped by checkpoint numbers {:.0f}\n", st.get("taskgraph.gc_dropped"));
  out += fmt::format("  replay: {:.0f} messages re-sent by peers, {:.0f} duplicates dropped, {:.0f} sends owed by "
                     "substitutes\n",
                     st.get("taskgraph.replayed"), st.get("taskgraph.duplicates"), st.get("taskgraph.promised"));
  const auto& rec = st.series("taskgraph.recoveries");
  if (!rec.empty()) {
    out += "  recoveries: failure, victim, checkpoint, peers, replayed, duration\n";
    for (const auto& r : rec)
      out += fmt::format("  {:>8} {:>6} {:>10} {:>5} {:>8} {:>10.4g} s\n", r["failure"].get<std::uint64_t>(),
                         r["victim"].get<int>(), r["checkpoint"].get<std::uint64_t>(), r["peers"].get<std::size_t>(),
                         r["replayed"].get<std::uint64_t>(), r["duration"].get<double>());
  }
}

std::uint64_t interval_param(const ProtocolSetup& setup) {
  auto it = setup.params.find("interval");
  if (it == setup.params.end()) return Options{}.interval;
  std::size_t pos = 0;
  long long v = 0;
  try {
    v = std::stoll(it->second, &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  if (pos != it->second.size() || v < 1)
    throw InputError("--param", "interval",
                     fmt::format("\"{}\": the iterations between two checkpoints must be an integer >= 1", it->second));
  return static_cast<std::uint64_t>(v);
}

/** The node that knows the number of @p node's newest stored checkpoint: where the default storage
 *  model puts its copy (the next node of its cluster), or the next node of the federation for a
 *  one-node cluster. The same node whatever model the topology chooses. */
NodeId backup_of(const ProtocolSetup& setup, NodeId node) {
  // The buddy model places every checkpoint number alike: checkpoint 1 stands for all.
  const std::vector<NodeId> holders = storage_holder_nodes(setup, kBackupStorage, node, 1);
  if (!holders.empty()) return holders.front();
  return (node + 1) % setup.layout->num_nodes();
}

std::unique_ptr<ProtocolModule> make_module(const ProtocolSetup& setup) {
  const DataflowApplication* dataflow = dataflow_application(setup);
  if (!dataflow)
    throw InputError(setup.application_file, "/kind",
                     "protocol \"taskgraph\" needs a data-flow application whose task graph and program-order points "
                     "are known: kind \"stencil\"");
  Options options;
  options.interval = interval_param(setup);
  if (setup.layout->num_nodes() < 2)
    throw InputError(setup.topology_file, "/clusters",
                     "protocol \"taskgraph\" needs at least two nodes: a process' checkpoint is held by another node");
  std::vector<NodeId> backups;
  for (NodeId node = 0; node < setup.layout->num_nodes(); node++) backups.push_back(backup_of(setup, node));
  return std::make_unique<Module>(*dataflow, std::move(backups), options);
}

const ProtocolRegistration registration{
    {"taskgraph",
     "Lion's task-graph partial rollback (stencil): checkpoints at program-order points without coordination, a "
     "backup node per process, sender-based logging, restart of the failed process alone",
     make_module,
     {{"interval", "iterations between two checkpoints: one at points interval+1, 2*interval+1... (after every "
                   "interval iterations); default 10"}}}};

} // namespace
} // namespace ckptsim::taskgraph
