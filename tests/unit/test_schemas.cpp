/* Tests of the JSON Schema files under schemas/ against the C++ loaders, which are the reference:
 * each schema parses and uses only keywords that the small validator below implements; every
 * example under workloads/ passes both the loader and its schema; the fields a schema allows are
 * exactly those the loader knows; and schema and loader agree on a table of valid and broken
 * documents. No JSON Schema library is packaged here, hence the minimal draft 2020-12 subset. */
#include "sim/app/workload.hpp"
#include "sim/cli/default_scenario.hpp"
#include "sim/cli/sweep/sweep_spec.hpp"
#include "sim/config/application.hpp"
#include "sim/config/timers.hpp"
#include "sim/config/topology.hpp"
#include "sim/failures/source.hpp"
#include "sim/platform/layout.hpp"
#include "sim/scenario/readers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <regex>
#include <set>

namespace ckptsim {
namespace {

namespace fs = std::filesystem;

const fs::path kSchemas = fs::path(CKPTSIM_SOURCE_DIR) / "schemas";
const std::set<std::string> kDocKeys{"$schema", "comment", "//"};

/* The subset of draft 2020-12 that the schemas may use. A schema using any other keyword fails
 * the keyword test, so nothing in a schema goes unchecked here. */
class MiniValidator {
 public:
  explicit MiniValidator(json root)
      : root_(std::move(root)) {}

  /** @brief Keywords of @p s (and its subschemas) that this validator does not implement. */
  void unsupported(const json& s, const std::string& at, std::vector<std::string>& out) const {
    static const std::set<std::string> keywords{"$schema",
                                                "$id",
                                                "$defs",
                                                "$ref",
                                                "title",
                                                "description",
                                                "type",
                                                "enum",
                                                "const",
                                                "minimum",
                                                "maximum",
                                                "exclusiveMinimum",
                                                "pattern",
                                                "minLength",
                                                "items",
                                                "minItems",
                                                "properties",
                                                "required",
                                                "additionalProperties",
                                                "dependentSchemas",
                                                "oneOf",
                                                "anyOf",
                                                "allOf",
                                                "not",
                                                "if",
                                                "then",
                                                "else"};
    if (s.is_boolean()) return;
    if (!s.is_object()) {
      out.push_back(at + " (not a schema)");
      return;
    }
    for (const auto& [k, v] : s.items()) {
      if (!keywords.count(k))
        out.push_back(at + "/" + k);
      else if (k == "$defs" || k == "properties" || k == "dependentSchemas")
        for (const auto& [name, sub] : v.items()) unsupported(sub, at + "/" + k + "/" + name, out);
      else if (k == "oneOf" || k == "anyOf" || k == "allOf")
        for (std::size_t i = 0; i < v.size(); i++) unsupported(v[i], at + "/" + k + "/" + std::to_string(i), out);
      else if (k == "items" || k == "additionalProperties" || k == "not" || k == "if" || k == "then" || k == "else")
        unsupported(v, at + "/" + k, out);
    }
  }

  bool valid(const json& doc) const { return check(root_, doc); }

