#include "sim/config/timers.hpp"

#include "sim/config/nearest.hpp"

#include <fmt/format.h>

namespace ckptsim {

std::string TimerInfo::unknown(const std::string& name, const std::vector<std::string>& known) {
  return fmt::format("unknown timer \"{}\" ({}known timers: {})", name, did_you_mean_head(name, known),
                     fmt::join(known, ", "));
}

namespace {
std::map<std::string, double> parse_timer_set(const json& j, const Where& at) {
  ObjectReader r(j, at);
  std::map<std::string, double> out;
  for (const auto& [name, value] : j.items()) {
    if (is_documentation_key(name)) continue;
    TimerRegistry::instance().lookup(name, at / name);
    out[name] = as_period(*r.optional(name), r.where(name));
  }
  r.finish();
  return out;
}
} // namespace

double Timers::cluster_period(const std::string& name, const std::string& cluster) const {
  if (auto c = per_cluster.find(cluster); c != per_cluster.end())
    if (auto t = c->second.find(name); t != c->second.end()) return t->second;
  if (auto t = defaults.find(name); t != defaults.end()) return t->second;
  return std::numeric_limits<double>::infinity();
}

double Timers::period(const std::string& name, const std::string& cluster, const std::string& host) const {
  if (auto p = per_process.find(host); p != per_process.end())
    if (auto t = p->second.find(name); t != p->second.end()) return t->second;
  return cluster_period(name, cluster);
}

Timers parse_timers(const json& doc, const std::string& file, const Topology& topology) {
  ObjectReader r(doc, Where(file));
  Timers t;
  t.source = file;
  if (auto* v = r.optional("default")) t.defaults = parse_timer_set(*v, r.where("default"));
  if (auto* v = r.optional("clusters")) {
    ObjectReader c(*v, r.where("clusters"));
    for (const auto& [name, set] : v->items()) {
      if (is_documentation_key(name)) continue;
      if (topology.cluster_index(name) < 0)
        c.where(name).fail(fmt::format("no cluster named \"{}\" in the topology ({})", name, topology.source));
      t.per_cluster[name] = parse_timer_set(*c.optional(name), c.where(name));
    }
    c.finish();
  }
  if (auto* v = r.optional("processes")) {
    ObjectReader p(*v, r.where("processes"));
    for (const auto& [name, set] : v->items()) // host names are checked once the platform exists
      if (!is_documentation_key(name)) t.per_process[name] = parse_timer_set(*p.optional(name), p.where(name));
    p.finish();
  }
  r.finish();
  return t;
}

} // namespace ckptsim
