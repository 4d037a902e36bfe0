/* Tests of input validation: one test per class of mistake in the topology, application, timer
 * and failure-trace files, each checking the exact file, JSON path and message the user reads
 * ("file: /json/path: problem"); then the --set PATH=VALUE overrides applied to the documents
 * before they are parsed (apply_override, load_scenario). */
#include "sim/app/scripted/spec.hpp"
#include "sim/app/stochastic/spec.hpp"
#include "sim/cli/scenario.hpp"
#include "sim/config/application.hpp"
#include "sim/config/timers.hpp"
#include "sim/config/topology.hpp"
#include "sim/failures/trace/trace.hpp"
#include "sim/failures/weibull/weibull.hpp"
#include "sim/scenario/readers.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

namespace ckptsim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Two clusters c0 (4 nodes) and c1 (2 nodes), as a user would write them.
json two_clusters() {
  return json::parse(R"({
    "clusters": [
      {"name": "c0", "nodes": 4, "san": {"latency": "10us", "bandwidth": "80MBps"}},
      {"name": "c1", "nodes": 2, "san": {"latency": "10us", "bandwidth": "80MBps"}}],
    "wan": [[{"latency": "150us", "bandwidth": "100MBps"}]],
    "mtbf": "10h"})");
}

json three_clusters() {
  json t = two_clusters();
  t["clusters"].push_back(t["clusters"][1]);
  t["clusters"][2]["name"] = "c2";
  json link = t["wan"][0][0];
  t["wan"] = json::array({json::array({link, link}), json::array({link})});
  return t;
}

Topology two_clusters_topology() { return parse_topology(two_clusters(), "topo.json", ""); }

json stochastic_app() {
  return json::parse(R"({
    "kind": "stochastic", "total_time": "1h",
    "clusters": [
      {"cluster": "c0", "compute": "100s", "send": {"c0": 0.5, "c1": 0.1}},
      {"cluster": "c1", "compute": {"distribution": "constant", "mean": 10}}]})");
}

json scripted_app() {
  return json::parse(R"({
    "kind": "scripted",
    "nodes": {"c0-0": [{"compute": "5s"}, {"send": "c1-0", "size": "1KiB", "label": "m1"}],
              "c1-0": [{"compute": 7}]},
    "failures": [{"date": "2s", "node": "c0-0"}, {"date": "9s", "node": 5}]})");
}

