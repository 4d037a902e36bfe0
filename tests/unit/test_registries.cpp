/* The registries of every kind of plug-in (sim/config/registry.hpp): protocols, application kinds,
 * storage models, failure sources and timers. Names in rank order whatever the order of static
 * initialisation; an unknown name answered with the valid ones; the fields each module lists are
 * exactly the fields its parser reads (the listing cannot drift from the loader); a test
 * registration ("test-...") is usable but never listed; each storage model's placement, depth and
 * checks; the text `ckptsim list` prints. */
#include "sim/app/kind.hpp"
#include "sim/cli/listing.hpp"
#include "sim/config/timers.hpp"
#include "sim/failures/source.hpp"
#include "sim/protocol/protocol.hpp"
#include "sim/scenario/readers.hpp"
#include "sim/storage/model.hpp"
#include "sim/storage/replicated/scheme.hpp"
#include "tests/support/app_inputs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace ckptsim {
namespace {

// Two clusters c0 (@p c0_nodes nodes) and c1 (1 node).
Topology two_clusters(const json& storage = nullptr, int c0_nodes = 4) {
  json t = json::parse(R"({
    "clusters": [{"name": "c0", "nodes": 4, "san": {"latency": 0, "bandwidth": 1e9}},
                 {"name": "c1", "nodes": 1, "san": {"latency": 0, "bandwidth": 1e9}}],
    "wan": [[{"latency": 0, "bandwidth": 1e9}]]})");
  t["clusters"][0]["nodes"] = c0_nodes;
  if (!storage.is_null()) t["storage"] = storage;
  return parse_topology(t, "topo.json", "");
}

// The problem of the InputError @p f throws ("" if none).
template <class F>
std::string problem_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.path() + ": " + e.problem();
  }
  return "";
}

// "unknown field "FIELD" (known fields here: a, b, ...)" at @p path, for @p known (sorted by the
// message).
std::string unknown_field(const std::string& path, const std::string& field, std::set<std::string> known) {
  std::vector<std::string> names(known.begin(), known.end());
  return path + ": unknown field \"" + field + "\" (known fields here: " + fmt::format("{}", fmt::join(names, ", ")) +
         ")";
}
std::string unknown_zzz(const std::string& path, std::set<std::string> known) {
  return unknown_field(path, "zzz", std::move(known));
}

// two_clusters() with the "failures" object @p failures.
Topology two_clusters_with_failures(const json& failures) {
  json t = json::parse(R"({
    "clusters": [{"name": "c0", "nodes": 4, "san": {"latency": 0, "bandwidth": 1e9}},
                 {"name": "c1", "nodes": 1, "san": {"latency": 0, "bandwidth": 1e9}}],
    "wan": [[{"latency": 0, "bandwidth": 1e9}]]})");
  t["failures"] = failures;
  return parse_topology(t, "topo.json", "");
}

// The test-only kind "test-tiny" is the walk-through example tests/examples/tiny_kind.cpp.

TEST(ApplicationKinds, ListedInRankOrderWithoutTestKinds) {
  EXPECT_EQ(ApplicationKindRegistry::instance().names(),
            (std::vector<std::string>{"stochastic", "scripted", "stencil", "master-worker", "mpi-trace"}));
  EXPECT_EQ(ApplicationKindRegistry::instance().all().front().name, "test-tiny"); // rank -1
  EXPECT_EQ(problem_of([] {
              parse_application(json{{"kind", "random"}}, "app.json", two_clusters());
            }),
            "/kind: \"random\" is not one of: stochastic, scripted, stencil, master-worker, mpi-trace");
}

TEST(ApplicationKinds, ATestKindIsParsedAndRunsItsWorkload) {
  const Application app = parse_application(json{{"kind", "test-tiny"}, {"work", "3s"}}, "app.json", two_clusters());
  EXPECT_EQ(app.kind, "test-tiny");
  auto w = make_workload(app, FederationLayout(two_clusters()));
  EXPECT_DOUBLE_EQ(w->failure_free_work(0), 3);
  EXPECT_EQ(cli::application_kinds_listing().find("test-tiny"), std::string::npos);
}

