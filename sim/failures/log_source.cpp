#include "sim/failures/log_source.hpp"

#include "sim/config/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ckptsim {

NodeMapping parse_node_mapping(const json& j, const Where& at) {
  NodeMapping m;
  if (j.is_object()) {
    m.kind = NodeMapping::Kind::Explicit;
    for (const auto& [node, host] : j.items()) {
      if (is_documentation_key(node)) continue;
      if (host.is_object()) { // a log "node" that is a network link (issue 32): its records are outages
        ObjectReader link(host, at / node);
        m.links[node] = as_string(link.required("link"), link.where("link"));
        link.finish();
        continue;
      }
      m.hosts[node] = as_string(host, at / node);
    }
    if (m.hosts.empty() && m.links.empty())
      at.fail("an explicit mapping needs at least one \"log node\": \"host\" (or {\"link\": id}) pair");
    return m;
  }
  const std::string kind = as_choice(j, at, {"modulo", "by-name"});
  m.kind = kind == "by-name" ? NodeMapping::Kind::ByName : NodeMapping::Kind::Modulo;
  return m;
}

std::optional<LogFields> read_log_fields(ObjectReader& r, bool chosen, const std::string& base_dir,
                                         const std::string& model) {
  static const char* const kShared[] = {"file", "from", "to", "nodes"};
  if (!chosen) {
    const json* m = r.optional("model");
    const FailureSourceInfo* other =
        m && m->is_string() ? FailureSourceRegistry::instance().find(m->get<std::string>()) : nullptr;
    const auto reads = [other](const std::string& field) {
      if (other == nullptr) return false;
      for (const auto& [name, meaning] : other->fields)
        if (name == field) return true;
      return false;
    };
    for (const char* field : kShared)
      if (r.optional(field) != nullptr && !reads(field)) // optional(): known here, listed as such
        r.where(field).fail(
            fmt::format("\"{}\" is only meaningful with a failure log's \"model\" (\"{}\", ...)", field, model));
    return std::nullopt;
  }
  LogFields f;
  const std::string name = as_string(r.required("file"), r.where("file"));
  if (name.empty()) r.where("file").fail("expected the failure log's file name");
  f.file = (name[0] != '/' && !base_dir.empty()) ? base_dir + "/" + name : name;
  f.from = r.optional("from");
  f.to = r.optional("to");
  f.nodes_at = r.where("nodes");
  if (const json* v = r.optional("nodes")) f.nodes = parse_node_mapping(*v, f.nodes_at);
  return f;
}

void settle_selection(LogSelection& s, std::optional<double> from, const std::string& from_text) {
  std::stable_sort(s.records.begin(), s.records.end(),
                   [](const LogRecord& a, const LogRecord& b) { return a.date < b.date; });
  if (from) {
    s.origin = *from;
    s.origin_text = from_text;
  } else if (!s.records.empty()) {
    s.origin = s.records.front().date;
    s.origin_text = s.records.front().date_text;
  }
}

LogSettings log_settings(LogSelection selection, NodeMapping nodes, Where nodes_at) {
  LogSettings out{std::move(selection), std::move(nodes), std::move(nodes_at), {}};
  if (out.nodes.links.empty()) return out;
  LogSelection& s = out.selection;
  std::vector<LogRecord> kept;
  for (LogRecord& r : s.records) {
    const std::string node = std::to_string(r.node);
    const auto link = out.nodes.links.find(node);
    if (link == out.nodes.links.end()) {
      kept.push_back(std::move(r));
      continue;
    }
    if (r.repair <= 0) { // a link outage of no duration changes nothing
      s.skipped["link outage of no duration"]++;
      continue;
    }
    const double down = r.date - s.origin;
    const Where at = out.nodes_at / node;
    out.links.push_back(LinkFailureSpec{.link = link->second,
                                        .down = down,
                                        .up = down + r.repair,
                                        .file = at.file(),
                                        .path = at.path(),
                                        .link_at = (at / "link").path()});
    s.link_outages++;
  }
  s.records = std::move(kept);
  return out;
}

std::vector<LinkFailureSpec> log_link_outages(const std::any& settings) {
  return std::any_cast<const LogSettings&>(settings).links;
}

namespace {

// The simulated node of log node @p r, or -1 when the mapping leaves it out.
NodeId map_node(const LogRecord& r, const NodeMapping& mapping, const FederationLayout& layout) {
  switch (mapping.kind) {
  case NodeMapping::Kind::Modulo: {
    const long long n = layout.num_nodes();
    return n == 0 ? -1 : static_cast<NodeId>(((r.node % n) + n) % n);
  }
  case NodeMapping::Kind::ByName: {
    const NodeId v = layout.resolve(r.name);
    return v >= 0 && layout.host_name(v) == r.name ? v : -1; // a name, not an index that happens to match
  }
  case NodeMapping::Kind::Explicit:
    break;
  }
  const auto it = mapping.hosts.find(std::to_string(r.node));
  return it == mapping.hosts.end() ? -1 : layout.resolve(it->second);
}

} // namespace

LogFailures::LogFailures(LogSelection selection, const NodeMapping& mapping, const FederationLayout& layout,
                         const Where& mapping_at)
    : selection_(std::move(selection)) {
  for (const auto& [node, host] : mapping.hosts)
    if (layout.resolve(host) < 0) (mapping_at / node).fail(fmt::format("no host \"{}\" in the federation", host));
  std::vector<LogRecord> kept;
  for (const LogRecord& r : selection_.records) {
    const NodeId v = map_node(r, mapping, layout);
    if (v < 0) {
      selection_.skipped["unmapped node"]++;
      continue;
    }
    arrivals_.push_back({r.date - selection_.origin, {v}, r.repair});
    kept.push_back(r);
  }
  selection_.records = std::move(kept);
}

std::unique_ptr<FailureSource> make_log_failures(const FailureSourceContext& context) {
  const auto& s = context.topology.failures.settings_as<LogSettings>();
  return std::make_unique<LogFailures>(s.selection, s.nodes, context.layout, s.nodes_at);
}

std::optional<FailureArrival> LogFailures::next() {
  if (next_ >= arrivals_.size()) return std::nullopt;
  return arrivals_[next_++];
}

std::optional<nlohmann::ordered_json> LogFailures::account(std::size_t delivered) const {
  nlohmann::ordered_json a;
  a["file"] = selection_.file;
  a["records_read"] = selection_.read;
  a["used"] = delivered;
  if (selection_.link_outages > 0) a["link_outages"] = selection_.link_outages; // results.network has them
  nlohmann::ordered_json skipped = nlohmann::ordered_json::object();
  for (const auto& [why, n] : selection_.skipped) skipped[why] = n;
  if (delivered < arrivals_.size()) skipped["after the end of the run"] = arrivals_.size() - delivered;
  a["skipped"] = skipped;
  a["origin"] = selection_.origin_text; // the log date of simulated time 0
  a["first_at"] = arrivals_.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(arrivals_.front().date);
  const auto& recs = selection_.records;
  a["first_used"] = delivered > 0 ? nlohmann::ordered_json(recs.front().date_text) : nullptr;
  a["last_used"] = delivered > 0 ? nlohmann::ordered_json(recs[delivered - 1].date_text) : nullptr;
  return a;
}

} // namespace ckptsim