 private:
  static bool has_type(const json& v, const std::string& t) {
    if (t == "integer")
      return v.is_number_integer() || (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
    return (t == "object" && v.is_object()) || (t == "array" && v.is_array()) || (t == "string" && v.is_string()) ||
           (t == "number" && v.is_number()) || (t == "boolean" && v.is_boolean()) || (t == "null" && v.is_null());
  }

  bool check(const json& s, const json& v) const {
    if (s.is_boolean()) return s.get<bool>();
    if (s.contains("$ref") && !check(root_.at(json::json_pointer(s["$ref"].get<std::string>().substr(1))), v))
      return false;
    if (s.contains("type")) {
      json types = s["type"].is_array() ? s["type"] : json::array({s["type"]});
      if (std::none_of(types.begin(), types.end(), [&](const json& t) { return has_type(v, t); })) return false;
    }
    if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end()) return false;
    if (s.contains("const") && s["const"] != v) return false;
    if (v.is_number()) {
      const double x = v.get<double>();
      if ((s.contains("minimum") && x < s["minimum"].get<double>()) ||
          (s.contains("maximum") && x > s["maximum"].get<double>()) ||
          (s.contains("exclusiveMinimum") && x <= s["exclusiveMinimum"].get<double>()))
        return false;
    }
    if (v.is_string()) {
      const auto& text = v.get_ref<const std::string&>();
      if (s.contains("pattern") && !std::regex_search(text, std::regex(s["pattern"].get<std::string>()))) return false;
      if (s.contains("minLength") && text.size() < s["minLength"].get<std::size_t>()) return false;
    }
    if (v.is_array()) {
      if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>()) return false;
      if (s.contains("items"))
        for (const auto& item : v)
          if (!check(s["items"], item)) return false;
    }
    if (v.is_object() && !check_object(s, v)) return false;
    auto count = [&](const char* key) {
      return std::count_if(s[key].begin(), s[key].end(), [&](const json& sub) { return check(sub, v); });
    };
    if ((s.contains("oneOf") && count("oneOf") != 1) || (s.contains("anyOf") && count("anyOf") == 0) ||
        (s.contains("allOf") && count("allOf") != static_cast<std::ptrdiff_t>(s["allOf"].size())))
      return false;
    if (s.contains("not") && check(s["not"], v)) return false;
    if (s.contains("if")) {
      const char* branch = check(s["if"], v) ? "then" : "else";
      if (s.contains(branch) && !check(s[branch], v)) return false;
    }
    return true;
  }

  bool check_object(const json& s, const json& v) const {
    for (const auto& r : s.value("required", json::array()))
      if (!v.contains(r.get<std::string>())) return false;
    for (const auto& [k, x] : v.items()) {
      if (s.contains("properties") && s["properties"].contains(k)) {
        if (!check(s["properties"][k], x)) return false;
      } else if (s.contains("additionalProperties") && !check(s["additionalProperties"], x)) {
        return false;
      }
      if (s.contains("dependentSchemas") && s["dependentSchemas"].contains(k) && !check(s["dependentSchemas"][k], v))
        return false;
    }
    return true;
  }

  json root_;
};

MiniValidator schema(const std::string& name) {
  return MiniValidator(load_json_file((kSchemas / (name + ".schema.json")).string()));
}

// The two-cluster federation the table of documents below refers to (c0: 4 nodes, c1: 2 nodes).
Topology two_cluster_topology() {
  return parse_topology(json::parse(R"({"clusters": [
      {"name": "c0", "nodes": 4, "san": {"latency": 0, "bandwidth": 1e8}},
      {"name": "c1", "nodes": 2, "san": {"latency": 0, "bandwidth": 1e8}}],
    "wan": [[{"latency": 0, "bandwidth": 1e8}]]})"),
                        "t.json", "");
}

// Loads a document as ckptsim does, node names included (they resolve against the federation).
void load(const std::string& kind, const json& doc, const std::string& file, const std::string& dir,
          const Topology& topo) {
  if (kind == "topology") {
    Topology t = parse_topology(doc, file, dir);
    if (t.platform_xml.empty()) make_failure_source({t, FederationLayout(t), 1});
  } else if (kind == "application") {
    Application app = parse_application(doc, file, topo);
    if (topo.platform_xml.empty()) {
      make_workload(app, FederationLayout(topo));
      make_failure_source({topo, FederationLayout(topo), 1}, app.scripted_failures);
    }
  } else {
    parse_timers(doc, file, topo);
  }
}

// The kind of an input file, recognised from its content as `ckptsim validate` does.
std::string kind_of(const json& doc) {
  if (doc.contains("kind")) return "application";
  if (doc.contains("wan") || doc.contains("mtbf") || doc.contains("platform") ||
      (doc.contains("clusters") && doc["clusters"].is_array()))
    return "topology";
  return "timers";
}