TEST(ApplicationKinds, ListedFieldsAreExactlyTheFieldsTheParserReads) {
  // A valid document of each listed kind on two_clusters(), plus an unknown field.
  const std::map<std::string, json> docs{
      {"stochastic",
       {{"total_time", "1h"},
        {"clusters", {{{"cluster", "c0"}, {"compute", "1s"}}, {{"cluster", "c1"}, {"compute", "1s"}}}}}},
      {"scripted", {{"nodes", json::object()}}},
      {"stencil", {{"dims", 1}, {"width", 10}, {"iterations", 2}, {"task_cost", 1}}},
      {"master-worker", {{"matrix_size", 10}, {"repetitions", 1}, {"row_cost", 1}}},
      {"mpi-trace", {{"trace", CKPTSIM_SOURCE_DIR "/tests/data/mpi/pingpong.ti"}, {"placement", "linear"}}}};
  for (const std::string& name : ApplicationKindRegistry::instance().names()) {
    ASSERT_TRUE(docs.count(name)) << "give the new kind \"" << name << "\" a document here";
    json doc = docs.at(name);
    doc["kind"] = name;
    EXPECT_EQ(problem_of([&] { parse_application(doc, "app.json", two_clusters()); }), "") << name;
    doc["zzz"] = 1;
    std::set<std::string> known{"kind", "deterministic"};
    for (const auto& [field, description] : ApplicationKindRegistry::instance().get(name).fields) known.insert(field);
    EXPECT_EQ(problem_of([&] { parse_application(doc, "app.json", two_clusters()); }), unknown_zzz("/zzz", known))
        << name;
  }
}

TEST(StorageModels, ListedInRankOrderAndTheirFieldsAreTheStorageObjects) {
  EXPECT_EQ(StorageModelRegistry::instance().names(),
            (std::vector<std::string>{"servers", "buddy", "replicated", "levels"}));
  std::set<std::string> known{"model", "power"}; // the object's own fields (power: the energy model's)
  for (const StorageModelInfo& m : StorageModelRegistry::instance().all())
    for (const auto& [field, description] : m.fields) known.insert(field);
  EXPECT_EQ(known, (std::set<std::string>{"copies", "depth", "levels", "model", "power", "server_link", "servers"}));
  EXPECT_EQ(problem_of([] { two_clusters(json{{"zzz", 1}}); }), unknown_zzz("/storage/zzz", known));
  EXPECT_EQ(problem_of([] {
              two_clusters(json{{"model", "raid"}});
            }),
            "/storage/model: \"raid\" is not one of: servers, buddy, replicated, levels");
}

TEST(StorageModels, EachModelPlacesTheRemoteCopies) {
  const Topology t = two_clusters(json{{"copies", 2}, {"depth", 2}, {"model", "replicated"}});
  const FederationLayout layout(t);
  const StorageContext context{t, layout, 3};
  const auto& reg = StorageModelRegistry::instance();
  // servers: process i on server i mod s.
  EXPECT_EQ(reg.get("servers").holders(4, 7, context), std::vector<Holder>{server_holder(1)});
  // buddy: the next node of the cluster, cyclically; none in a one-node cluster.
  EXPECT_EQ(reg.get("buddy").holders(3, 7, context), std::vector<Holder>{0});
  EXPECT_EQ(reg.get("buddy").holders(4, 7, context), std::vector<Holder>{});
  // replicated: the receiver formula in the node's cluster, depending on the save number.
  std::vector<Holder> want;
  for (int r : replicated::receivers(1, 3, replicated::Scheme{2, 2}, 4)) want.push_back(r);
  EXPECT_EQ(reg.get("replicated").holders(1, 3, context), want);
  EXPECT_EQ(want, (std::vector<Holder>{0, 2})); // (1 + j*2 + 1) mod 4, j = 1, 2
  EXPECT_TRUE(reg.get("servers").needs_servers);
  EXPECT_FALSE(reg.get("buddy").needs_servers);
  EXPECT_FALSE(reg.get("replicated").needs_servers);
}

