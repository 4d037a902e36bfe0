/* The topology file's reader (SPEC 2.1, docs/INPUTS.md): clusters, WAN, controller, MTBF, and
 * the "storage" and "failures" objects, whose fields belong to the registered storage models and
 * failure sources. Above the plug-in folders it reads for (sim/storage, sim/failures), so that
 * sim/config, which they all build on, depends on none of them. */
#include "sim/config/file_errors.hpp"
#include "sim/scenario/readers.hpp"

#include "sim/failures/source.hpp"
#include "sim/storage/model.hpp"

#include <fmt/format.h>
#include <fstream>
#include <set>

namespace ckptsim {

namespace {

// "domains": {scope: size or [[host, ...], ...]}: the failure domains of each scope.
std::map<std::string, DomainSpec> parse_domains(const json& j, const Where& at) {
  ObjectReader r(j, at);
  std::map<std::string, DomainSpec> out;
  for (const auto& [scope, v] : j.items()) {
    if (is_documentation_key(scope)) continue;
    const Where w = r.where(scope);
    r.optional(scope);
    if (scope == "node" || scope == "cluster" || scope == "site")
      w.fail(fmt::format("\"{}\" is a scope of its own; name a domain inside clusters (e.g. \"rack\")", scope));
    DomainSpec d;
    if (v.is_array()) {
      if (v.empty()) w.fail("expected a size or a non-empty list of groups of node names");
      for (std::size_t g = 0; g < v.size(); g++) {
        if (!v[g].is_array() || v[g].empty()) (w / g).fail("expected a non-empty list of node names");
        d.groups.emplace_back();
        for (std::size_t k = 0; k < v[g].size(); k++) d.groups.back().push_back(as_string(v[g][k], w / g / k));
      }
    } else {
      d.size = static_cast<int>(as_integer(v, w, 1, 1'000'000));
    }
    out[scope] = std::move(d);
  }
  r.finish();
  return out;
}

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
  if (auto* v = r.optional("domains")) c.domains = parse_domains(*v, r.where("domains"));
  if (auto* v = r.optional("power")) {
    ObjectReader p(*v, r.where("power"));
    for (auto [key, field] : {std::pair{"computing", &c.power.computing},
                              {"checkpointing", &c.power.checkpointing},
                              {"idle", &c.power.idle},
                              {"down", &c.power.down}})
      if (auto* w = p.optional(key)) *field = as_nonnegative_quantity(*w, p.where(key), units::Kind::Power);
    p.finish();
  }
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
  if (auto* v = r.optional("correlated")) {
    if (!v->is_array()) r.where("correlated").fail("expected a list of correlated failure sources");
    for (std::size_t i = 0; i < v->size(); i++) {
      const Where w = r.where("correlated") / i;
      ObjectReader c((*v)[i], w);
      FailureSpec::Correlated s;
      s.scope = as_string(c.required("scope"), c.where("scope"));
      s.mtbf = as_positive_quantity(c.required("mtbf"), c.where("mtbf"), units::Kind::Duration);
      if (auto* d = c.optional("downtime"))
        s.downtime = parse_distribution(*d, c.where("downtime"), Distribution::Kind::Constant, true);
      c.finish();
      f.correlated.push_back(std::move(s));
    }
  }
  if (auto* v = r.optional("cascade")) {
    ObjectReader c(*v, r.where("cascade"));
    FailureSpec::Cascade s;
    if (auto* sc = c.optional("scope")) s.scope = as_string(*sc, c.where("scope"));
    s.probability = as_probability(c.required("probability"), c.where("probability"));
    s.window = as_nonnegative_quantity(c.required("window"), c.where("window"), units::Kind::Duration);
    c.finish();
    f.cascade = s;
  }
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
  if (auto* v = r.optional("power")) s.power = as_nonnegative_quantity(*v, r.where("power"), units::Kind::Power);
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

// "sites": {site: [cluster, ...]}: groups of clusters, each cluster in one site at most.
std::map<std::string, std::vector<std::string>> parse_sites(const json& j, const Where& at, const Topology& t) {
  ObjectReader r(j, at);
  std::map<std::string, std::vector<std::string>> out;
  std::set<std::string> placed;
  for (const auto& [site, v] : j.items()) {
    if (is_documentation_key(site)) continue;
    r.optional(site);
    const Where w = r.where(site);
    if (!v.is_array() || v.empty()) w.fail("expected a non-empty list of cluster names");
    for (std::size_t i = 0; i < v.size(); i++) {
      const std::string c = as_string(v[i], w / i);
      // With a platform XML the clusters are known when the platform is built (checked then).
      if (t.platform_xml.empty() && t.cluster_index(c) < 0)
        (w / i).fail(fmt::format("no cluster named \"{}\" in the topology", c));
      if (!placed.insert(c).second) (w / i).fail(fmt::format("cluster \"{}\" is in two sites", c));
      out[site].push_back(c);
    }
  }
  r.finish();
  return out;
}

// "link_failures": [{"scope": "wan" | "san", "mtbf": d, "downtime": d or a distribution} or
// {"link": id, "down": date, "up": date}, ...]: random link failures per scope, scripted outages.
std::vector<LinkFailureSpec> parse_link_failures(const json& j, const Where& at) {
  if (!j.is_array())
    at.fail("expected a list of link failure sources ({\"scope\", \"mtbf\", \"downtime\"}) or scripted outages "
            "({\"link\", \"down\", \"up\"})");
  std::vector<LinkFailureSpec> out;
  for (std::size_t i = 0; i < j.size(); i++) {
    const Where w = at / i;
    ObjectReader r(j[i], w);
    LinkFailureSpec s;
    s.file = w.file();
    s.path = w.path();
    s.link_at = (w / "link").path();
    if (r.has("scope") == r.has("link"))
      w.fail("give \"scope\" (a random source: \"wan\" or \"san\", with \"mtbf\" and \"downtime\") or \"link\" "
             "(a scripted outage, with \"down\" and \"up\"), not both nor neither");
    if (r.has("scope")) {
      s.scope = as_choice(r.required("scope"), r.where("scope"), {"wan", "san"});
      s.mtbf = as_positive_quantity(r.required("mtbf"), r.where("mtbf"), units::Kind::Duration);
      s.downtime = parse_distribution(r.required("downtime"), r.where("downtime"), Distribution::Kind::Constant, false);
    } else {
      s.link = as_string(r.required("link"), r.where("link"));
      if (s.link.empty()) r.where("link").fail("expected a link id (e.g. \"wan_0_1\", as `ckptsim platform` names it)");
      s.down = as_nonnegative_quantity(r.required("down"), r.where("down"), units::Kind::Duration);
      s.up = as_nonnegative_quantity(r.required("up"), r.where("up"), units::Kind::Duration);
      if (!(s.up > s.down))
        r.where("up").fail(fmt::format("the link comes back after it fails: up must be after down ({})", s.down));
    }
    r.finish();
    out.push_back(std::move(s));
  }
  return out;
}

// Every scope a correlated source or the cascade names exists: "cluster", "site" (sites declared,
// or the clusters are the platform's sites) or a domain of the topology or of one of its clusters.
void check_failure_scopes(const Topology& t, const Where& at) {
  const auto known = [&t](const std::string& scope) {
    if (scope == "cluster") return true;
    if (scope == "site") return !t.sites.empty() || t.clusters_at == ClustersAt::Sites;
    if (t.domains.count(scope)) return true;
    for (const auto& c : t.clusters)
      if (c.domains.count(scope)) return true;
    return false;
  };
  const auto why = [](const std::string& scope) {
    return scope == "site" ? std::string("no \"sites\" in the topology (and its clusters are not a platform's sites)")
                           : fmt::format("no failure domain \"{}\" in the topology (\"domains\") nor in a cluster's; "
                                         "scopes: \"cluster\", \"site\" or a declared domain",
                                         scope);
  };
  for (std::size_t i = 0; i < t.failures.correlated.size(); i++)
    if (!known(t.failures.correlated[i].scope))
      (at / "correlated" / i / "scope").fail(why(t.failures.correlated[i].scope));
  if (t.failures.cascade && !known(t.failures.cascade->scope))
    (at / "cascade" / "scope").fail(why(t.failures.cascade->scope));
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
    if (!std::ifstream(t.platform_xml)) r.where("platform").fail(cannot_open_reason(t.platform_xml, "platform file"));
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
  if (auto* v = r.optional("domains")) t.domains = parse_domains(*v, r.where("domains"));
  if (auto* v = r.optional("sites")) t.sites = parse_sites(*v, r.where("sites"), t);
  if (auto* v = r.optional("failures")) t.failures = parse_failures(*v, r.where("failures"), base_dir);
  if (auto* v = r.optional("link_failures")) t.link_failures = parse_link_failures(*v, r.where("link_failures"));
  if (const auto& source = FailureSourceRegistry::instance().get(t.failures.model); source.link_outages)
    for (LinkFailureSpec& l : source.link_outages(t.failures.settings)) t.link_failures.push_back(std::move(l));
  check_failure_scopes(t, r.where("failures"));
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