TEST(Schemas, ParseAndUseOnlyImplementedKeywords) {
  for (const std::string name : {"topology", "application", "timers"}) {
    json s = load_json_file((kSchemas / (name + ".schema.json")).string());
    EXPECT_EQ(s["$schema"], "https://json-schema.org/draft/2020-12/schema") << name;
    EXPECT_EQ(s["$id"], name + ".schema.json");
    std::vector<std::string> unknown;
    MiniValidator(s).unsupported(s, name, unknown);
    EXPECT_TRUE(unknown.empty()) << name << ": " << testing::PrintToString(unknown);
  }
}

// The JSON files of workloads/ and platforms/ (whose application files are written for any platform:
// checked against the default topology).
std::vector<fs::path> shipped_json_files() {
  std::vector<fs::path> files;
  for (const char* dir : {"workloads", "platforms"})
    for (const auto& e : fs::recursive_directory_iterator(fs::path(CKPTSIM_SOURCE_DIR) / dir))
      if (e.path().extension() == ".json") files.push_back(e.path());
  return files;
}

TEST(Schemas, ShippedWorkloadsPassTheLoaderAndTheirSchema) {
  int checked = 0;
  for (const auto& path : shipped_json_files()) {
    const fs::directory_entry e(path);
    SCOPED_TRACE(e.path().string());
    const std::string name = e.path().filename().string();
    // Sweep files go through the sweep loader (which checks the files they name); drivers.json
    // is read by plots/make_all.py, which the plots test runs.
    if (name.ends_with(".sweep.json")) {
      EXPECT_NO_THROW(sweep::load_sweep(e.path().string()));
      checked++;
      continue;
    }
    if (name == "drivers.json") continue;
    const std::string dir = e.path().parent_path().string();
    json doc = load_json_file(e.path().string());
    const std::string kind = kind_of(doc);
    // Applications and timers refer to the topology of their folder, else to the default one.
    Topology topo = parse_topology(parse_json_text(default_scenario::topology(), "default"), "default", "");
    for (const auto& f : fs::directory_iterator(dir))
      if (f.path().extension() == ".json" && kind_of(load_json_file(f.path().string())) == "topology")
        topo = parse_topology(load_json_file(f.path().string()), f.path().string(), dir);
    EXPECT_NO_THROW(load(kind, doc, e.path().string(), dir, topo));
    EXPECT_TRUE(schema(kind).valid(doc)) << "rejected by schemas/" << kind << ".schema.json";
    checked++;
  }
  EXPECT_GE(checked, 3);
}

// The field names the loader lists when it meets an unknown field "zz" in @p doc.
std::set<std::string> loader_fields(const std::function<void()>& parse) {
  try {
    parse();
  } catch (const InputError& e) {
    const std::string& p = e.problem();
    const std::string head = "known fields here: ";
    auto b = p.find(head);
    EXPECT_NE(b, std::string::npos) << p;
    std::set<std::string> out;
    std::string list = p.substr(b + head.size(), p.rfind(')') - b - head.size());
    for (std::size_t pos = 0; pos <= list.size();) {
      auto comma = std::min(list.find(", ", pos), list.size());
      out.insert(list.substr(pos, comma - pos));
      pos = comma + 2;
    }
    return out;
  }
  ADD_FAILURE() << "the loader accepted an unknown field";
  return {};
}

std::set<std::string> schema_fields(const std::string& name, const std::string& pointer) {
  json s = load_json_file((kSchemas / (name + ".schema.json")).string());
  std::set<std::string> out;
  for (const auto& [k, v] : s.at(json::json_pointer(pointer + "/properties")).items())
    if (!kDocKeys.count(k)) out.insert(k);
  return out;
}

