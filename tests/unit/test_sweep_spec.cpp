/* The sweep file and its expansion into runs, the result records and the aggregation over
 * replicates: plain logic, no simulation (tests/sim/test_sweep.cpp runs real sweeps). */
#include "sim/cli/sweep/aggregate.hpp"
#include "sim/cli/sweep/records.hpp"
#include "sim/cli/sweep/sweep_spec.hpp"
#include "sim/config/input_error.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace ckptsim;
using namespace ckptsim::sweep;

namespace {

json base_doc() {
  return json::parse(R"({
    "axes": [
      {"name": "period", "set": "timers/default/checkpoint_period", "values": ["10min", "20min"]},
      {"set": "topology/mtbf", "values": [3600, "2h", null]}
    ],
    "protocols": ["coordinated", "independent:unit=cluster:gc=false"],
    "seeds": [7, 9]
  })");
}

bool has_pair(const std::vector<std::string>& args, const std::string& a, const std::string& b) {
  for (std::size_t i = 0; i + 1 < args.size(); i++)
    if (args[i] == a && args[i + 1] == b) return true;
  return false;
}

std::string error_of(const json& doc) {
  try {
    parse_sweep(doc, "s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST(SweepSpec, ExpandsTheCartesianProductFirstAxisSlowest) {
  const SweepSpec s = parse_sweep(base_doc(), "dir/s.json");
  const auto runs = expand(s, true);
  ASSERT_EQ(runs.size(), 2u * 3u * 2u * 2u);
  for (std::size_t i = 0; i < runs.size(); i++) EXPECT_EQ(runs[i].index, i);
  EXPECT_EQ(runs[0].key, "period=10min;topology/mtbf=3600;protocol=coordinated;storage=;seed=7");
  EXPECT_EQ(runs[1].key, "period=10min;topology/mtbf=3600;protocol=coordinated;storage=;seed=9");
  EXPECT_EQ(runs[2].key, "period=10min;topology/mtbf=3600;protocol=independent:unit=cluster:gc=false;storage=;seed=7");
  EXPECT_EQ(runs[4].key, "period=10min;topology/mtbf=2h;protocol=coordinated;storage=;seed=7");
  EXPECT_EQ(runs[12].key, "period=20min;topology/mtbf=3600;protocol=coordinated;storage=;seed=7");
  EXPECT_EQ(runs[23].key, "period=20min;topology/mtbf=null;protocol=independent:unit=cluster:gc=false;storage=;seed=9");
  // The JSON paths become `ckptsim run --set` overrides with JSON values (a string stays quoted).
  EXPECT_TRUE(has_pair(runs[0].args, "--set", "timers/default/checkpoint_period=\"10min\""));
  EXPECT_TRUE(has_pair(runs[0].args, "--set", "topology/mtbf=3600"));
  EXPECT_TRUE(has_pair(runs[23].args, "--set", "topology/mtbf=null"));
  EXPECT_TRUE(has_pair(runs[23].args, "--protocol", "independent"));
  EXPECT_TRUE(has_pair(runs[23].args, "--param", "unit=cluster"));
  EXPECT_TRUE(has_pair(runs[23].args, "--param", "gc=false"));
  EXPECT_TRUE(has_pair(runs[23].args, "--seed", "9"));
  const std::vector<std::string> cols{"period", "topology/mtbf", "protocol", "storage", "seed"};
  EXPECT_EQ(key_columns(s), cols);
  ASSERT_EQ(runs[5].values.size(), cols.size());
  EXPECT_EQ(runs[5].values[1], (std::pair<std::string, std::string>{"topology/mtbf", "2h"}));
}

TEST(SweepSpec, InputsResolveAgainstTheSweepFileAndRunOptionsComeFirst) {
  const std::string dir = test_support::temp_folder("sweepspec"); // removed at the end of the test program
  std::ofstream(dir + "/app.json") << "{}";
  json doc = base_doc();
  doc["inputs"] = {{"application", "app.json"}};
  doc["run_options"] = {"--end", "2h"};
  const SweepSpec s = parse_sweep(doc, dir + "/s.json");
  const auto runs = expand(s, true);
  EXPECT_EQ(runs[0].args[0], "--application");
  EXPECT_EQ(runs[0].args[1], dir + "/app.json");
  EXPECT_TRUE(has_pair(runs[0].args, "--end", "2h"));
  EXPECT_EQ(s.output, dir + "/s");
  doc["inputs"] = {{"timers", "missing.json"}};
  EXPECT_NE(error_of(doc).find("/inputs/timers: no such file"), std::string::npos) << error_of(doc);
}

TEST(SweepSpec, ZippedFieldsOptionAxesStorageAndReplicates) {
  json doc = json::parse(R"({
    "axes": [
      {"name": "timers", "set": ["timers/clusters/c0/checkpoint_period", "timers/clusters/c1/checkpoint_period"],
       "values": [["30min", "1h"], ["1h", null]]},
      {"option": "--network-model", "values": ["CM02", "LV08"]}
    ],
    "protocols": ["hc3i"],
    "storage": ["buddy", "servers"],
    "replicates": 3
  })");
  const SweepSpec s = parse_sweep(doc, "s.json");
  EXPECT_EQ(s.seeds, (std::vector<std::uint64_t>{1, 2, 3}));
  auto runs = expand(s, false);
  ASSERT_EQ(runs.size(), 2u * 2u * 2u * 3u);
  const RunSpec& r = runs[((1 * 2 + 1) * 2 + 1) * 3 + 1]; // timers value 1, LV08, servers, seed 2
  EXPECT_EQ(r.key, "timers=1h/null;network-model=LV08;protocol=hc3i;storage=servers;seed=2");
  EXPECT_TRUE(has_pair(r.args, "--set", "timers/clusters/c0/checkpoint_period=\"1h\""));
  EXPECT_TRUE(has_pair(r.args, "--set", "timers/clusters/c1/checkpoint_period=null"));
  EXPECT_TRUE(has_pair(r.args, "--network-model", "LV08"));
  // A topology without a "storage" object gets one; with one, only its model changes.
  EXPECT_TRUE(has_pair(r.args, "--set", "topology/storage={\"model\":\"servers\"}"));
  runs = expand(s, true);
  EXPECT_TRUE(has_pair(runs[1].args, "--set", "topology/storage/model=buddy"));
}

TEST(SweepSpec, BadSweepFilesNameTheField) {
  auto with = [](const char* key, json v) {
    json d = base_doc();
    d[key] = std::move(v);
    return d;
  };
  json d = base_doc();
  d.erase("protocols");
  EXPECT_NE(error_of(d).find("s.json: /: missing required field \"protocols\""), std::string::npos) << error_of(d);
  EXPECT_NE(error_of(with("protocols", {"nosuch"})).find("s.json: /protocols/0: unknown protocol \"nosuch\""),
            std::string::npos);
  EXPECT_NE(error_of(with("protocols", {"hc3i:oops"})).find("/protocols/0: \"hc3i:oops\": expected"),
            std::string::npos);
  EXPECT_NE(error_of(with("replicates", 3)).find("/replicates: give either"), std::string::npos);
  EXPECT_NE(error_of(with("seeds", {1, 1})).find("/seeds: a seed appears twice"), std::string::npos);
  EXPECT_NE(error_of(with("storage", {"tape"})).find("/storage/0: "), std::string::npos);
  EXPECT_NE(error_of(with("run_options", {"--seed", "3"})).find("/run_options/0: --seed is set by the sweep"),
            std::string::npos);
  EXPECT_NE(error_of(with("frobnicate", 1)).find("frobnicate"), std::string::npos);
  d = base_doc();
  d["axes"][0]["set"] = "clusters/0/nodes";
  EXPECT_NE(error_of(d).find("/axes/0/set: \"clusters/0/nodes\": a field path starts with topology/"),
            std::string::npos)
      << error_of(d);
  d = base_doc();
  d["axes"][1]["name"] = "period";
  EXPECT_NE(error_of(d).find("/axes/1: two axes are named \"period\""), std::string::npos) << error_of(d);
  d = base_doc();
  d["axes"][0]["name"] = "seed";
  EXPECT_NE(error_of(d).find("/axes/0/name: \"seed\" cannot name an axis"), std::string::npos) << error_of(d);
  d = base_doc();
  d["axes"][0]["values"] = json::array();
  EXPECT_NE(error_of(d).find("/axes/0/values: expected a non-empty list"), std::string::npos);
  d = base_doc();
  d["axes"][0]["values"] = {"1h", "1h"};
  EXPECT_NE(error_of(d).find("/axes/0/values/1: value 1h appears twice"), std::string::npos) << error_of(d);
  d = base_doc();
  d["axes"][0]["set"] = {"timers/a", "timers/b"};
  EXPECT_NE(error_of(d).find("/axes/0/values/0: expected a list of 2 values"), std::string::npos) << error_of(d);
  d = base_doc();
  d["axes"][0] = {{"option", "--seed"}, {"values", {1, 2}}};
  EXPECT_NE(error_of(d).find("/axes/0/option: --seed is set by the sweep itself"), std::string::npos) << error_of(d);
}

TEST(SweepSpec, OptionsNamingOneFileForEveryRunAreRefusedUnderEitherName) {
  // Every run would write the same event trace or Paje trace; --trace is the old name of
  // --event-trace and refused the same way. The level alone names no file: accepted.
  for (const char* option : {"--event-trace", "--trace", "--paje"}) {
    json d = base_doc();
    d["run_options"] = {option, "t.out"};
    EXPECT_NE(error_of(d).find(std::string("s.json: /run_options/0: ") + option +
                               " names one file, which every run of the sweep would overwrite"),
              std::string::npos)
        << error_of(d);
    d = base_doc();
    d["axes"][0] = {{"option", option}, {"values", {"a.out", "b.out"}}};
    EXPECT_NE(error_of(d).find(std::string("s.json: /axes/0/option: ") + option + " names one file"), std::string::npos)
        << error_of(d);
  }
  json d = base_doc();
  d["run_options"] = {"--trace-level", "2", "--event-trace-level", "0"};
  EXPECT_EQ(error_of(d), "no error");
}

TEST(SweepSpec, KeepPatternsSelectColumns) {
  const std::vector<std::string> keep{"results.makespan", "stats.counters.hc3i.*"};
  EXPECT_TRUE(kept(keep, "results.makespan"));
  EXPECT_FALSE(kept(keep, "results.makespan_x"));
  EXPECT_TRUE(kept(keep, "stats.counters.hc3i.clc_forced.c0"));
  EXPECT_FALSE(kept(keep, "stats.counters.cck.waves"));
}

TEST(SweepAggregate, StudentQuantilesAndIntervals) {
  EXPECT_DOUBLE_EQ(student_t95(1), 12.706);
  EXPECT_DOUBLE_EQ(student_t95(9), 2.262);
  EXPECT_NEAR(student_t95(60), 2.000, 0.002);
  EXPECT_NEAR(student_t95(120), 1.980, 0.002);
  const Summary s = summarize({1, 2, 3, 4});
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_NEAR(s.sd, std::sqrt(5.0 / 3.0), 1e-12);
  EXPECT_NEAR(s.ci95, 3.182 * std::sqrt(5.0 / 3.0) / 2.0, 1e-12);
  const Summary one = summarize({5});
  EXPECT_DOUBLE_EQ(one.mean, 5);
  EXPECT_TRUE(std::isnan(one.sd));
  EXPECT_TRUE(std::isnan(one.ci95));
}

namespace {
Record rec(std::size_t index, const std::string& period, std::uint64_t seed, const std::string& status,
           double makespan) {
  Record r;
  r.index = index;
  r.values = {{"period", period}, {"protocol", "hc3i"}, {"storage", ""}, {"seed", std::to_string(seed)}};
  for (const auto& [k, v] : r.values) r.key += (r.key.empty() ? "" : ";") + k + "=" + v;
  r.status = status;
  r.exit = status == "ok" ? 0 : 3;
  r.stats["results.status"] = status == "ok" ? "completed" : "violations";
  if (status == "ok") r.stats["results.makespan"] = makespan;
  r.sweep = "f00";
  return r;
}
} // namespace

TEST(SweepAggregate, PointsGroupRunsThatDifferOnlyByTheirSeed) {
  // Given out of order: the table follows the run indices.
  std::vector<Record> rs{rec(3, "20min", 2, "ok", 30), rec(0, "10min", 1, "ok", 10), rec(1, "10min", 2, "ok", 14),
                         rec(2, "20min", 1, "failed", 0), rec(4, "20min", 3, "ok", 34)};
  const std::string t = points_table(rs, {"made by: test"});
  EXPECT_EQ(t, "# made by: test\n"
               "period,protocol,storage,runs,failed,results.makespan.mean,results.makespan.sd,results.makespan.ci95\n"
               "10min,hc3i,,2,0,12,2.828427125,25.412\n"
               "20min,hc3i,,3,1,32,2.828427125,25.412\n");
}

TEST(SweepRecords, RoundTripCsvOrderAndInterruptedLastLine) {
  Record r = rec(5, "10min", 3, "ok", 12.5);
  r.error = "";
  r.wall = 0.25;
  const Record back = record_from_json(to_json(r));
  EXPECT_EQ(back.key, r.key);
  EXPECT_EQ(back.values, r.values);
  EXPECT_EQ(back.stats, r.stats);
  EXPECT_EQ(back.wall, 0.25);
  // The table is sorted by index and has no wall time: the same runs give the same bytes.
  const std::string a = csv_table({rec(1, "b,c", 2, "ok", 2), rec(0, "a", 1, "ok", 1)}, {"x"});
  const std::string b = csv_table({rec(0, "a", 1, "ok", 1), rec(1, "b,c", 2, "ok", 2)}, {"x"});
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, "# x\nindex,period,protocol,storage,seed,status,exit,results.status,results.makespan\n"
               "0,a,hc3i,,1,ok,0,completed,1\n1,\"b,c\",hc3i,,2,ok,0,completed,2\n");

  const std::string path = test_support::temp_folder("sweeprec") + "/r.jsonl";
  append_record(path, rec(0, "a", 1, "ok", 1));
  append_record(path, rec(1, "a", 2, "ok", 2));
  std::ofstream(path, std::ios::app) << "{\"index\": 2, \"key\": \"per"; // cut short by an interruption
  EXPECT_EQ(read_records(path).size(), 2u);
  std::ofstream(path, std::ios::app) << "\n" << to_json(rec(3, "a", 3, "ok", 3)).dump() << "\n";
  EXPECT_THROW(read_records(path), InputError); // a bad line in the middle is not an interruption
}