TEST(StorageModels, DepthIsTheLargestAmongTheModelsUsed) {
  EXPECT_EQ(storage_depth(two_clusters(), "servers"), 1);
  EXPECT_EQ(storage_depth(two_clusters(json{{"model", "replicated"}, {"copies", 1}, {"depth", 3}}), "servers"), 3);
  const Topology one_replicated = parse_topology(json::parse(R"({
    "clusters": [{"name": "c0", "nodes": 4, "san": {"latency": 0, "bandwidth": 1e9}},
                 {"name": "c1", "nodes": 4, "san": {"latency": 0, "bandwidth": 1e9}, "storage": "replicated"}],
    "wan": [[{"latency": 0, "bandwidth": 1e9}]], "storage": {"copies": 1, "depth": 5}})"),
                                                 "topo.json", "");
  EXPECT_EQ(storage_depth(one_replicated, "buddy"), 5);
  EXPECT_EQ(storage_model_of(one_replicated, 0, "buddy").name, "buddy");
  EXPECT_EQ(storage_model_of(one_replicated, 1, "buddy").name, "replicated");
  // Clusters of a platform XML are not known when a protocol asks: the topology's model counts.
  Topology from_xml = two_clusters(json{{"model", "replicated"}, {"copies", 1}, {"depth", 4}});
  from_xml.clusters.clear();
  EXPECT_EQ(storage_depth(from_xml, "servers"), 4);
}

TEST(StorageModels, ReplicatedChecksItsFieldsAndItsClustersAndReportsItsGuarantee) {
  EXPECT_EQ(problem_of([] {
              two_clusters(json{{"model", "replicated"}, {"depth", 2}});
            }),
            "/storage/copies: missing required field \"copies\" (DF, remote copies of each save) for the "
            "\"replicated\" storage model");
  EXPECT_EQ(problem_of([] {
              two_clusters(json{{"model", "buddy"}, {"depth", 2}});
            }),
            "/storage/depth: only meaningful with the \"replicated\" storage model");
  const Topology t = two_clusters(json{{"copies", 2}, {"depth", 2}, {"model", "replicated"}});
  const FederationLayout layout(t);
  const StorageContext context{t, layout, 1};
  const StorageModelInfo& m = StorageModelRegistry::instance().get("replicated");
  // DF 2, SD 2: offsets j (k even) and 2j + 1 (k odd), j = 1, 2: 1, 2, 3, 5 are distinct other
  // nodes on 4 nodes; on 5, offset 5 is the node itself.
  EXPECT_EQ(problem_of([&] { m.check_cluster(0, context); }), "");
  const Topology five = two_clusters(json{{"copies", 2}, {"depth", 2}, {"model", "replicated"}}, 5);
  const FederationLayout five_layout(five);
  EXPECT_EQ(problem_of([&] {
              m.check_cluster(0, StorageContext{five, five_layout, 1});
            }),
            "/storage/copies: cluster c0: with DF = 2 copies and SD = 2 on 5 nodes, the saves with k mod SD = 1 would "
            "put copy j = 2 on the node itself (offset j*DF^1+1 is a multiple of 5); choose fewer copies, a smaller "
            "depth or more nodes");
  EXPECT_EQ(m.results_key, "replicated_storage");
  EXPECT_EQ(m.results({0}, context).dump(),
            R"({"copies":2,"depth":2,"mnf":3,"guarantee_nodes":6,"clusters":[{"cluster":"c0","nodes":4,)"
            R"("mnf_guaranteed":false}]})");
}

// The commands' defaults come from the registrations, not from names written in the CLI.
TEST(Protocols, TheDefaultsOfRunAndCompareAreTheRegisteredOnes) {
  EXPECT_EQ(cli::default_protocol(), "hc3i");
  EXPECT_EQ(cli::default_compare_list(), "coordinated,hc3i,independent:unit=cluster,msglog");
  int defaults = 0;
  for (const ProtocolInfo& p : ProtocolRegistry::instance().all()) defaults += p.runs_by_default ? 1 : 0;
  EXPECT_EQ(defaults, 1);
}

TEST(Protocols, ListedByNameAndAnUnknownOneListsTheValidOnes) {
  EXPECT_EQ(ProtocolRegistry::instance().names(),
            (std::vector<std::string>{"cck", "coordinated", "hc3i", "independent", "msglog", "none", "taskgraph"}));
  EXPECT_EQ(ProtocolRegistry::instance().get("test-restart").name, "test-restart"); // tests/examples/
  EXPECT_EQ(cli::protocols_listing().find("test-"), std::string::npos);
  try {
    ProtocolRegistry::instance().get("nosuch", "--protocol");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "command line: --protocol: unknown protocol \"nosuch\" (valid protocols: cck, "
                                     "coordinated, hc3i, independent, msglog, none, taskgraph)");
  }
  EXPECT_THROW(ProtocolRegistry::instance().get("nosuch"), std::invalid_argument); // a bug, not an input
}

