/* Scripted scenarios found by the randomized stress of every protocol (issue 21), one folder each
 * under tests/scenarios/: the input files, and scenario.json with its runs (protocol, parameters,
 * seed, end date, overrides) and what each must end with: a status ("completed", normally), or an
 * input error. Every run that simulates must also pass the consistency oracle. Each of them
 * hung, crashed or went inconsistent before its fix; the folder's comment says how. */
#include "sim/cli/scenario.hpp"
#include "sim/units/units.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace ckptsim;
using namespace ckptsim::test_support;
namespace fs = std::filesystem;

namespace {

struct ScenarioRun {
  std::string dir;
  std::string name;
  json run;
};

std::vector<ScenarioRun> all_runs() {
  std::vector<ScenarioRun> out;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(fs::path(CKPTSIM_SOURCE_DIR) / "tests" / "scenarios"))
    if (fs::exists(e.path() / "scenario.json")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& d : dirs) {
    const json doc = json::parse(std::ifstream(d / "scenario.json"));
    int i = 0;
    for (const auto& r : doc.at("runs")) {
      std::string name = d.filename().string() + "_" + std::to_string(i++);
      std::replace(name.begin(), name.end(), '-', '_');
      out.push_back({d.string(), name, r});
    }
  }
  return out;
}

void PrintTo(const ScenarioRun& s, std::ostream* os) { *os << s.name << ": " << s.run.dump(); }

class Scenario : public ::testing::TestWithParam<ScenarioRun> {};

TEST_P(Scenario, EndsAsExpected) {
  const auto& s = GetParam();
  const json& r = s.run;
  ScenarioFiles files{s.dir + "/topology.json", "", s.dir + "/application.json",
                      s.dir + "/" + r.value("timers", std::string("timers.json"))};
  RunConfig c = load_scenario(files, r.value("set", std::vector<std::string>{}));
  c.options.protocol = r.at("protocol");
  c.options.params = r.value("params", std::map<std::string, std::string>{});
  c.options.seed = r.at("seed");
  c.options.end_date = r.at("end").is_number() ? r.at("end").get<double>()
                                               : *units::parse(r.at("end").get<std::string>(), units::Kind::Duration);
  if (r.contains("stall_limit")) c.options.stall_limit = r.at("stall_limit");
  const std::string expect = r.at("expect");
  const auto res = run_in_child(c);
  const std::string error_prefix = "input error: ";
  if (expect.rfind(error_prefix, 0) == 0) {
    EXPECT_EQ(res.exit_status, 2) << res.error;
    EXPECT_NE(res.error.find(expect.substr(error_prefix.size())), std::string::npos) << res.error;
    return;
  }
  ASSERT_EQ(res.exit_status, 0) << res.error;
  const std::string status = res.document["results"]["status"];
  // "..." at the end: the status starts so (a status that gives dates and counts).
  if (expect.size() > 3 && expect.ends_with("..."))
    EXPECT_EQ(status.rfind(expect.substr(0, expect.size() - 3), 0), 0u) << status;
  else
    EXPECT_EQ(status, expect);
  EXPECT_EQ(res.document["results"]["consistency"]["violations"], 0);
}

INSTANTIATE_TEST_SUITE_P(Found, Scenario, ::testing::ValuesIn(all_runs()),
                         [](const auto& info) { return info.param.name; });

} // namespace