TEST(Schemas, AllowExactlyTheFieldsTheLoaderKnows) {
  const Topology topo = two_cluster_topology();
  auto topology = [&](const char* text) { return loader_fields([&] { parse_topology(json::parse(text), "t", ""); }); };
  auto application = [&](const char* text) {
    return loader_fields([&] { parse_application(json::parse(text), "a", topo); });
  };
  const char* link = R"({"latency": 0, "bandwidth": 1})";
  const std::string cluster = std::string(R"({"name": "c0", "nodes": 1, "san": )") + link + "}";
  EXPECT_EQ(topology((R"({"zz": 0, "clusters": [)" + cluster + "]}").c_str()), schema_fields("topology", ""));
  EXPECT_EQ(
      topology((R"({"clusters": [{"zz": 0, "name": "c0", "nodes": 1, "san": )" + std::string(link) + "}]}").c_str()),
      schema_fields("topology", "/$defs/cluster"));
  EXPECT_EQ(topology(R"({"clusters": [{"name": "c0", "nodes": 1, "san": {"zz": 0, "latency": 0, "bandwidth": 1}}]})"),
            schema_fields("topology", "/$defs/link"));
  EXPECT_EQ(
      topology((R"({"controller": {"zz": 0, "latency": 0, "bandwidth": 1}, "clusters": [)" + cluster + "]}").c_str()),
      schema_fields("topology", "/$defs/controller"));
  EXPECT_EQ(topology((R"({"failures": {"zz": 0}, "clusters": [)" + cluster + "]}").c_str()),
            schema_fields("topology", "/$defs/failures"));

  const char* c1 = R"({"cluster": "c1", "compute": 1})";
  EXPECT_EQ(
      application(
          (std::string(
               R"({"zz": 0, "kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute": 1}, )") +
           c1 + "]}")
              .c_str()),
      schema_fields("application", "/$defs/stochastic"));
  EXPECT_EQ(
      application(
          (std::string(
               R"({"kind": "stochastic", "total_time": 1, "clusters": [{"zz": 0, "cluster": "c0", "compute": 1}, )") +
           c1 + "]}")
              .c_str()),
      schema_fields("application", "/$defs/stochasticCluster"));
  EXPECT_EQ(application(R"({"kind": "stochastic", "total_time": 1,
                            "clusters": [{"cluster": "*", "compute": 1, "send": {"zz": 0}}]})"),
            schema_fields("application", "/$defs/stochasticCluster/then/properties/send"));
  EXPECT_EQ(
      application(
          (std::string(
               R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute": {"zz": 0, "distribution": "constant", "mean": 1}}, )") +
           c1 + "]}")
              .c_str()),
      schema_fields("application", "/$defs/distribution/oneOf/1"));
  EXPECT_EQ(
      application(
          (std::string(
               R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute": {"zz": 0, "distribution": "uniform", "min": 0, "max": 1}}, )") +
           c1 + "]}")
              .c_str()),
      schema_fields("application", "/$defs/distribution/oneOf/2"));
  EXPECT_EQ(application(R"({"zz": 0, "kind": "scripted", "nodes": {}})"),
            schema_fields("application", "/$defs/scripted"));
  EXPECT_EQ(application(R"({"kind": "scripted", "nodes": {"c0-0": [{"zz": 0, "compute": 1}]}})"),
            schema_fields("application", "/$defs/action/oneOf/0"));
  EXPECT_EQ(application(R"({"kind": "scripted", "nodes": {"c0-0": [{"zz": 0, "send": 1}]}})"),
            schema_fields("application", "/$defs/action/oneOf/1"));
  EXPECT_EQ(application(R"({"kind": "scripted", "nodes": {}, "failures": [{"zz": 0, "date": 1, "node": 1}]})"),
            schema_fields("application", "/$defs/failure"));

  EXPECT_EQ(application(R"({"zz": 0, "kind": "stencil", "dims": 2, "width": 6, "height": 4, "iterations": 1,
                            "task_cost": 1})"),
            schema_fields("application", "/$defs/stencil"));

  EXPECT_EQ(loader_fields([&] { parse_timers(json::parse(R"({"zz": 0})"), "x", topo); }), schema_fields("timers", ""));
  const std::vector<std::string> names = TimerRegistry::instance().names(); // registered by the plug-ins
  const std::set<std::string> timers(names.begin(), names.end());
  EXPECT_EQ(timers, schema_fields("timers", "/$defs/timerSet"));
}

