/* Protocol "hc3i": hierarchical checkpointing for cluster federations (HC3I report sections
 * 3-4): coordinated cluster-level checkpoints inside clusters, communication-induced forced CLCs
 * between them (SN piggyback, DDV), optimistic sender-side logging of inter-cluster messages,
 * rollback alerts propagated to the recovery line, centralized garbage collection. Storage
 * "buddy" by default. One fault at a time (the report's assumption): overlapping failures are
 * deferred unless the topology says otherwise. */
#include "protocols/hc3i/node.hpp"
#include "sim/protocol/errors.hpp"

#include <fmt/format.h>

namespace ckptsim::hc3i {
namespace {

class Module : public ProtocolModule {
 public:
  Module(const FederationLayout& layout, Options options)
      : layout_(layout)
      , options_(options) {}
  // One fault at a time (the report's section 2): a second rollback would run on top of an
  // unfinished one. "allow" is refused by the engine, the default defers.
  bool tolerates_overlapping_failures() const override { return false; }
  // Alerts propagate by messages: a recovery is over when no protocol message is on the wire
  // and no node is still rolling back (the recovery line is reached).
  bool recovery_needs_quiescence() const override { return true; }
  std::string default_storage() const override { return "buddy"; }
  // A CLC: every node of the cluster saves checkpoint sn together (an erasure group can encode it).
  StorageUse storage_use() const override { return StorageUse::ClusterLine; }
  std::unique_ptr<Agent> make_agent(NodeId node, bool /*service*/) const override {
    return std::make_unique<Node>(layout_, node, options_, shared_);
  }
  void summarize(const Stats& st, std::string& out) const override;

 private:
  const FederationLayout& layout_;
  Options options_;
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

double at(const Stats& st, const char* name, int c) {
  const auto& v = st.cluster_values(name);
  return static_cast<std::size_t>(c) < v.size() ? v[static_cast<std::size_t>(c)] : 0.0;
}

void Module::summarize(const Stats& st, std::string& out) const {
  out += fmt::format("\n  HC3I{} (per cluster)\n", options_.transitive ? ", transitive DDV" : "");
  // Logged: inter-cluster messages in the cluster's logs (all its nodes), and the most one node held.
  out += fmt::format("  {:<10} {:>7} {:>9} {:>7} {:>11} {:>10} {:>11} {:>10} {:>13} {:>10} {:>8}\n", "cluster",
                     "forced", "unforced", "initial", "stored max", "stored end", "logged max", "logged end",
                     "node log max", "rollbacks", "replays");
  for (int c = 0; c < layout_.num_clusters(); c++)
    out += fmt::format(
        "  {:<10} {:>7.0f} {:>9.0f} {:>7.0f} {:>11.0f} {:>10.0f} {:>11.0f} {:>10.0f} {:>13.0f} {:>10.0f} {:>8.0f}\n",
        layout_.cluster(c).name, at(st, "hc3i.clc_forced", c), at(st, "hc3i.clc_unforced", c),
        at(st, "hc3i.clc_initial", c), at(st, "hc3i.clcs_stored_max", c), at(st, "hc3i.clcs_stored", c),
        at(st, "hc3i.logged_max", c), at(st, "hc3i.logged", c), at(st, "hc3i.logged_node_max", c),
        at(st, "hc3i.rollbacks", c), at(st, "hc3i.replays", c));
  const auto& gcs = st.series("hc3i.gc");
  if (!gcs.empty()) {
    out += "\n  Garbage collections: CLCs stored before -> after, per cluster\n";
    for (const auto& g : gcs) {
      std::string row;
      for (std::size_t c = 0; c < g["before"].size(); c++)
        row += fmt::format("  {}->{}", g["before"][c].get<int>(), g["after"][c].get<int>());
      out += fmt::format("  at {:>10.1f} s {}\n", g["date"].get<double>(), row);
    }
  }
  out += fmt::format("  protocol messages crossing the WAN {:.0f}\n", st.get("ctrl.wan"));
}

std::unique_ptr<ProtocolModule> make_module(const ProtocolSetup& setup) {
  for (int c = 0; c < setup.layout->num_clusters(); c++)
    if (setup.layout->cluster(c).size < 2)
      throw InputError(setup.topology_file, fmt::format("/clusters/{}/nodes", c),
                       "hc3i needs at least 2 nodes per cluster (a survivor leads the cluster's recovery)");
  return std::make_unique<Module>(*setup.layout, Options{bool_param(setup, "transitive")});
}

const ProtocolRegistration registration{
    {.name = "hc3i",
     .description =
         "hierarchical: coordinated CLCs per cluster, forced CLCs on SN/DDV, optimistic logging, rollback alerts, GC",
     .factory = make_module,
     .params = {{"transitive", "piggyback the whole DDV instead of the SN (report section 7); default false"}},
     .runs_by_default = true, // the report's protocol, which the default scenario shows
     .compared_by_default = ""}};

} // namespace
} // namespace ckptsim::hc3i