// The test-only failure source "test-pairs" (nodes 0 and 1 together, every "every" seconds) is
// the walk-through example tests/examples/pair_failures.cpp.

TEST(FailureSources, ListedInRankOrderWithoutTestSources) {
  EXPECT_EQ(FailureSourceRegistry::instance().names(),
            (std::vector<std::string>{"exponential", "weibull", "trace", "lanl", "fta", "none"}));
  EXPECT_EQ(FailureSourceRegistry::instance().all().front().name, "test-pairs"); // rank -1
  EXPECT_EQ(problem_of([] {
              two_clusters_with_failures(json{{"model", "poisson"}});
            }),
            "/failures/model: \"poisson\" is not one of: exponential, weibull, trace, lanl, fta, none");
  EXPECT_EQ(cli::failure_sources_listing().find("test-pairs"), std::string::npos);
}

TEST(FailureSources, ATestSourceIsChosenByTheTopologyAndGivesItsEvents) {
  const Topology t = two_clusters_with_failures(json{{"model", "test-pairs"}, {"every", "2min"}});
  EXPECT_EQ(t.failures.model, "test-pairs");
  const FederationLayout layout(t);
  auto source = make_failure_source({t, layout, 1});
  for (double date : {120.0, 240.0}) {
    auto a = source->next();
    EXPECT_EQ(a->date, date);
    EXPECT_EQ(a->victims, (std::vector<NodeId>{0, 1}));
  }
  // Another source's topology does not know the test source's field.
  EXPECT_EQ(problem_of([] {
              two_clusters_with_failures(json{{"every", "2min"}});
            }),
            unknown_field("/failures/every", "every",
                          {"cascade", "causes", "correlated", "detection_delay", "downtime", "file", "from",
                           "heartbeat", "model", "nodes", "overlap", "platform_id", "restart", "restart_overhead",
                           "shape", "system", "to", "trace"}));
}

TEST(FailureSources, ListedFieldsAreExactlyTheFieldsTheirReadersRead) {
  const std::set<std::string> common{"cascade", "correlated", "detection_delay", "downtime",        "heartbeat",
                                     "model",   "overlap",    "restart",         "restart_overhead"};
  std::set<std::string> known = common;
  for (const std::string& name : FailureSourceRegistry::instance().names())
    for (const auto& [field, description] : FailureSourceRegistry::instance().get(name).fields) known.insert(field);
  EXPECT_EQ(known, (std::set<std::string>{"cascade", "causes", "correlated", "detection_delay", "downtime", "file",
                                          "from", "heartbeat", "model", "nodes", "overlap", "platform_id", "restart",
                                          "restart_overhead", "shape", "system", "to", "trace"}));
  EXPECT_EQ(problem_of([] { two_clusters_with_failures(json{{"zzz", 1}}); }), unknown_zzz("/failures/zzz", known));
  // Each source's field is refused under another source.
  EXPECT_EQ(problem_of([] {
              two_clusters_with_failures(json{{"model", "none"}, {"shape", 2}});
            }),
            "/failures/shape: \"shape\" is only meaningful with \"model\": \"weibull\"");
  EXPECT_EQ(problem_of([] {
              two_clusters_with_failures(json{{"model", "weibull"}, {"trace", "f.txt"}});
            }),
            "/failures/trace: \"trace\" is only meaningful with \"model\": \"trace\"");
}

// A test-only timer: usable in a timer file, never listed.
const TimerRegistration probe_timer{{.name = "test-probe", .description = "tests only", .rank = -1}};

TEST(Timers, RegisteredByThePluginsAndATestTimerIsUsableButNotListed) {
  EXPECT_EQ(TimerRegistry::instance().names(), (std::vector<std::string>{"checkpoint_period", "gc_period"}));
  EXPECT_EQ(TimerRegistry::instance().all().front().name, "test-probe");
  const Timers timers = parse_timers(json{{"default", {{"test-probe", "5s"}}}}, "timers.json", two_clusters());
  EXPECT_DOUBLE_EQ(timers.period("test-probe", "c0", "c0-0"), 5);
  EXPECT_EQ(cli::timers_listing().find("test-probe"), std::string::npos);
  EXPECT_EQ(problem_of([] {
              parse_timers(json{{"clusters", {{"c1", {{"gc_periods", "1h"}}}}}}, "timers.json", two_clusters());
            }),
            "/clusters/c1/gc_periods: unknown timer \"gc_periods\" (did you mean \"gc_period\"? known timers: "
            "checkpoint_period, gc_period)");
}