/* Documents on which schema and loader must agree. Mistakes that need more than one value
 * (WAN shape, cluster names, date order) are the loader's alone and are tested elsewhere. */
struct Case {
  const char* kind;
  bool ok;
  const char* doc;
};
#define LINK R"({"latency": 0, "bandwidth": 1})"
#define C1 R"({"name": "c", "nodes": 1, "san": )" LINK "}"
const Case kCases[] = {
    {"topology", true, R"({"clusters": [)" C1 "]}"},
    {"topology", true, R"({"$schema": "x", "comment": "c", "clusters": [{"name": "a", "nodes": 2, "san": {"latency":
      "10us", "bandwidth": "1Gbps", "//": "x"}, "speed": "2Gf", "checkpoint_size": "4KiB", "storage": "buddy"},
      {"name": "b", "nodes": 1, "san": {"latency": "1 ms", "bandwidth": 1e9}}], "wan": [[{"latency": "150us",
      "bandwidth": "100MBps"}]], "controller": {"latency": 0, "bandwidth": "10GBps"}, "mtbf": "never", "failures":
      {"model": "weibull", "shape": 0.7, "downtime": "1min", "detection_delay": 1, "restart_overhead": "10s",
      "overlap": "defer"}})"},
    {"topology", true, R"({"mtbf": "inf", "clusters": [)" C1 "]}"},
    {"topology", true, R"({"mtbf": null, "failures": {"model": "none", "overlap": "allow"}, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"mtbff": 1, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"mtbf": "1h"})"},
    {"topology", false, R"({"clusters": []})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1}]})"},
    {"topology", false, R"({"clusters": [{"name": "c 0", "nodes": 1, "san": {"latency": 0, "bandwidth": 1}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": "1", "san": {"latency": 0, "bandwidth": 1}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 0, "san": {"latency": 0, "bandwidth": 1}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "san": {"latency": 0, "bandwidth": 0}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "san": {"latency": 0, "bandwidth": "0MBps"}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "san": {"latency": 0, "bandwidth": "-1MBps"}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "san": {"latency": 0, "bandwidth": "inf"}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "san": {"latency": "-1us", "bandwidth": 1}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "san": {"latency": "1MBps", "bandwidth": 1}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "san": {"latency": "nan", "bandwidth": 1}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "speed": "1Gbps", "san": )" LINK "}]}"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "checkpoint_size": "-1KB", "san": )" LINK "}]}"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "san": {"latency": 0, "bandwidth": 1, "zz": 0}}]})"},
    {"topology", false, R"({"clusters": [{"name": "c", "nodes": 1, "zz": 0, "san": )" LINK "}]}"},
    {"topology", false, R"({"failures": {"zz": 0}, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"mtbf": 0, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"mtbf": "0h", "clusters": [)" C1 "]}"},
    {"topology", false, R"({"failures": {"model": "poisson"}, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"failures": {"overlap": "sometimes"}, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"failures": {"shape": 2}, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"failures": {"model": "weibull", "shape": 0}, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"failures": {"model": "trace"}, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"failures": {"downtime": "-1s"}, "clusters": [)" C1 "]}"},
    {"topology", true, R"({"failures": {"downtime": {"distribution": "lognormal", "mean": "1h", "stddev": "2h"}},
      "clusters": [)" C1 "]}"},
    {"topology", true, R"({"failures": {"downtime": {"distribution": "weibull", "shape": 0.7, "scale": "30min"}},
      "clusters": [)" C1 "]}"},
    {"topology", true, R"({"failures": {"downtime": {"distribution": "constant", "mean": 0}}, "clusters": [)" C1 "]}"},
    {"topology", false, R"({"failures": {"downtime": {"distribution": "lognormal", "mu": 1, "sigma": 1, "mean": 3}},
      "clusters": [)" C1 "]}"},
    {"topology", false,
     R"({"failures": {"downtime": {"distribution": "weibull", "shape": 0.7}}, "clusters": [)" C1 "]}"},
    {"topology", false,
     R"({"failures": {"downtime": {"distribution": "exponential", "mean": 0}}, "clusters": [)" C1 "]}"},

    {"application", true, R"({"kind": "stochastic", "total_time": "1h", "clusters": [{"cluster": "c0", "compute":
      "100s", "send": {"c1": 0.5, "comment": "x"}}, {"cluster": "c1", "compute": {"distribution": "uniform", "min": 0,
      "max": "2s"}}]})"},
    {"application", true, R"({"kind": "stochastic", "total_time": 60, "deterministic": false, "message_size": "4KiB",
      "clusters": [{"cluster": "c0", "compute": {"distribution": "constant", "mean": 1}, "message_size": 8},
      {"cluster": "c1", "compute": 2}]})"},
    {"application", true, R"({"kind": "stochastic", "total_time": 60, "clusters": [{"cluster": "c0", "compute":
      {"distribution": "lognormal", "mu": 0, "sigma": 0.5}}, {"cluster": "c1", "compute": {"distribution": "weibull",
      "shape": 2, "mean": "3s"}}]})"},
    {"application", false, R"({"kind": "random", "total_time": 1, "clusters": []})"},
    {"application", false, R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute": 1,
      "zz": 0}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute":
      {"distribution": "constant", "mean": 1, "zz": 0}}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "clusters": [{"cluster": "c0", "compute": 1},
      {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "seed": 1, "total_time": 1, "clusters": [{"cluster": "c0",
      "compute": 1}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "nodes": {}, "total_time": 1, "clusters": [{"cluster": "c0",
      "compute": 1}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "total_time": "0s", "clusters": [{"cluster": "c0",
      "compute": 1}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute": 1,
      "send": {"c1": 1.5}}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute": 1,
      "send": {"c1": -0.1}}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute": 1,
      "send": {"c1": "0.5"}}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute": 0},
      {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute":
      "10MB"}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute":
      {"distribution": "uniform", "max": 1}}, {"cluster": "c1", "compute": 1}]})"},
    {"application", false, R"({"kind": "stochastic", "total_time": 1, "clusters": [{"cluster": "c0", "compute":
      {"distribution": "normal", "mean": 1}}, {"cluster": "c1", "compute": 1}]})"},

    {"application", true, R"({"kind": "scripted", "nodes": {"c0-0": [{"compute": "5s"}, {"send": "c1-0", "size":
      "1KiB", "label": "m1"}], "comment": "x"}, "failures": [{"date": "2s", "node": 5}], "expected": {"a": [1]}})"},
    {"application", false, R"({"kind": "scripted", "nodes": {"c0-0": [{"label": "m1"}]}})"},
    {"application", false, R"({"kind": "scripted", "nodes": {"c0-0": [{"compute": 1, "send": "c1-0"}]}})"},
    {"application", false, R"({"kind": "scripted", "nodes": {"c0-0": [{"compute": 1, "size": 1}]}})"},
    {"application", false, R"({"kind": "scripted", "nodes": {"c0-0": [{"compute": "-1s"}]}})"},
    {"application", false, R"({"kind": "scripted", "nodes": {"c0-0": [{"send": true}]}})"},
    {"application", false, R"({"kind": "scripted", "nodes": {"c0-0": [{"send": ""}]}})"},
    {"application", false, R"({"kind": "scripted", "nodes": {}, "failures": [{"date": 1}]})"},
    {"application", false, R"({"kind": "scripted", "nodes": {}, "failures": [{"date": 1, "node": 0, "zz": 0}]})"},
    {"application", false, R"({"kind": "scripted", "nodes": {"c0-0": [{"send": 1, "zz": 0}]}})"},
    {"application", false, R"({"kind": "scripted", "nodes": {}, "total_time": 1})"},

    {"application", true, R"({"kind": "stencil", "dims": 1, "width": 12, "iterations": 3, "task_cost": "1ms"})"},
    {"application", true, R"({"kind": "stencil", "dims": 2, "width": 6, "height": 4, "iterations": 3, "task_cost": 1,
      "cell_size": "4KiB", "grid_columns": 3, "schedule": "reorder", "task_descriptor_size": 0, "deterministic":
      false, "comment": "x"})"},
    {"application", false, R"({"kind": "stencil", "dims": 3, "width": 12, "iterations": 3, "task_cost": 1})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 0, "iterations": 3, "task_cost": 1})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12.5, "iterations": 3, "task_cost": 1})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12, "height": 1, "iterations": 3,
      "task_cost": 1})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12, "grid_columns": 2, "iterations": 3,
      "task_cost": 1})"},
    {"application", false, R"({"kind": "stencil", "dims": 2, "width": 12, "iterations": 3, "task_cost": 1})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12, "task_cost": 1})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12, "iterations": 3, "task_cost": "0s"})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12, "iterations": 3, "task_cost": 1,
      "cell_size": "0KiB"})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12, "iterations": 3, "task_cost": 1,
      "cell_size": 0})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12, "iterations": 3, "task_cost": 1,
      "schedule": "random"})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12, "iterations": 3, "task_cost": 1,
      "task_descriptor_size": "-1KiB"})"},
    {"application", false, R"({"kind": "stencil", "dims": 2, "width": 6, "height": 4, "grid_columns": 0,
      "iterations": 3, "task_cost": 1})"},
    {"application", false, R"({"kind": "stencil", "dims": 1, "width": 12, "iterations": 3, "task_cost": 1,
      "total_time": 1})"},

    {"timers", true, R"({"default": {"checkpoint_period": "30min", "gc_period": null}, "clusters": {"c0":
      {"checkpoint_period": "inf"}, "comment": "x"}, "processes": {"c1-1": {"gc_period": "never"}}})"},
    {"timers", true, R"({})"},
    {"timers", false, R"({"default": {"checkpoint_perod": "1h"}})"},
    {"timers", false, R"({"default": {"checkpoint_period": 0}})"},
    {"timers", false, R"({"default": {"checkpoint_period": "0min"}})"},
    {"timers", false, R"({"default": {"checkpoint_period": "-5min"}})"},
    {"timers", false, R"({"default": {"checkpoint_period": "5MB"}})"},
    {"timers", false, R"({"default": {"checkpoint_period": true}})"},
    {"timers", false, R"({"default": 3600})"},
    {"timers", false, R"({"defaults": {}})"},
    {"timers", false, R"({"clusters": {"c0": {"zz": "1h"}}})"},
};
#undef C1
#undef LINK

TEST(Schemas, AgreeWithTheLoaderOnValidAndBrokenDocuments) {
  const Topology topo = two_cluster_topology();
  for (const auto& c : kCases) {
    json doc = json::parse(c.doc);
    std::string why = "accepted";
    try {
      load(c.kind, doc, "doc.json", "", topo);
    } catch (const InputError& e) {
      why = e.what();
    }
    EXPECT_EQ(why == "accepted", c.ok) << "loader: " << why << "\n  on " << c.doc;
    EXPECT_EQ(schema(c.kind).valid(doc), c.ok) << "schemas/" << c.kind << ".schema.json on " << c.doc;
  }
}

} // namespace
} // namespace ckptsim