// Checks that f throws an InputError at file + path whose problem contains part.
testing::AssertionResult fails_with(const std::function<void()>& f, const std::string& file, const std::string& path,
                                    const std::string& part) {
  try {
    f();
  } catch (const InputError& e) {
    if (e.file() != file || e.path() != path || e.problem().find(part) == std::string::npos)
      return testing::AssertionFailure() << "got \"" << e.what() << "\", expected \"" << file << ": " << path << ": ..."
                                         << part << "...\"";
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "no InputError";
}

testing::AssertionResult topology_fails(const json& doc, const std::string& path, const std::string& part) {
  return fails_with([&] { parse_topology(doc, "topo.json", ""); }, "topo.json", path, part);
}
testing::AssertionResult application_fails(const json& doc, const std::string& path, const std::string& part) {
  return fails_with([&] { parse_application(doc, "app.json", two_clusters_topology()); }, "app.json", path, part);
}
testing::AssertionResult timers_fail(const json& doc, const std::string& path, const std::string& part) {
  return fails_with([&] { parse_timers(doc, "timers.json", two_clusters_topology()); }, "timers.json", path, part);
}

// A fresh folder per test under gtest's temporary directory.
std::string temp_dir() {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  auto dir = std::filesystem::path(testing::TempDir()) / (std::string("ckptsim_cfg_") + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string write(const std::string& dir, const std::string& name, const std::string& content) {
  std::string path = dir + "/" + name;
  std::ofstream(path) << content;
  return path;
}

TEST(ConfigTopology, ValidFileIsReadInSIUnits) {
  Topology t = parse_topology(two_clusters(), "topo.json", "");
  ASSERT_EQ(t.clusters.size(), 2u);
  EXPECT_EQ(t.clusters[1].nodes, 2);
  EXPECT_DOUBLE_EQ(t.clusters[0].san.latency, 10e-6);
  EXPECT_DOUBLE_EQ(t.clusters[0].san.bandwidth, 80e6);
  EXPECT_DOUBLE_EQ(t.wan[0][0].latency, 150e-6);
  EXPECT_DOUBLE_EQ(t.mtbf, 36000);
  EXPECT_EQ(t.failures.model, "exponential");
  EXPECT_EQ(t.failures.overlap, OverlapPolicy::Protocol);
  EXPECT_EQ(t.cluster_index("c1"), 1);
  EXPECT_EQ(t.cluster_index("c9"), -1);
}

TEST(ConfigTopology, DocumentationKeysAreAllowedEverywhere) {
  json t = two_clusters();
  t["$schema"] = "../schemas/topology.schema.json";
  t["comment"] = "top";
  t["clusters"][0]["comment"] = "a cluster";
  t["clusters"][0]["san"]["//"] = "a link";
  EXPECT_NO_THROW(parse_topology(t, "topo.json", ""));
}

TEST(ConfigDocumentationKeys, AreNeverReadAsClusterNodeOrTimerNames) {
  // Objects keyed by names (send, nodes, timer sets) accept the same documentation keys as others.
  json a = stochastic_app();
  a["clusters"][0]["send"]["comment"] = "per destination cluster";
  EXPECT_EQ(
      parse_application(a, "app.json", two_clusters_topology()).spec_as<StochasticSpec>().clusters[0].send_probability,
      (std::vector<double>{0.5, 0.1}));
  json s = scripted_app();
  s["nodes"]["comment"] = "node -> actions";
  EXPECT_EQ(parse_application(s, "app.json", two_clusters_topology()).spec_as<ScriptedSpec>().nodes.size(), 2u);
  json doc = json::parse(R"({"default": {"//": "x", "checkpoint_period": "1h"},
                             "clusters": {"comment": "x", "$schema": "x", "c0": {"comment": "x", "gc_period": "2h"}},
                             "processes": {"//": "x"}})");
  Timers t = parse_timers(doc, "timers.json", two_clusters_topology());
  EXPECT_EQ(t.per_cluster.size(), 1u);
  EXPECT_TRUE(t.per_process.empty());
  EXPECT_DOUBLE_EQ(t.period("gc_period", "c0", "c0-0"), 7200);
}

TEST(ConfigTopology, UnknownKeyListsTheKnownKeys) {
  json t = two_clusters();
  t["mtbff"] = "5h";
  EXPECT_TRUE(topology_fails(
      t, "/mtbff",
      "unknown field \"mtbff\" (did you mean \"mtbf\"? known fields here: clusters, clusters_at, controller, domains, "
      "failures, link_failures, mtbf, platform, sites, storage, wan)"));
  t = two_clusters();
  t["clusters"][1]["san"]["jitter"] = 0;
  EXPECT_TRUE(topology_fails(t, "/clusters/1/san/jitter",
                             "unknown field \"jitter\" (known fields here: bandwidth, "
                             "latency)"));
}

TEST(ConfigTopology, UnknownKeyOfASingleClusterTopologyStillListsWan) {
  json t = two_clusters();
  t["clusters"].erase(1);
  t.erase("wan");
  t["mtbfh"] = 1;
  EXPECT_TRUE(topology_fails(
      t, "/mtbfh",
      "unknown field \"mtbfh\" (did you mean \"mtbf\"? known fields here: clusters, clusters_at, controller, domains, "
      "failures, link_failures, mtbf, platform, sites, storage, wan)"));
}

TEST(ConfigTopology, MissingField) {
  json t = two_clusters();
  t["clusters"][0].erase("san");
  EXPECT_TRUE(topology_fails(t, "/clusters/0", "missing required field \"san\""));
  t = two_clusters();
  t.erase("clusters");
  EXPECT_TRUE(topology_fails(t, "", "missing required field \"clusters\""));
  t = two_clusters();
  t["wan"][0][0].erase("bandwidth");
  EXPECT_TRUE(topology_fails(t, "/wan/0/0", "missing required field \"bandwidth\""));
}

TEST(ConfigTopology, WrongType) {
  json t = two_clusters();
  t["clusters"][0]["nodes"] = "100";
  EXPECT_TRUE(topology_fails(t, "/clusters/0/nodes", "expected an integer, found string"));
  t = two_clusters();
  t["clusters"][1]["san"]["latency"] = true;
  EXPECT_TRUE(topology_fails(t, "/clusters/1/san/latency",
                             "expected a duration (a number in SI units or a string with a unit), found boolean"));
  t = two_clusters();
  t["clusters"] = json::object();
  EXPECT_TRUE(topology_fails(t, "/clusters", "expected a non-empty array of clusters"));
  t = two_clusters();
  t["clusters"][0] = "c0";
  EXPECT_TRUE(topology_fails(t, "/clusters/0", "expected an object, found string"));
  EXPECT_TRUE(topology_fails(json::array(), "", "expected an object, found array"));
}

TEST(ConfigTopology, NodeCountMustBeAPositiveInteger) {
  json t = two_clusters();
  t["clusters"][0]["nodes"] = 0;
  EXPECT_TRUE(topology_fails(t, "/clusters/0/nodes", "must be an integer within [1, 1000000], found 0"));
  t["clusters"][0]["nodes"] = 2.5;
  EXPECT_TRUE(topology_fails(t, "/clusters/0/nodes", "expected an integer, found 2.5"));
}

TEST(ConfigTopology, ZeroOrNegativeBandwidth) {
  json t = two_clusters();
  t["clusters"][0]["san"]["bandwidth"] = 0;
  EXPECT_TRUE(
      topology_fails(t, "/clusters/0/san/bandwidth", "must be a bandwidth greater than zero and finite, found 0"));
  t["clusters"][0]["san"]["bandwidth"] = "-1MBps";
  EXPECT_TRUE(topology_fails(t, "/clusters/0/san/bandwidth",
                             "must be a bandwidth greater than zero and finite, found \"-1MBps\""));
  t = two_clusters();
  t["wan"][0][0]["bandwidth"] = "inf";
  EXPECT_TRUE(
      topology_fails(t, "/wan/0/0/bandwidth", "must be a bandwidth greater than zero and finite, found \"inf\""));
}

TEST(ConfigTopology, NegativeOrNonNumericLatency) {
  json t = two_clusters();
  t["wan"][0][0]["latency"] = "-150us";
  EXPECT_TRUE(topology_fails(t, "/wan/0/0/latency", "must be a duration >= 0 and finite, found \"-150us\""));
  t["wan"][0][0]["latency"] = "nan";
  EXPECT_TRUE(topology_fails(t, "/wan/0/0/latency", "\"nan\" is not a duration"));
  t["wan"][0][0]["latency"] = "10MBps"; // a bandwidth where a duration is expected
  EXPECT_TRUE(topology_fails(t, "/wan/0/0/latency", "unknown unit \"MBps\" in \"10MBps\" for a duration"));
}

TEST(ConfigTopology, WanMatrixOfTheWrongShape) {
  json t = three_clusters();
  EXPECT_NO_THROW(parse_topology(t, "topo.json", ""));
  t["wan"].erase(1);
  EXPECT_TRUE(topology_fails(t, "/wan",
                             "expected a triangular matrix: an array of 2 rows for 3 clusters, row i holding the links "
                             "from cluster i to clusters i+1..2"));
  t = three_clusters();
  t["wan"][0].erase(1);
  EXPECT_TRUE(topology_fails(t, "/wan/0", "row 0 must hold 2 link(s) (to clusters 1..2), found 1"));
  t = three_clusters();
  t["wan"][1] = t["wan"][1][0];
  EXPECT_TRUE(topology_fails(t, "/wan/1", "row 1 must hold 1 link(s) (to clusters 2..2), found object"));
  t = two_clusters();
  t.erase("wan");
  EXPECT_TRUE(topology_fails(t, "", "missing required field \"wan\""));
}

TEST(ConfigTopology, DuplicateOrMalformedClusterName) {
  json t = two_clusters();
  t["clusters"][1]["name"] = "c0";
  EXPECT_TRUE(topology_fails(t, "/clusters/1/name", "duplicate cluster name \"c0\""));
  t["clusters"][1]["name"] = "c 1";
  EXPECT_TRUE(topology_fails(t, "/clusters/1/name", "a cluster name must be non-empty without spaces or '/'"));
}

TEST(ConfigTopology, BadFailureModelOrOverlapChoice) {
  json t = two_clusters();
  t["failures"] = {{"model", "poisson"}};
  EXPECT_TRUE(
      topology_fails(t, "/failures/model", "\"poisson\" is not one of: exponential, weibull, trace, lanl, fta, none"));
  t["failures"] = {{"overlap", "sometimes"}};
  EXPECT_TRUE(topology_fails(t, "/failures/overlap", "\"sometimes\" is not one of: protocol, allow, defer"));
  t["failures"] = {{"shape", 0.7}};
  EXPECT_TRUE(topology_fails(t, "/failures/shape", "\"shape\" is only meaningful with \"model\": \"weibull\""));
  t["failures"] = {{"model", "weibull"}, {"shape", 0}};
  EXPECT_TRUE(topology_fails(t, "/failures/shape", "the Weibull shape must be greater than zero"));
  t["failures"] = {{"model", "trace"}};
  EXPECT_TRUE(topology_fails(t, "/failures/trace", "missing required field \"trace\""));
  t["failures"] = {{"downtime", "-1min"}};
  EXPECT_TRUE(topology_fails(t, "/failures/downtime", "must be a duration >= 0 and finite"));
  t["mtbf"] = 0;
  t["failures"] = {{"model", "weibull"}, {"shape", 0.7}, {"overlap", "defer"}};
  EXPECT_TRUE(topology_fails(t, "/mtbf", "a period must be greater than zero (or null / \"inf\" for never), found 0"));
  t["mtbf"] = nullptr;
  Topology ok = parse_topology(t, "topo.json", "");
  EXPECT_EQ(ok.mtbf, kInf);
  EXPECT_EQ(ok.failures.model, "weibull");
  EXPECT_DOUBLE_EQ(ok.failures.settings_as<WeibullSettings>().shape, 0.7);
  EXPECT_EQ(ok.failures.overlap, OverlapPolicy::Defer);
}

TEST(ConfigJson, InvalidSyntaxNamesTheFileAndByteOffset) {
  std::string dir = temp_dir();
  std::string path = write(dir, "broken.json", "{\"a\": 1,}");
  EXPECT_TRUE(fails_with([&] { load_json_file(path); }, path, "", "invalid JSON at byte 9: "));
  EXPECT_TRUE(fails_with([&] { load_json_file(path); }, path, "", "line 1, column 9"));
  EXPECT_TRUE(fails_with([&] { load_json_file(dir + "/absent.json"); }, dir + "/absent.json", "",
                         "cannot open this file (" + dir + "/absent.json): No such file or directory"));
  // Comments are accepted: input files are meant to be annotated.
  EXPECT_EQ(load_json_file(write(dir, "c.json", "// note\n{\"a\": /* x */ 1}"))["a"], 1);
}

TEST(ConfigTrace, MissingTraceFile) {
  std::string dir = temp_dir();
  EXPECT_TRUE(fails_with([&] { load_failure_trace(dir + "/none.txt"); }, dir + "/none.txt", "",
                         "cannot open this failure trace file (" + dir + "/none.txt): No such file or directory"));
  json t = two_clusters();
  t["failures"] = {{"model", "trace"}, {"trace", "none.txt"}};
  // A relative trace file name is resolved against the topology's folder.
  EXPECT_TRUE(fails_with([&] { parse_topology(t, "topo.json", dir); }, dir + "/none.txt", "",
                         "cannot open this failure trace file (" + dir + "/none.txt)"));
}

TEST(ConfigTrace, ValidTraceWithCommentsAndUnits) {
  std::string dir = temp_dir();
  write(dir, "f.txt", "# date node\n\n10s c0-1\n1h 3   # by index\n1h c1-0\n");
  json t = two_clusters();
  t["failures"] = {{"model", "trace"}, {"trace", "f.txt"}};
  Topology ok = parse_topology(t, "topo.json", dir);
  const auto& trace = ok.failures.settings_as<TraceSettings>().events;
  ASSERT_EQ(trace.size(), 3u);
  EXPECT_DOUBLE_EQ(trace[1].date, 3600);
  EXPECT_EQ(trace[1].node, "3");
  EXPECT_EQ(trace[2].where, dir + "/f.txt: line 5");
}

TEST(ConfigTrace, ALineWithADurationIsALinkOutage) {
  std::string dir = temp_dir();
  write(dir, "f.txt", "10s c0-1\n1h wan_0_1 10min\n");
  json t = two_clusters();
  t["failures"] = {{"model", "trace"}, {"trace", "f.txt"}};
  Topology ok = parse_topology(t, "topo.json", dir);
  ASSERT_EQ(ok.failures.settings_as<TraceSettings>().events.size(), 1u);
  ASSERT_EQ(ok.link_failures.size(), 1u); // handed to the network faults, checked with the platform
  EXPECT_EQ(ok.link_failures[0].link, "wan_0_1");
  EXPECT_DOUBLE_EQ(ok.link_failures[0].down, 3600);
  EXPECT_DOUBLE_EQ(ok.link_failures[0].up, 4200);
  EXPECT_EQ(ok.link_failures[0].path, "line 2");
}

TEST(ConfigTrace, BadLines) {
  std::string dir = temp_dir();
  auto fails = [&](const std::string& content, const std::string& line, const std::string& part) {
    std::string path = write(dir, "t.txt", content);
    return fails_with([&] { load_failure_trace(path); }, path, line, part);
  };
  EXPECT_TRUE(fails("10s c0-1\n20s\n", "line 2", "expected \"<date> <node>\""));
  EXPECT_TRUE(fails("10s c0-1 c0-2 c0-3\n", "line 1", "expected \"<date> <node>\""));
  EXPECT_TRUE(fails("10s c0-1 c0-2\n", "line 1",
                    "a third field is a link outage's duration (\"<date> <link> <duration>\"): \"c0-2\" is not a "
                    "duration"));
  EXPECT_TRUE(fails("10s wan_0_1 0s\n", "line 1", "a link outage lasts > 0 and a finite time"));
  EXPECT_TRUE(fails("10s wan_0_1,wan_0_2 5s\n", "line 1", "one link per outage line"));
  EXPECT_TRUE(fails("soon c0-1\n", "line 1", "\"soon\" is not a duration"));
  EXPECT_TRUE(fails("10MB c0-1\n", "line 1", "unknown unit \"MB\" in \"10MB\" for a duration"));
  EXPECT_TRUE(fails("-1s c0-1\n", "line 1", "a failure date must be >= 0 and finite"));
  EXPECT_TRUE(fails("inf c0-1\n", "line 1", "a failure date must be >= 0 and finite"));
  EXPECT_TRUE(fails("1h c0-1\n# x\n30min c0-2\n", "line 3", "failure dates must be in non-decreasing order"));
}

TEST(ConfigApplication, ValidStochasticFile) {
  Application app = parse_application(stochastic_app(), "app.json", two_clusters_topology());
  const auto& st = app.spec_as<StochasticSpec>();
  EXPECT_DOUBLE_EQ(st.total_time, 3600);
  ASSERT_EQ(st.clusters.size(), 2u);
  EXPECT_EQ(st.clusters[0].compute.kind, Distribution::Kind::Exponential);
  EXPECT_DOUBLE_EQ(st.clusters[0].compute.mean, 100);
  EXPECT_EQ(st.clusters[1].compute.kind, Distribution::Kind::Constant);
  EXPECT_EQ(st.clusters[0].send_probability, (std::vector<double>{0.5, 0.1}));
  EXPECT_EQ(st.clusters[1].send_probability, (std::vector<double>{0, 0})); // absent "send": never sends
  EXPECT_DOUBLE_EQ(st.clusters[1].message_size, 1024);
  EXPECT_TRUE(app.deterministic);
}

TEST(ConfigApplication, UnknownKeyKindAndMissingField) {
  json a = stochastic_app();
  a["seed"] = 3;
  EXPECT_TRUE(application_fails(a, "/seed",
                                "unknown field \"seed\" (known fields here: clusters, deterministic, kind, "
                                "message_size, node_matrix, total_time)"));
  a = stochastic_app();
  a["kind"] = "random";
  EXPECT_TRUE(application_fails(a, "/kind", "\"random\" is not one of: stochastic, scripted"));
  a = stochastic_app();
  a.erase("total_time");
  EXPECT_TRUE(application_fails(a, "", "missing required field \"total_time\""));
  // A misspelt required field is named as the unknown field it is, with the field meant.
  a["totaltime"] = "10h";
  EXPECT_TRUE(application_fails(a, "/totaltime",
                                "unknown field \"totaltime\" (did you mean \"total_time\"? it is required here and "
                                "missing)"));
  a.erase("totaltime");
  a["message"] = 1; // a field not near the missing one: the missing one is what is said
  EXPECT_TRUE(application_fails(a, "", "missing required field \"total_time\""));
  a = stochastic_app();
  a["clusters"][1].erase("compute");
  EXPECT_TRUE(application_fails(a, "/clusters/1", "missing required field \"compute\""));
}

TEST(ConfigApplication, ProbabilityOutsideZeroOne) {
  json a = stochastic_app();
  a["clusters"][0]["send"]["c1"] = 1.5;
  EXPECT_TRUE(application_fails(a, "/clusters/0/send/c1", "a probability must be within [0, 1], found 1.5"));
  a["clusters"][0]["send"]["c1"] = -0.1;
  EXPECT_TRUE(application_fails(a, "/clusters/0/send/c1", "a probability must be within [0, 1], found -0.1"));
  a["clusters"][0]["send"]["c1"] = "10%";
  EXPECT_TRUE(application_fails(a, "/clusters/0/send/c1", "expected a number, found string"));
}

TEST(ConfigApplication, ClusterThatDoesNotExist) {
  json a = stochastic_app();
  a["clusters"][1]["cluster"] = "c9";
  EXPECT_TRUE(application_fails(a, "/clusters/1/cluster", "no cluster named \"c9\" in the topology (topo.json)"));
  a = stochastic_app();
  a["clusters"][0]["send"]["c9"] = 0.1;
  EXPECT_TRUE(application_fails(a, "/clusters/0/send/c9", "no cluster named \"c9\" in the topology (topo.json)"));
}

TEST(ConfigApplication, EveryClusterExactlyOnce) {
  json a = stochastic_app();
  a["clusters"].erase(1);
  EXPECT_TRUE(application_fails(a, "/clusters",
                                "cluster \"c1\" of the topology has no entry (every cluster needs one, or give a \"*\" "
                                "entry for those not listed)"));
  a = stochastic_app();
  a["clusters"][1]["cluster"] = "c0";
  EXPECT_TRUE(application_fails(a, "/clusters/1/cluster", "cluster \"c0\" is described twice"));
}

TEST(ConfigApplication, BadComputeDistribution) {
  json a = stochastic_app();
  a["clusters"][0]["compute"] = {{"distribution", "uniform"}, {"min", "10s"}, {"max", "5s"}};
  EXPECT_TRUE(application_fails(a, "/clusters/0/compute/max", "\"max\" must be greater than \"min\""));
  a["clusters"][0]["compute"] = {{"distribution", "normal"}, {"mean", 1}};
  EXPECT_TRUE(application_fails(a, "/clusters/0/compute/distribution",
                                "\"normal\" is not one of: exponential, constant, uniform"));
  a["clusters"][0]["compute"] = 0;
  EXPECT_TRUE(application_fails(a, "/clusters/0/compute", "must be a duration greater than zero and finite, found 0"));
}

TEST(ConfigApplication, NodeMatrixOfTheWrongShape) {
  json a = stochastic_app();
  json row = json::array({0, 0.1, 0, 0, 0, 0});
  a["node_matrix"] = json::array({row, row});
  EXPECT_TRUE(application_fails(a, "/node_matrix", "expected a 6 x 6 matrix (one row per node of the federation)"));
  a["node_matrix"] = json::array({row, row, row, row, row, json::array({0, 1})});
  EXPECT_TRUE(application_fails(a, "/node_matrix/5", "row 5 must hold 6 probabilities"));
  a["node_matrix"] = json::array({row, row, row, row, row, row});
  a["node_matrix"][2][4] = 2;
  EXPECT_TRUE(application_fails(a, "/node_matrix/2/4", "a probability must be within [0, 1], found 2"));
}

TEST(ConfigScripted, ValidScript) {
  Application app = parse_application(scripted_app(), "app.json", two_clusters_topology());
  const auto& script = app.spec_as<ScriptedSpec>().nodes;
  ASSERT_EQ(script.size(), 2u);
  EXPECT_EQ(script[0].node, "c0-0");
  ASSERT_EQ(script[0].actions.size(), 2u);
  EXPECT_EQ(script[0].actions[1].kind, ScriptedAction::Kind::Send);
  EXPECT_EQ(script[0].actions[1].to, "c1-0");
  EXPECT_DOUBLE_EQ(script[0].actions[1].size, 1024);
  EXPECT_EQ(script[0].actions[1].where, "app.json: /nodes/c0-0/1");
  ASSERT_EQ(app.scripted_failures.size(), 2u);
  EXPECT_EQ(app.scripted_failures[1].node, "5"); // a global node index
}

TEST(ConfigScripted, ActionWithoutComputeOrSend) {
  json a = scripted_app();
  a["nodes"]["c0-0"][1] = {{"size", 10}, {"label", "m1"}};
  EXPECT_TRUE(application_fails(a, "/nodes/c0-0/1", "an action needs \"compute\" or \"send\""));
  a["nodes"]["c0-0"][1] = {{"compute", 1}, {"size", 10}};
  EXPECT_TRUE(application_fails(a, "/nodes/c0-0/1/size", "unknown field \"size\" (known fields here: compute)"));
  a["nodes"]["c0-0"][1] = {{"send", true}};
  EXPECT_TRUE(application_fails(a, "/nodes/c0-0/1/send", "expected a node: a host name such as \"c0-3\""));
  a["nodes"]["c0-0"] = {{"compute", 1}};
  EXPECT_TRUE(application_fails(a, "/nodes/c0-0", "expected an array of actions"));
}

TEST(ConfigScripted, FailuresOutOfDateOrder) {
  json a = scripted_app();
  a["failures"][1]["date"] = "1s";
  EXPECT_TRUE(application_fails(a, "/failures/1/date", "failures must be listed in non-decreasing date order"));
  a = scripted_app();
  a["failures"][0].erase("node");
  EXPECT_TRUE(application_fails(a, "/failures/0", "missing required field \"node\""));
}

TEST(ConfigTimers, ValidTimersAndPrecedence) {
  json doc = json::parse(R"({"default": {"checkpoint_period": "30min", "gc_period": null},
                             "clusters": {"c1": {"checkpoint_period": "1h"}},
                             "processes": {"c1-1": {"checkpoint_period": "inf", "gc_period": "never"}}})");
  Timers t = parse_timers(doc, "timers.json", two_clusters_topology());
  EXPECT_DOUBLE_EQ(t.period("checkpoint_period", "c0", "c0-0"), 1800);
  EXPECT_DOUBLE_EQ(t.period("checkpoint_period", "c1", "c1-0"), 3600);
  EXPECT_EQ(t.period("checkpoint_period", "c1", "c1-1"), kInf);
  EXPECT_EQ(t.period("gc_period", "c0", "c0-0"), kInf);
  EXPECT_EQ(parse_timers(json::object(), "t", two_clusters_topology()).period("checkpoint_period", "c0", "c0-0"),
            kInf); // absent
}

TEST(ConfigTimers, UnknownTimerOrKey) {
  std::string known;
  for (const std::string& name : TimerRegistry::instance().names()) known += (known.empty() ? "" : ", ") + name;
  EXPECT_NE(known.find("checkpoint_period"), std::string::npos);
  json doc = {{"default", {{"checkpoint_perod", "1h"}}}};
  EXPECT_TRUE(timers_fail(
      doc, "/default/checkpoint_perod",
      "unknown timer \"checkpoint_perod\" (did you mean \"checkpoint_period\"? known timers: " + known + ")"));
  doc = {{"defaults", {{"checkpoint_period", "1h"}}}};
  EXPECT_TRUE(timers_fail(doc, "/defaults",
                          "unknown field \"defaults\" (did you mean \"default\"? known fields here: clusters, default, "
                          "processes)"));
  doc = {{"default", 3600}};
  EXPECT_TRUE(timers_fail(doc, "/default", "expected an object, found number"));
}

TEST(ConfigTimers, ClusterThatDoesNotExist) {
  json doc = {{"clusters", {{"c9", {{"checkpoint_period", "1h"}}}}}};
  EXPECT_TRUE(timers_fail(doc, "/clusters/c9", "no cluster named \"c9\" in the topology (topo.json)"));
}

TEST(ConfigTimers, BadPeriod) {
  json doc = {{"clusters", {{"c0", {{"gc_period", 0}}}}}};
  EXPECT_TRUE(timers_fail(doc, "/clusters/c0/gc_period",
                          "a period must be greater than zero (or null / \"inf\" for never), found 0"));
  doc = {{"default", {{"checkpoint_period", "-5min"}}}};
  EXPECT_TRUE(timers_fail(doc, "/default/checkpoint_period",
                          "a period must be greater than zero (or null / \"inf\" for never), found \"-5min\""));
  doc = {{"default", {{"checkpoint_period", "5MB"}}}};
  EXPECT_TRUE(timers_fail(doc, "/default/checkpoint_period", "unknown unit \"MB\" in \"5MB\" for a duration"));
}

// --set overrides edit the documents before the loaders see them.
RunConfig override_config() {
  RunConfig c;
  c.topology_doc = two_clusters();
  c.application_doc = stochastic_app();
  c.timers_doc = {{"default", {{"checkpoint_period", "30min"}}}};
  return c;
}

testing::AssertionResult override_fails(const std::string& assignment, const std::string& part) {
  RunConfig c = override_config();
  return fails_with([&] { apply_override(c, assignment); }, "command line", "--set " + assignment, part);
}

TEST(ConfigTopology, WithAPlatformXmlTheNetworkAndSpeedComeFromTheXml) {
  std::string dir = temp_dir();
  write(dir, "p.xml", "<platform version=\"4.1\"/>");
  json t = json::parse(R"({"platform": "p.xml", "clusters": [{"name": "c0", "speed": "2Gf"}]})");
  EXPECT_TRUE(fails_with([&] { parse_topology(t, "t.json", dir); }, "t.json", "/clusters/0/speed",
                         "with a \"platform\" XML the node speed comes from the XML"));
  t["clusters"][0] = {{"name", "c0"}, {"nodes", 3}};
  EXPECT_TRUE(fails_with([&] { parse_topology(t, "t.json", dir); }, "t.json", "/clusters/0/nodes",
                         "with a \"platform\" XML the hosts and links come from the XML"));
  t["clusters"][0] = {{"name", "c0"}, {"checkpoint_size", "2MB"}};
  EXPECT_DOUBLE_EQ(parse_topology(t, "t.json", dir).clusters[0].checkpoint_size, 2e6);
}

TEST(ConfigTopology, ClusterLevelAndControllerHostNeedAPlatformXml) {
  std::string dir = temp_dir();
  write(dir, "p.xml", "<platform version=\"4.1\"/>");
  json t = json::parse(R"({"platform": "p.xml", "clusters_at": "sites", "controller": {"host": "fe"}})");
  const Topology topo = parse_topology(t, "t.json", dir);
  EXPECT_EQ(topo.clusters_at, ClustersAt::Sites);
  EXPECT_EQ(topo.controller_host, "fe");
  t["clusters_at"] = "racks";
  EXPECT_TRUE(fails_with([&] { parse_topology(t, "t.json", dir); }, "t.json", "/clusters_at",
                         "\"racks\" is not one of: clusters, sites"));
  t["clusters_at"] = "clusters";
  t["controller"]["latency"] = "1us";
  EXPECT_TRUE(fails_with([&] { parse_topology(t, "t.json", dir); }, "t.json", "/controller/latency",
                         "the controller is an existing host (\"host\"): its links are the platform's"));
  json no_xml = two_clusters();
  no_xml["clusters_at"] = "sites";
  EXPECT_TRUE(topology_fails(no_xml, "/clusters_at", "only meaningful with a \"platform\" XML"));
  no_xml = two_clusters();
  no_xml["controller"] = {{"host", "c0-0"}};
  EXPECT_TRUE(topology_fails(no_xml, "/controller/host", "an existing host as controller needs a \"platform\" XML"));
}

TEST(ConfigOverride, SetsANestedValue) {
  RunConfig c = override_config();
  apply_override(c, "topology/clusters/1/san/latency=20us");
  apply_override(c, "application/clusters/0/send/c1=0.25");
  EXPECT_EQ(c.topology_doc["clusters"][1]["san"]["latency"], "20us");
  EXPECT_EQ(c.application_doc["clusters"][0]["send"]["c1"], 0.25);
  EXPECT_DOUBLE_EQ(parse_topology(c.topology_doc, "t", "").clusters[1].san.latency, 20e-6);
}

TEST(ConfigOverride, CreatesAMissingLeaf) {
  RunConfig c = override_config();
  apply_override(c, "timers/default/gc_period=2h");
  apply_override(c, "topology/failures={\"model\": \"none\"}");
  EXPECT_EQ(c.timers_doc["default"]["gc_period"], "2h");
  EXPECT_EQ(parse_topology(c.topology_doc, "t", "").failures.model, "none");
  // A created field is still checked by the loader: a typo is never silently ignored.
  apply_override(c, "topology/mtbff=5h");
  EXPECT_TRUE(fails_with([&] { parse_topology(c.topology_doc, "t", ""); }, "t", "/mtbff", "unknown field \"mtbff\""));
}

TEST(ConfigOverride, RejectsAnUnknownPrefixOrMalformedAssignment) {
  const std::string prefix = "the path must start with topology/, application/ or timers/ and name a field";
  EXPECT_TRUE(override_fails("platform/mtbf=5h", prefix));
  EXPECT_TRUE(override_fails("topology=5h", prefix));
  EXPECT_TRUE(override_fails("topology/=5h", prefix));
  EXPECT_TRUE(override_fails("topology/mtbf", "expected PATH=VALUE, e.g. topology/mtbf=5h"));
  EXPECT_TRUE(override_fails("=5h", "expected PATH=VALUE"));
}

TEST(ConfigOverride, RejectsAMissingParent) {
  EXPECT_TRUE(override_fails("topology/failures/model=none", "topology has no field /failures"));
  EXPECT_TRUE(override_fails("application/clusters/5/compute=1s", "application has no field /clusters/5"));
  EXPECT_TRUE(override_fails("timers/clusters/c0/gc_period=1h", "timers has no field /clusters/c0"));
}

TEST(ConfigOverride, RejectsAnIndexPastTheEndOfAnArray) {
  EXPECT_TRUE(override_fails("topology/clusters/3={}", "index 3 is past the end of /clusters (2 elements; use - to"));
  EXPECT_TRUE(override_fails("topology/clusters/x={}", "\"x\" is not an index of the array /clusters"));
  RunConfig c = override_config();
  apply_override(c, "topology/clusters/-={\"name\": \"c2\"}");
  EXPECT_EQ(c.topology_doc["clusters"].size(), 3u);
}

TEST(ConfigOverride, ValueIsJsonWhenItParsesAndAStringOtherwise) {
  RunConfig c = override_config();
  apply_override(c, "application/total_time=3600");
  EXPECT_TRUE(c.application_doc["total_time"].is_number_integer());
  apply_override(c, "application/deterministic=false");
  EXPECT_EQ(c.application_doc["deterministic"], false);
  apply_override(c, "timers/default/checkpoint_period=null");
  EXPECT_TRUE(c.timers_doc["default"]["checkpoint_period"].is_null());
  apply_override(c, "topology/clusters/0/name=\"7\""); // quoted: the string "7", not the number
  EXPECT_EQ(c.topology_doc["clusters"][0]["name"], "7");
  apply_override(c, "topology/clusters/1/name=c9"); // not JSON: kept as text
  EXPECT_EQ(c.topology_doc["clusters"][1]["name"], "c9");
  apply_override(c, "application/total_time=1h");
  EXPECT_EQ(c.application_doc["total_time"], "1h");
  apply_override(c, "application/kind=");
  EXPECT_EQ(c.application_doc["kind"], "");
}

TEST(ConfigOverride, LoadScenarioAppliesOverridesInOrderAndRecordsThem) {
  RunConfig c = load_scenario({}, {"topology/mtbf=5h", "topology/mtbf=6h", "timers/default/gc_period=null"});
  EXPECT_EQ(c.topology_doc["mtbf"], "6h");
  EXPECT_TRUE(c.timers_doc["default"]["gc_period"].is_null());
  EXPECT_EQ(c.options.overrides.size(), 3u);
  EXPECT_EQ(c.topology_file, "<embedded:topology>");
  EXPECT_DOUBLE_EQ(parse_topology(c.topology_doc, c.topology_file, c.base_dir).mtbf, 6 * 3600);
}

TEST(ConfigOverride, LoadScenarioErrors) {
  std::string dir = temp_dir();
  std::string topo_file = write(dir, "topo.json", two_clusters().dump());
  EXPECT_TRUE(fails_with(
      [&] {
        load_scenario({topo_file, "", "", ""}, {});
      },
      "command line", "--application", "a custom topology or platform needs its application file"));
  std::string app_file = write(dir, "app.json", "{\"kind\": ");
  EXPECT_TRUE(fails_with([&] { load_scenario({topo_file, "", app_file, ""}, {}); }, app_file, "", "invalid JSON"));
  write(dir, "app.json", stochastic_app().dump());
  RunConfig c = load_scenario({topo_file, "", app_file, ""}, {});
  EXPECT_EQ(c.base_dir, dir);
  EXPECT_EQ(c.timers_file, "<none>"); // a custom scenario without timers: no timer ever fires
  EXPECT_TRUE(fails_with(
      [&] {
        load_scenario({topo_file, "", app_file, ""}, {"timers/x/y=1"});
      },
      "command line", "--set timers/x/y=1", "timers has no field /x"));
}

} // namespace
} // namespace ckptsim