// What `ckptsim list` prints after the protocols: a line per module, its fields indented below.
TEST(Listing, FailureSourcesAndTimers) {
  EXPECT_EQ(
      cli::failure_sources_listing(),
      "Failure sources (topology: \"failures\": {\"model\": NAME and the fields}; default: exponential):\n"
      "  exponential    the federation fails at exponential inter-arrival times of mean the topology's \"mtbf\", "
      "each failure striking one node drawn uniformly (the default)\n"
      "  weibull        the federation fails at Weibull inter-arrival times of mean the topology's \"mtbf\", each "
      "failure striking one node drawn uniformly\n"
      "                   shape  the Weibull shape k (> 0; k < 1: failures come in bursts); default 1\n"
      "  trace          the failures of a file, replayed: one \"<date> <node>\" per line (a host name or a global "
      "node index; \"<date> <node>,<node>,...\" strikes them all at once, one failure), or \"<date> <link> "
      "<duration>\" (an outage of a link), '#' starts a comment\n"
      "                   trace  the failure trace file, relative to the topology file; required with the "
      "source\n"
      "  lanl           the failures of one system of the LANL failure log (LA-UR-05-7318, CSV as published), "
      "replayed with their repair times (Prob Fixed - Prob Started)\n"
      "                   file  the LANL CSV file, relative to the topology file; required\n"
      "                   system  the \"System\" number to replay; required\n"
      "                   from  start of the window, a date of the log (m/d/yyyy h:mm), simulated time 0; default: "
      "the first selected failure\n"
      "                   to  end of the window, a date of the log; default: none\n"
      "                   causes  the cause columns to keep (Facilities, Hardware, Human Error, Network, "
      "Undetermined, Software); default: all\n"
      "                   nodes  \"modulo\" (nodenumz mod the node count, default), \"by-name\" (nodenumz as text "
      "equals a host name) or {\"nodenumz\": \"host\" or {\"link\": id}} (a link's outages)\n"
      "  fta            the unavailability events of a Failure Trace Archive event_trace table (tab-separated, "
      "epoch seconds), replayed with their durations as repair times\n"
      "                   file  the event_trace file, relative to the topology file; required\n"
      "                   platform_id  keep the events of this platform only; default: all\n"
      "                   from  start of the window, epoch seconds, simulated time 0; default: the first selected "
      "failure\n"
      "                   to  end of the window, epoch seconds; default: none\n"
      "                   nodes  \"modulo\" (node_id mod the node count, default), \"by-name\" (node_name equals "
      "a host name) or {\"node_id\": \"host\" or {\"link\": id}} (a link's outages)\n"
      "  none           no failure at all, whatever the topology's \"mtbf\"\n");
  EXPECT_EQ(cli::timers_listing(),
            "Timers (timer file):\n"
            "  checkpoint_period  delay between two unforced checkpoints (HC3I: between unforced CLCs)\n"
            "  gc_period          delay between two garbage collections\n");
}

