/* The topology file's reader (SPEC 2.1, docs/INPUTS.md): clusters, WAN, controller, MTBF, and
 * the "storage" and "failures" objects, whose fields belong to the registered storage models and
 * failure sources. Above the plug-in folders it reads for (sim/storage, sim/failures), so that
 * sim/config, which they all build on, depends on none of them. */
#include "sim/scenario/readers.hpp"

#include "sim/failures/source.hpp"
#include "sim/storage/model.hpp"

#include <fmt/format.h>
#include <fstream>
#include <set>

namespace ckptsim {

namespace {

ClusterSpec parse_cluster(const json& j, const Where& at, bool network_from_xml) {
  ObjectReader r(j, at);
  ClusterSpec c;
  c.name = as_string(r.required("name"), r.where("name"));
  if (c.name.empty() || c.name.find_first_of(" /\t") != std::string::npos)
    r.where("name").fail("a cluster name must be non-empty without spaces or '/'");
  if (network_from_xml) {
    if (r.has("nodes") || r.has("san"))
      r.where(r.has("nodes") ? "nodes" : "san")
          .fail("with a \"platform\" XML the hosts and links come from the XML; remove this field");
  } else {
    c.nodes = static_cast<int>(as_integer(r.required("nodes"), r.where("nodes"), 1, 1'000'000));
    c.san = parse_link(r.required("san"), r.where("san"));
  }
  if (auto* v = r.optional("speed")) {
    if (network_from_xml)
      r.where("speed").fail("with a \"platform\" XML the node speed comes from the XML; remove this field");
    c.speed = as_positive_quantity(*v, r.where("speed"), units::Kind::Speed);
  }
  if (auto* v = r.optional("checkpoint_size"))
    c.checkpoint_size = as_nonnegative_quantity(*v, r.where("checkpoint_size"), units::Kind::Size);
  if (auto* v = r.optional("storage")) c.storage = StorageModelRegistry::instance().choose(*v, r.where("storage")).name;
  r.finish();
  return c;
}

HeartbeatSpec parse_heartbeat(const json& j, const Where& at) {
  ObjectReader r(j, at);
  HeartbeatSpec h;
  h.period = as_positive_quantity(r.required("period"), r.where("period"), units::Kind::Duration);
  h.timeout = as_positive_quantity(r.required("timeout"), r.where("timeout"), units::Kind::Duration);
  if (h.timeout < h.period)
    r.where("timeout").fail("the timeout must be at least one heartbeat period (else live nodes are declared failed)");
  r.finish();
  return h;
}

FailureSpec parse_failures(const json& j, const Where& at, const std::string& base_dir) {
  ObjectReader r(j, at);
  FailureSpec f;
  const auto& sources = FailureSourceRegistry::instance();
  if (auto* v = r.optional("model")) f.model = sources.choose(*v, r.where("model")).name;
  // Every source reads its own fields, chosen or not: each field of the object is known whichever
  // source is used, and a source refuses its fields where they mean nothing.
  for (const FailureSourceInfo& source : sources.all()) {
    if (!source.read) continue;
    std::any settings = source.read(r, source.name == f.model, base_dir);
    if (source.name == f.model) f.settings = std::move(settings);
  }
  if (auto* v = r.optional("downtime"))
    f.downtime = parse_distribution(*v, r.where("downtime"), Distribution::Kind::Constant, true);
  if (auto* v = r.optional("detection_delay"))
    f.detection_delay = as_nonnegative_quantity(*v, r.where("detection_delay"), units::Kind::Duration);
  if (auto* v = r.optional("restart_overhead"))
    f.restart_overhead = as_nonnegative_quantity(*v, r.where("restart_overhead"), units::Kind::Duration);
  if (auto* v = r.optional("overlap")) {
    auto o = as_choice(*v, r.where("overlap"), {"protocol", "allow", "defer"});
    f.overlap = o == "allow" ? OverlapPolicy::Allow : o == "defer" ? OverlapPolicy::Defer : OverlapPolicy::Protocol;
  }
  if (auto* v = r.optional("restart"))
    f.restart = as_choice(*v, r.where("restart"), {"spare", "shrink"}) == "shrink" ? RestartPlacement::Shrink
                                                                                   : RestartPlacement::Spare;
  if (auto* v = r.optional("heartbeat")) {
    if (r.has("detection_delay"))
      r.where("heartbeat")
          .fail("give \"detection_delay\" or \"heartbeat\", not both (the heartbeat derives the delay)");
    f.heartbeat = parse_heartbeat(*v, r.where("heartbeat"));
  }
  r.finish();
  return f;
}

// The controller: the link(s) of the host ckptsim adds, or an existing host of the platform XML.
void parse_controller(const json& j, const Where& at, bool from_xml, Topology& t) {
  ObjectReader r(j, at);
  if (auto* v = r.optional("host")) {
    if (!from_xml) r.where("host").fail("an existing host as controller needs a \"platform\" XML");
    if (r.has("latency") || r.has("bandwidth"))
      r.where(r.has("latency") ? "latency" : "bandwidth")
          .fail("the controller is an existing host (\"host\"): its links are the platform's; remove this field");
    t.controller_host = as_string(*v, r.where("host"));
    if (t.controller_host.empty()) r.where("host").fail("expected a host name");
  } else {
    t.controller.latency = as_nonnegative_quantity(r.required("latency"), r.where("latency"), units::Kind::Duration);
    t.controller.bandwidth =
        as_positive_quantity(r.required("bandwidth"), r.where("bandwidth"), units::Kind::Bandwidth);
  }
  r.finish();
}

// Every model reads its own fields: each field of the object is known whichever model is used.
StorageSpec parse_storage(const json& j, const Where& at) {
  ObjectReader r(j, at);
  StorageSpec s;
  if (auto* v = r.optional("model")) s.model = StorageModelRegistry::instance().choose(*v, r.where("model")).name;
  for (const StorageModelInfo& model : StorageModelRegistry::instance().all())
    if (model.read) model.read(r, s);
  r.finish();
  return s;
}

// Each model checks its fields against whether the topology uses it (e.g. a field required where
// the model is used, meaningless elsewhere). Checks that need the cluster sizes, which a
// platform XML gives later, come in Run::prepare (StorageModelInfo::check_cluster).
void check_storage_fields(const Topology& t, const Where& at) {
  for (const StorageModelInfo& model : StorageModelRegistry::instance().all()) {
    if (!model.check) continue;
    bool used = t.storage.model == model.name;
    for (const auto& c : t.clusters) used = used || c.storage == model.name;
    model.check(t.storage, used, at);
  }
}

} // namespace

Topology parse_topology(const json& doc, const std::string& file, const std::string& base_dir) {
  Where at(file);
  ObjectReader r(doc, at);
  Topology t;
  t.source = file;
  if (auto* v = r.optional("platform")) {
    std::string name = as_string(*v, r.where("platform"));
    t.platform_xml = (!name.empty() && name[0] != '/' && !base_dir.empty()) ? base_dir + "/" + name : name;
    if (!std::ifstream(t.platform_xml))
      r.where("platform").fail(fmt::format("cannot open platform file \"{}\"", t.platform_xml));
  }
  const bool from_xml = !t.platform_xml.empty();
  const json* clusters = from_xml ? r.optional("clusters") : &r.required("clusters");
  if (clusters) {
    if (!clusters->is_array() || (!from_xml && clusters->empty()))
      r.where("clusters").fail("expected a non-empty array of clusters");
    std::set<std::string> names;
    for (std::size_t i = 0; i < clusters->size(); i++) {
      t.clusters.push_back(parse_cluster((*clusters)[i], r.where("clusters") / i, from_xml));
      if (!names.insert(t.clusters.back().name).second)
        (r.where("clusters") / i / "name").fail(fmt::format("duplicate cluster name \"{}\"", t.clusters.back().name));
    }
  }
  const std::size_t n = t.clusters.size();
  if (from_xml) {
    if (r.has("wan")) r.where("wan").fail("with a \"platform\" XML the WAN comes from the XML; remove this field");
  } else if (r.optional("wan") != nullptr || n > 1) { // optional() first: "wan" is known even when absent
    const json& wan = r.required("wan");
    Where w = r.where("wan");
    if (!wan.is_array() || wan.size() != n - 1)
      w.fail(fmt::format("expected a triangular matrix: an array of {} rows for {} clusters, row i holding the "
                         "links from cluster i to clusters i+1..{}",
                         n - 1, n, n - 1));
    for (std::size_t i = 0; i + 1 < n; i++) {
      const json& row = wan[i];
      if (!row.is_array() || row.size() != n - 1 - i)
        (w / i).fail(fmt::format("row {} must hold {} link(s) (to clusters {}..{}), found {}", i, n - 1 - i, i + 1,
                                 n - 1, row.is_array() ? std::to_string(row.size()) : row.type_name()));
      t.wan.emplace_back();
      for (std::size_t k = 0; k < row.size(); k++) t.wan.back().push_back(parse_link(row[k], w / i / k));
    }
  }
  if (auto* v = r.optional("clusters_at")) {
    if (!from_xml) r.where("clusters_at").fail("only meaningful with a \"platform\" XML");
    t.clusters_at = as_choice(*v, r.where("clusters_at"), {"clusters", "sites"}) == "sites" ? ClustersAt::Sites
                                                                                            : ClustersAt::Clusters;
  }
  if (auto* v = r.optional("controller")) parse_controller(*v, r.where("controller"), from_xml, t);
  if (auto* v = r.optional("mtbf")) t.mtbf = as_period(*v, r.where("mtbf"));
  if (auto* v = r.optional("storage")) t.storage = parse_storage(*v, r.where("storage"));
  if (auto* v = r.optional("failures")) t.failures = parse_failures(*v, r.where("failures"), base_dir);
  if (t.failures.restart == RestartPlacement::Shrink) {
    int nodes = 0; // with a platform XML the nodes are not known yet: the engine checks again
    for (const auto& c : t.clusters) nodes += c.nodes;
    if (nodes == 1)
      (r.where("failures") / "restart")
          .fail("\"shrink\" restarts a failed process on a surviving node: the federation has one node, nothing "
                "to shrink onto");
  }
  r.finish();
  check_storage_fields(t, at);
  return t;
}

} // namespace ckptsim
