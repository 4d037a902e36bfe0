/* docs/RESULTS.md explains every field of the results document (issue 35, item 1): its tables are
 * generated from the descriptions the engine, the protocols, the storage models and the failure
 * sources register (`ckptsim list --results`), and every field a run writes must be among them.
 * The runs: the golden documents of every protocol and variant (tests/golden/expected), and fresh
 * runs with what those lack: the run's own fields, link failures with heartbeats, storage levels,
 * LANL and FTA failure logs, rack and cluster outages. */
#include "sim/config/result_fields.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

/** The leaves of @p j as pointers: an array of records is "[]" then each key; any other array,
 *  and the input documents, one leaf; an empty object none. */
void leaves(const nlohmann::json& j, const std::string& at, std::set<std::string>& out) {
  if (at == "/inputs/topology" || at == "/inputs/application" || at == "/inputs/timers") {
    out.insert(at);
  } else if (j.is_object()) { // an empty one holds no field
    for (const auto& [k, v] : j.items()) leaves(v, at + "/" + k, out);
  } else if (j.is_array() && !j.empty() && j[0].is_object()) {
    for (const auto& e : j) leaves(e, at + "[]", out);
  } else {
    out.insert(at);
  }
}

std::set<std::string> unexplained(const nlohmann::json& doc) {
  std::set<std::string> all, missing;
  leaves(doc, "", all);
  for (const auto& p : all)
    if (!explain_result_field(p)) missing.insert(p);
  return missing;
}

std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (const auto& p : s) out += "  " + p + "\n";
  return out;
}

nlohmann::json run_document(const std::string& args) {
  const std::string out = temp_path("results-reference.json");
  const auto o = run_cli("run --quiet --output " + out + " " + args);
  EXPECT_TRUE(o.status == 0 || o.status == 3) << args << "\n" << o.out;
  std::ifstream in(out);
  return in ? nlohmann::json::parse(in) : nlohmann::json();
}

} // namespace

TEST(ResultsReference, TheDocsPageHoldsTheTablesTheBinaryGenerates) {
  std::ifstream in(std::string(CKPTSIM_SOURCE_DIR) + "/docs/RESULTS.md");
  ASSERT_TRUE(in);
  const std::string page{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::string tables = result_fields_markdown();
  EXPECT_NE(page.find(tables), std::string::npos)
      << "docs/RESULTS.md is not up to date: run /usr/bin/python3 docs/results_md.py --ckptsim build/ckptsim";
  // Every description says something.
  for (const auto& info : ResultFieldsRegistry::instance().all())
    for (const auto& f : info.fields) EXPECT_GE(f.meaning.size(), 8u) << info.name << ": " << f.path;
}

TEST(ResultsReference, EveryFieldOfEveryProtocolsGoldenDocumentIsExplained) {
  const std::string dir = std::string(CKPTSIM_SOURCE_DIR) + "/tests/golden/expected";
  int documents = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    const auto missing = unexplained(nlohmann::json::parse(in));
    EXPECT_TRUE(missing.empty()) << e.path().filename() << " has fields docs/RESULTS.md does not explain:\n"
                                 << joined(missing);
    documents++;
  }
  EXPECT_GE(documents, 20);
}

TEST(ResultsReference, EveryFieldOfRunsWithNetworkFaultsLevelsLogsAndOutagesIsExplained) {
  const std::string root = CKPTSIM_SOURCE_DIR;
  const std::vector<std::string> runs{
      "", // the default scenario, with every field of the run (golden documents leave some out)
      "--protocol coordinated --set application/total_time=2h --set "
      "'topology/link_failures=[{\"scope\":\"wan\",\"mtbf\":\"15min\",\"downtime\":\"10min\"}]' --set "
      "'topology/failures={\"model\":\"exponential\",\"downtime\":\"1min\",\"heartbeat\":{\"period\":\"10s\","
      "\"timeout\":\"30s\"}}' --seed 1",
      "--set application/total_time=6h --set 'topology/failures={\"model\": \"lanl\", \"file\": \"" + root +
          "/workloads/failures/lanl-sample.csv\", \"system\": 20}'",
      "--set application/total_time=2h --set 'topology/failures={\"model\": \"fta\", \"file\": \"" + root +
          "/workloads/failures/fta-sample.tsv\"}'",
      "--protocol coordinated --topology " + root + "/workloads/levels/topology.json --application " + root +
          "/workloads/levels/application.json --timers " + root + "/workloads/levels/timers.json --end 2h",
  };
  for (const auto& args : runs) {
    const auto doc = run_document(args);
    ASSERT_FALSE(doc.is_null()) << args;
    const auto missing = unexplained(doc);
    EXPECT_TRUE(missing.empty()) << "ckptsim run " << args << "\nwrites fields docs/RESULTS.md does not explain:\n"
                                 << joined(missing);
  }
}

TEST(ResultsReference, PatternsMatchOneNamePartPerWildcard) {
  EXPECT_TRUE(result_field_matches("/stats/counters/ctrl.<TYPE>", "/stats/counters/ctrl.CLC_REQ"));
  EXPECT_FALSE(result_field_matches("/stats/counters/ctrl.<TYPE>", "/stats/counters/ctrl."));
  EXPECT_FALSE(result_field_matches("/results/<X>", "/results/network/link_failures")); // no '/' in a wildcard
  EXPECT_TRUE(result_field_matches("/stats/counters/storage.level<N>.saves", "/stats/counters/storage.level2.saves"));
  EXPECT_TRUE(result_field_matches("/stats/series/failures[]/date", "/stats/series/failures[]/date"));
  EXPECT_FALSE(result_field_matches("/results/makespan", "/results/makespan_x"));
}