TEST(Listing, ApplicationKindsAndStorageModels) {
  EXPECT_EQ(
      cli::application_kinds_listing(),
      "Application kinds (application file: \"kind\": NAME and its fields; every kind also takes \"deterministic\", "
      "default true):\n"
      "  stochastic     HC3I report section 5: each process computes for drawn times and, after each step, sends to "
      "each cluster with a given probability; it never waits for a message\n"
      "                   total_time  failure-free computation of every process; required\n"
      "                   clusters  one entry per cluster of the topology: {\"cluster\": name, \"compute\": a duration "
      "(mean of an exponential) or a distribution, \"send\": {cluster: probability} (default none), \"message_size\": "
      "s (default the file's)}, or one entry {\"cluster\": \"*\", ..., \"send\": {\"same\": p, \"other\": q}} for "
      "every cluster not listed; required\n"
      "                   message_size  size of every message; default 1KiB\n"
      "                   node_matrix  N x N node-to-node send probabilities, replacing every \"send\"; default none\n"
      "  scripted       an explicit list of computations and sends per node, and scripted failures (the papers' worked "
      "examples)\n"
      "                   nodes  node (host name or global index) -> array of actions: {\"compute\": d} or {\"send\": "
      "node, \"size\": s (default 1KiB), \"label\": l}; required\n"
      "                   failures  [{\"date\": d, \"node\": n}, ...] in date order, replacing the topology's failure "
      "model; default none\n"
      "                   expected  free-form expected outcome, read by tests, ignored by the simulator\n"
      "  stencil        Jacobi 1D / 2D as a data-flow task graph known to the protocols, block-partitioned over every "
      "node\n"
      "                   dims  1 or 2; required\n"
      "                   width  cells per row; required\n"
      "                   height  rows (dims 2 only); required with dims 2\n"
      "                   iterations  steps, each computing a new version of every cell; required\n"
      "                   task_cost  work of one cell-iteration (seconds at 1 Gf); required\n"
      "                   cell_size  bytes of one cell's value (a message, a datum in a checkpoint); default 4KiB\n"
      "                   grid_columns  dims 2: processes per row of the process grid; default the grid with the "
      "fewest cut edges\n"
      "                   schedule  in-order or reorder (local reordering); default in-order\n"
      "                   task_descriptor_size  bytes a checkpoint holds per task not executed yet; default 1KiB\n"
      "  master-worker  LAM/MPI paper: C = A x B repeated, process 0 the master (bcast, scatter, compute, gather), "
      "collectives as program-order points\n"
      "                   matrix_size  n, at least one row per process; required\n"
      "                   repetitions  R; required\n"
      "                   row_cost  work of one row of C (seconds at 1 Gf); required\n"
      "                   element_size  bytes of one matrix element on the wire; default 8\n"
      "  mpi-trace      an MPI program's time-independent trace (smpirun -trace-ti), replayed: computations in "
      "flops at the node's speed, point-to-point messages and collectives through the protocol\n"
      "                   trace  the index file smpirun -trace-ti writes (one file per rank) or one file holding "
      "every rank's actions; relative to the application file; required\n"
      "                   placement  \"linear\" (rank i on node i in platform order), \"round-robin\" (over the "
      "clusters) or an array of node names (host name or global index) by rank; default \"linear\"\n"
      "                   compute_scale  multiplies every computation and sleep of the trace (the same "
      "communication pattern around longer computations); default 1\n"
      "                   sends  \"rendezvous\" (as SMPI: a transfer starts once its receive is posted too, a send "
      "of 64 KiB or more ends once delivered) or \"eager\" (every transfer starts at its send); default "
      "\"rendezvous\"\n");
  EXPECT_EQ(
      cli::storage_models_listing(),
      "Storage models (topology: \"storage\": {\"model\": NAME and the fields}, or a cluster's \"storage\": NAME; "
      "default: the protocol's):\n"
      "  servers        the remote copy of process i on checkpoint server i mod s (servers never fail)\n"
      "                   servers  how many checkpoint servers (hosts server-0 ... of a zone \"storage\"); default 1\n"
      "                   server_link  each server's own link {\"latency\": d, \"bandwidth\": b}; default 10us, "
      "80MBps\n"
      "  buddy          the remote copy in the memory of the next node of the same cluster (one failure per buddy "
      "pair)\n"
      "  replicated     Bondarenko-Iakobovski: save k of node i on DF nodes of its cluster given by a formula of i, j "
      "and k mod SD; the last SD saves kept; survives MNF = (DF-1)*SD+1 failures when N >= DF^SD + SD\n"
      "                   copies  DF, remote copies of each save (integer >= 1); required with the model, no default\n"
      "                   depth  SD, saves kept per node (integer 1..64); required with the model, no default\n"
      "  levels         multi-level checkpointing (SCR, FTI, VeloC): local device, partner copy, xor / Reed-Solomon "
      "groups, parallel file system; checkpoint k at the deepest level whose every divides k\n"
      "                   levels  [{\"kind\": local|partner|xor|rs|pfs, \"every\": n, ...}, ...] from the cheapest "
      "level to the deepest; required with the model (docs/INPUTS.md, \"Storage levels\")\n");
}

} // namespace
} // namespace ckptsim
