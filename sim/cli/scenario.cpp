#include "sim/cli/scenario.hpp"

#include "sim/cli/default_scenario.hpp"
#include "sim/config/input_error.hpp"

#include <filesystem>
#include <fmt/format.h>

namespace ckptsim {

namespace {
std::string folder_of(const std::string& file) {
  auto parent = std::filesystem::path(file).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}
} // namespace

void set_platform_options(json& topology, const ScenarioFiles& files) {
  for (const auto& [option, value] :
       {std::pair{"--controller", &files.controller}, {"--clusters-at", &files.clusters_at}})
    if (!value->empty() && !(topology.is_object() && topology.contains("platform")))
      throw InputError("command line", option,
                       "only meaningful with a platform XML (--platform FILE or the topology's \"platform\")");
  if (!files.clusters_at.empty()) {
    if (files.clusters_at != "clusters" && files.clusters_at != "sites")
      throw InputError("command line", "--clusters-at",
                       fmt::format("unknown level \"{}\" (clusters: every zone holding hosts; sites: every child "
                                   "zone of the root)",
                                   files.clusters_at));
    topology["clusters_at"] = files.clusters_at;
  }
  if (!files.controller.empty()) topology["controller"] = json{{"host", files.controller}};
}

RunConfig load_scenario(const ScenarioFiles& files, const std::vector<std::string>& overrides) {
  RunConfig c;
  const bool custom = !files.topology.empty() || !files.platform.empty();
  if (custom && files.application.empty())
    throw InputError("command line", "--application",
                     "a custom topology or platform needs its application file (--application FILE)");
  if (!files.topology.empty()) {
    c.topology_doc = load_json_file(files.topology);
    c.topology_file = files.topology;
    c.base_dir = folder_of(files.topology);
  } else if (!files.platform.empty()) {
    c.topology_doc = json::object();
    c.topology_file = "<command line>";
    c.base_dir = ".";
  } else {
    c.topology_doc = parse_json_text(default_scenario::topology(), c.topology_file);
  }
  if (!files.platform.empty()) {
    if (!c.topology_doc.is_object()) throw InputError(c.topology_file, "", "expected an object");
    c.topology_doc["platform"] = std::filesystem::absolute(files.platform).string();
  }
  set_platform_options(c.topology_doc, files);
  if (!files.application.empty()) {
    c.application_doc = load_json_file(files.application);
    c.application_file = files.application;
  } else {
    c.application_doc = parse_json_text(default_scenario::application(), c.application_file);
  }
  if (!files.timers.empty()) {
    c.timers_doc = load_json_file(files.timers);
    c.timers_file = files.timers;
  } else if (custom) {
    c.timers_doc = json::object(); // no timer: no periodic checkpoint, no garbage collection
    c.timers_file = "<none>";
  } else {
    c.timers_doc = parse_json_text(default_scenario::timers(), c.timers_file);
  }
  for (const auto& o : overrides) apply_override(c, o);
  c.options.overrides = overrides;
  return c;
}

std::vector<std::string> failure_free_assignments(const json& topology) {
  json failures{{"model", "none"}};
  if (topology.contains("failures") && topology["failures"].is_object())
    for (const char* key : {"restart_overhead", "detection_delay", "downtime", "overlap", "restart"})
      if (topology["failures"].contains(key)) failures[key] = topology["failures"][key];
  std::vector<std::string> out{"topology/failures=" + failures.dump(), "topology/mtbf=\"never\""};
  if (topology.contains("link_failures")) out.push_back("topology/link_failures=[]");
  return out;
}

void apply_override(RunConfig& config, const std::string& assignment) {
  const std::string where = "--set " + assignment;
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("command line", where, "expected PATH=VALUE, e.g. topology/mtbf=5h");
  std::string path = assignment.substr(0, eq);
  std::string text = assignment.substr(eq + 1);
  auto slash = path.find('/');
  std::string doc_name = path.substr(0, slash);
  json* doc = doc_name == "topology"      ? &config.topology_doc
              : doc_name == "application" ? &config.application_doc
              : doc_name == "timers"      ? &config.timers_doc
                                          : nullptr;
  if (!doc || slash == std::string::npos || slash + 1 == path.size())
    throw InputError("command line", where,
                     "the path must start with topology/, application/ or timers/ and name a field, e.g. "
                     "application/clusters/0/compute/mean=50s");
  json value;
  try {
    value = json::parse(text);
  } catch (const json::parse_error&) {
    value = text; // not JSON: a string ("5h", "c0")
  }
  try {
    json::json_pointer ptr(path.substr(slash));
    // Creating a missing field is fine (the loader will reject an unknown one); an index past
    // the end of an array is not.
    const auto parent = ptr.parent_pointer();
    if (!parent.empty() && !doc->contains(parent))
      throw InputError("command line", where, fmt::format("{} has no field {}", doc_name, parent.to_string()));
    const json& container = parent.empty() ? *doc : doc->at(parent);
    if (container.is_array() && ptr.back() != "-") {
      const std::string& token = ptr.back();
      if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos)
        throw InputError("command line", where,
                         fmt::format("\"{}\" is not an index of the array {}", token, parent.to_string()));
      if (std::stoul(token) >= container.size())
        throw InputError("command line", where,
                         fmt::format("index {} is past the end of {} ({} elements; use - to append)", token,
                                     parent.to_string(), container.size()));
    }
    (*doc)[ptr] = value;
  } catch (const json::exception& e) {
    throw InputError("command line", where, fmt::format("cannot set this path: {}", e.what()));
  }
}

} // namespace ckptsim
