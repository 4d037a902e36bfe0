/* `ckptsim sweep` and `ckptsim merge` end to end, through the binary: real runs of a tiny
 * federation, in parallel processes, with a run that crashes and one that hangs, an interrupted
 * sweep resumed, a sweep stopped by SIGTERM, and a sweep emitted as job lines or as a Slurm
 * array (its tasks run here by bash, as Slurm would) then merged. tests/sweep/ runs the emitted
 * files on a real Slurm and under GNU parallel. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ckptsim;
using namespace ckptsim::test_support;
namespace fs = std::filesystem;

namespace {

/** A folder with the inputs of a small federation (4 nodes, a failure every ~2 h) and a sweep file. */
std::string make_sweep(const json& sweep_extra) {
  const std::string dir = temp_folder("sweep"); // removed at the end of the test program
  std::ofstream(dir + "/topology.json") << small_topology(2, 2, 7200).dump(2);
  std::ofstream(dir + "/application.json") << small_application(2, 20, 3600, 0.5, 0.1).dump(2);
  std::ofstream(dir + "/timers.json") << R"({"default": {"checkpoint_period": "10min"}})";
  json sweep = {
      {"inputs", {{"topology", "topology.json"}, {"application", "application.json"}, {"timers", "timers.json"}}},
      {"axes",
       json::array({{{"name", "period"}, {"set", "timers/default/checkpoint_period"}, {"values", {"5min", "20min"}}}})},
      {"protocols", {"coordinated", "none"}},
      {"replicates", 2},
      {"keep",
       {"results.status", "results.makespan", "results.failures", "stats.counters.storage.saves",
        "/results/consistency"}}};
  if (!sweep_extra.is_null()) sweep.update(sweep_extra);
  std::ofstream(dir + "/sweep.json") << sweep.dump(2);
  return dir;
}

std::vector<std::string> lines_of(const std::string& text, bool skip_comments = false) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);)
    if (!(skip_comments && !l.empty() && l[0] == '#')) out.push_back(l);
  return out;
}

/** The CSV rows as maps column -> value (comments skipped). */
std::vector<std::map<std::string, std::string>> rows_of(const std::string& csv) {
  auto lines = lines_of(csv, true);
  std::vector<std::map<std::string, std::string>> rows;
  if (lines.empty()) return rows;
  auto split = [](const std::string& l) { // RFC 4180: a quoted field doubles its quotes
    std::vector<std::string> cells;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < l.size(); i++) {
      const char c = l[i];
      if (quoted && c == '"' && i + 1 < l.size() && l[i + 1] == '"') {
        cur += '"';
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    cells.push_back(cur);
    return cells;
  };
  const auto header = split(lines[0]);
  for (std::size_t i = 1; i < lines.size(); i++) {
    const auto cells = split(lines[i]);
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < header.size() && c < cells.size(); c++) row[header[c]] = cells[c];
    rows.push_back(row);
  }
  return rows;
}

} // namespace

TEST(Sweep, DryRunListsEveryRunAndWritesNothing) {
  const std::string dir = make_sweep(json::object());
  const auto o = run_cli(fmt::format("sweep {}/sweep.json --dry-run", dir));
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("8 runs, 8 pending"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("    7  pending  period=20min;protocol=none;storage=;seed=2"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("--set 'timers/default/checkpoint_period=\"20min\"' --protocol none --seed 2"),
            std::string::npos)
      << o.out;
  EXPECT_FALSE(fs::exists(dir + "/sweep.csv"));
  EXPECT_FALSE(fs::exists(dir + "/sweep.jsonl"));
}

TEST(Sweep, DryRunChecksEveryRunsInputsAndExitsTwoBeforeAnyRun) {
  // A mistyped field is a path the --set syntax lets through (the document may hold any field):
  // only the timer file's loader refuses it, as each run would.
  const std::string dir = make_sweep(
      {{"axes",
        json::array({{{"name", "period"}, {"set", "timers/default/checkpoint_periodd"}, {"values", {"5min"}}}})}});
  const auto o = run_cli(fmt::format("sweep {}/sweep.json --dry-run", dir));
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("timers.json: /default/checkpoint_periodd: unknown timer \"checkpoint_periodd\" (did you "
                       "mean \"checkpoint_period\"?"),
            std::string::npos)
      << o.out;
  // Checked once per command line but its seed: two protocols, two refusals.
  EXPECT_NE(o.out.find("sweep: run 0 (period=5min;protocol=coordinated;storage=;seed=1) and the runs differing from "
                       "it only by their seed: refused (above)"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("sweep: " + dir + "/sweep.json: the inputs of 2 distinct run(s) are refused: nothing would run"),
            std::string::npos)
      << o.out;
  EXPECT_EQ(o.out.find("pending"), std::string::npos) << o.out; // nothing listed
  EXPECT_FALSE(fs::exists(dir + "/sweep.jsonl"));
}

TEST(Sweep, OneAndTwoJobsGiveTheSameResultsAndTheAxisReallyChangesTheInput) {
  const std::string dir = make_sweep(json::object());
  const auto one = run_cli(fmt::format("sweep {}/sweep.json --jobs 1 --out {}/one", dir, dir));
  ASSERT_EQ(one.status, 0) << one.out;
  const auto two = run_cli(fmt::format("sweep {}/sweep.json --jobs 2 --out {}/two", dir, dir));
  ASSERT_EQ(two.status, 0) << two.out;
  EXPECT_EQ(slurp(dir + "/one.csv"), slurp(dir + "/two.csv"));
  EXPECT_EQ(slurp(dir + "/one.points.csv"), slurp(dir + "/two.points.csv"));
  const auto rows = rows_of(slurp(dir + "/one.csv"));
  ASSERT_EQ(rows.size(), 8u);
  for (std::size_t i = 0; i < rows.size(); i++) {
    EXPECT_EQ(rows[i].at("index"), std::to_string(i));
    EXPECT_EQ(rows[i].at("status"), "ok");
    EXPECT_EQ(rows[i].at("period"), i < 4 ? "5min" : "20min");
    EXPECT_EQ(rows[i].at("protocol"), (i / 2) % 2 == 0 ? "coordinated" : "none");
    EXPECT_EQ(rows[i].at("seed"), std::to_string(i % 2 + 1));
  }
  // The override reached the run: the same point run by hand gives the same figures, and a shorter
  // period saves more checkpoints.
  const auto hand = run_cli(
      fmt::format("run --topology {0}/topology.json --application {0}/application.json --timers {0}/timers.json "
                  "--set 'timers/default/checkpoint_period=\"20min\"' --protocol coordinated --seed 2 --quiet --output "
                  "{0}/hand.json",
                  dir));
  ASSERT_EQ(hand.status, 0) << hand.out;
  const json doc = json::parse(slurp(dir + "/hand.json"));
  EXPECT_EQ(std::stod(rows[5].at("results.makespan")), doc["results"]["makespan"].get<double>());
  EXPECT_EQ(std::stod(rows[5].at("stats.counters.storage.saves")),
            doc["stats"]["counters"]["storage.saves"].get<double>());
  EXPECT_GT(std::stod(rows[1].at("stats.counters.storage.saves")),
            std::stod(rows[5].at("stats.counters.storage.saves")));
  // A JSON pointer keeps a whole value (as its JSON text in the table).
  EXPECT_EQ(json::parse(rows[5].at("/results/consistency")), doc["results"]["consistency"]);
  // Points: the two seeds of each (period, protocol) together.
  const auto points = rows_of(slurp(dir + "/one.points.csv"));
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[1].at("protocol"), "none");
  EXPECT_EQ(points[1].at("runs"), "2");
  const double m = (std::stod(rows[2].at("results.makespan")) + std::stod(rows[3].at("results.makespan"))) / 2;
  EXPECT_NEAR(std::stod(points[1].at("results.makespan.mean")), m, 1e-6 * m);
}

TEST(Sweep, ACrashAndARunPastItsTimeLimitAreRecordedAndTheOthersGoOn) {
  const std::string dir =
      make_sweep({{"axes", json::array({{{"option", "--self-test"}, {"values", {"crash", "none", "hang"}}}})},
                  {"protocols", {"coordinated"}},
                  {"replicates", 1},
                  {"time_limit", "3s"}});
  const auto o = run_cli(fmt::format("sweep {}/sweep.json --jobs 2", dir));
  EXPECT_EQ(o.status, 3) << o.out;
  EXPECT_NE(o.out.find("3 run(s) done now (0 recorded before), 2 failed"), std::string::npos) << o.out;
  // Why they failed, on the terminal too (the records hold the whole story).
  EXPECT_NE(
      o.out.find("sweep: run 0 (self-test=crash;protocol=coordinated;storage=;seed=1): crashed: killed by signal 6"),
      std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("sweep: run 2 (self-test=hang;protocol=coordinated;storage=;seed=1): timeout: killed after "
                       "the time limit of 3 s"),
            std::string::npos)
      << o.out;
  const auto rows = rows_of(slurp(dir + "/sweep.csv"));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].at("self-test"), "crash");
  EXPECT_EQ(rows[0].at("status"), "crashed");
  EXPECT_EQ(rows[0].at("exit"), "6"); // SIGABRT
  EXPECT_EQ(rows[1].at("status"), "ok");
  EXPECT_FALSE(rows[1].at("results.makespan").empty());
  EXPECT_EQ(rows[2].at("status"), "timeout");
  const auto records = lines_of(slurp(dir + "/sweep.jsonl"));
  ASSERT_EQ(records.size(), 3u);
  EXPECT_NE(records[2].find("killed after the time limit of 3 s"), std::string::npos) << records[2];
  const auto points = rows_of(slurp(dir + "/sweep.points.csv"));
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].at("failed"), "1");
}

TEST(Sweep, AnInterruptedSweepResumesWithOnlyTheMissingRuns) {
  const std::string dir = make_sweep(json::object());
  ASSERT_EQ(run_cli(fmt::format("sweep {}/sweep.json --jobs 2 --out {}/full", dir, dir)).status, 0);
  ASSERT_EQ(run_cli(fmt::format("sweep {}/sweep.json --jobs 2", dir)).status, 0);
  // An interruption: the last three runs never ended, the one being written was cut short.
  auto lines = lines_of(slurp(dir + "/sweep.jsonl"));
  ASSERT_EQ(lines.size(), 8u);
  {
    std::ofstream out(dir + "/sweep.jsonl");
    for (std::size_t i = 0; i < 5; i++) out << lines[i] << "\n";
    out << lines[5].substr(0, lines[5].size() / 2);
  }
  const auto o = run_cli(fmt::format("sweep {}/sweep.json --jobs 2", dir));
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("3 run(s) done now (5 recorded before), 0 failed"), std::string::npos) << o.out;
  EXPECT_EQ(lines_of(slurp(dir + "/sweep.csv"), true), lines_of(slurp(dir + "/full.csv"), true));
  // Nothing left to do: a second resume runs nothing.
  const auto again = run_cli(fmt::format("sweep {}/sweep.json", dir));
  EXPECT_NE(again.out.find("0 run(s) done now (8 recorded before)"), std::string::npos) << again.out;
  // The sweep file changed: its old results are not mixed with new ones.
  json sweep = json::parse(slurp(dir + "/sweep.json"));
  sweep["replicates"] = 3;
  std::ofstream(dir + "/sweep.json") << sweep.dump();
  const auto changed = run_cli(fmt::format("sweep {}/sweep.json", dir));
  EXPECT_EQ(changed.status, 2);
  EXPECT_NE(changed.out.find("made by a different sweep"), std::string::npos) << changed.out;
}

TEST(Sweep, EmittedJobLinesRunAnywhereAndMergeIntoTheSameTable) {
  const std::string dir = make_sweep(json::object());
  ASSERT_EQ(run_cli(fmt::format("sweep {}/sweep.json --out {}/local", dir, dir)).status, 0);
  const auto jobs = run_cli(fmt::format("sweep {}/sweep.json --emit jobs --out {}/remote", dir, dir));
  ASSERT_EQ(jobs.status, 0) << jobs.out;
  const auto lines = lines_of(jobs.out);
  ASSERT_EQ(lines.size(), 8u) << jobs.out;
  for (const auto& l : lines) ASSERT_EQ(std::system(("cd / && " + l + " 2>/dev/null").c_str()), 0) << l;
  const auto merged = run_cli(fmt::format("merge --out {0}/merged {0}/remote.parts/*.jsonl", dir));
  ASSERT_EQ(merged.status, 0) << merged.out;
  EXPECT_EQ(lines_of(slurp(dir + "/merged.csv"), true), lines_of(slurp(dir + "/local.csv"), true));
  EXPECT_EQ(lines_of(slurp(dir + "/merged.points.csv"), true), lines_of(slurp(dir + "/local.points.csv"), true));
  // The parts hold every run: nothing left to emit, and no script.
  const auto slurm = run_cli(fmt::format("sweep {}/sweep.json --emit slurm --out {}/remote", dir, dir));
  ASSERT_EQ(slurm.status, 0);
  EXPECT_EQ(slurm.out,
            fmt::format("sweep: nothing to emit: every run of {0}/sweep.json is recorded in {0}/remote.jsonl "
                        "or {0}/remote.parts/ (0 failed); no script written\n",
                        dir));
  // Parts of another sweep are refused.
  const std::string other = make_sweep({{"replicates", 1}});
  ASSERT_EQ(run_cli(fmt::format("sweep {}/sweep.json --only 0", other)).status, 0);
  const auto mixed = run_cli(fmt::format("merge --out {0}/x {0}/remote.parts/0.jsonl {1}/sweep.jsonl", dir, other));
  EXPECT_EQ(mixed.status, 2);
  EXPECT_NE(mixed.out.find("a part of a different sweep"), std::string::npos) << mixed.out;
}

namespace {

/** One column of a table's rows. */
std::vector<std::string> column(const std::vector<std::map<std::string, std::string>>& rows, const std::string& name) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.at(name));
  return out;
}

/** The exit status of a shell script. */
int shell(const std::string& script) {
  const int st = std::system(script.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

} // namespace

TEST(Sweep, AnEmittedSlurmArrayRunsBatchesWithinItsTaskLimitAndMergesIntoTheSameTable) {
  const std::string dir = make_sweep({{"time_limit", "5s"}});
  ASSERT_EQ(run_cli(fmt::format("sweep {}/sweep.json --out {}/local", dir, dir)).status, 0);
  const auto o = run_cli(fmt::format("sweep {}/sweep.json --emit slurm --out {}/remote --max-tasks 3", dir, dir));
  ASSERT_EQ(o.status, 0) << o.out;
  // 8 runs in at most 3 tasks: 3 runs per task, task ids from 0 whatever the run indices.
  EXPECT_NE(o.out.find("\n#SBATCH --array=0-2\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\nruns=(0-2 3-5 6-7)\nfirst=(0 3 6)\n"), std::string::npos) << o.out;
  // 3 runs of at most 5 s one after the other, 2 min for the start, rounded up to the minute.
  EXPECT_NE(o.out.find("\n#SBATCH --time=0-00:03:00\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(fmt::format("\n#SBATCH --output={}/remote.parts/slurm-%A_%a.out\n", dir)), std::string::npos);
  EXPECT_NE(o.out.find("--jobs \"${SLURM_CPUS_PER_TASK:-1}\" --progress false --time-limit 5s\n"), std::string::npos)
      << o.out;
  // Slurm opens the tasks' output files before they start: the folder exists once emitted.
  EXPECT_TRUE(fs::is_directory(dir + "/remote.parts"));
  std::ofstream(dir + "/array.sbatch") << o.out;
  // Not under Slurm, or a task id past the batches: the script says so instead of running something.
  EXPECT_NE(shell(fmt::format("cd / && bash {}/array.sbatch 2>/dev/null", dir)), 0);
  EXPECT_EQ(shell(fmt::format("cd / && SLURM_ARRAY_TASK_ID=3 bash {}/array.sbatch 2>/dev/null", dir)), 2);
  EXPECT_TRUE(fs::is_empty(dir + "/remote.parts"));
  // Task 1 runs 3-5 into part 3. Then the rest of the sweep is pending, and a sweep emitted again
  // holds only those runs.
  ASSERT_EQ(shell(fmt::format("cd / && SLURM_ARRAY_TASK_ID=1 bash {}/array.sbatch 2>/dev/null", dir)), 0);
  ASSERT_TRUE(fs::exists(dir + "/remote.parts/3.jsonl"));
  EXPECT_EQ(lines_of(slurp(dir + "/remote.parts/3.jsonl")).size(), 3u);
  const auto again =
      run_cli(fmt::format("sweep {}/sweep.json --emit slurm --out {}/remote --runs-per-task 2", dir, dir));
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find("over the 5 pending run(s) (of 8)"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("\n#SBATCH --array=0-2\n"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("\nruns=(0-1 2,6 7)\nfirst=(0 2 7)\n"), std::string::npos) << again.out;
  std::ofstream(dir + "/again.sbatch") << again.out;
  for (int task = 0; task < 3; task++)
    ASSERT_EQ(shell(fmt::format("cd / && SLURM_ARRAY_TASK_ID={} bash {}/again.sbatch 2>/dev/null", task, dir)), 0);
  const auto merged = run_cli(fmt::format("merge --out {0}/merged {0}/remote.parts/*.jsonl", dir));
  ASSERT_EQ(merged.status, 0) << merged.out;
  EXPECT_NE(merged.out.find("merge: 8 run(s) from 4 file(s)"), std::string::npos) << merged.out;
  EXPECT_EQ(lines_of(slurp(dir + "/merged.csv"), true), lines_of(slurp(dir + "/local.csv"), true));
  EXPECT_EQ(lines_of(slurp(dir + "/merged.points.csv"), true), lines_of(slurp(dir + "/local.points.csv"), true));
  // A sweep run here after the array finds every run in the parts: it runs nothing and writes the
  // whole table.
  const auto here = run_cli(fmt::format("sweep {0}/sweep.json --out {0}/remote", dir));
  ASSERT_EQ(here.status, 0) << here.out;
  EXPECT_NE(here.out.find("0 run(s) done now (8 recorded before)"), std::string::npos) << here.out;
  EXPECT_EQ(lines_of(slurp(dir + "/remote.csv"), true), lines_of(slurp(dir + "/local.csv"), true));
}

TEST(Sweep, AMergeKeepsTheRunsAlreadyRecordedAndARetryReachesTheFailedRunsPart) {
  const std::string dir = make_sweep(json::object());
  ASSERT_EQ(run_cli(fmt::format("sweep {}/sweep.json --out {}/local", dir, dir)).status, 0);
  // Half of the sweep here, the other half as job lines: the merge into the same prefix keeps both.
  ASSERT_EQ(run_cli(fmt::format("sweep {}/sweep.json --only 0-3", dir)).status, 0);
  auto o = run_cli(fmt::format("sweep {}/sweep.json --emit jobs", dir));
  ASSERT_EQ(lines_of(o.out).size(), 4u) << o.out;
  for (const auto& l : lines_of(o.out)) ASSERT_EQ(shell("cd / && " + l + " 2>/dev/null"), 0) << l;
  o = run_cli(fmt::format("merge --out {0}/sweep {0}/sweep.parts/*.jsonl", dir));
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("merge: 8 run(s) from 5 file(s)"), std::string::npos) << o.out;
  EXPECT_EQ(lines_of(slurp(dir + "/sweep.csv"), true), lines_of(slurp(dir + "/local.csv"), true));
  // A run that crashes in its part: --retry-failed emits it with --retry-failed, so that its
  // batch runs it again instead of finding it recorded.
  const std::string crash =
      make_sweep({{"axes", json::array({{{"option", "--self-test"}, {"values", {"crash", "none"}}}})},
                  {"protocols", {"coordinated"}},
                  {"replicates", 1}});
  o = run_cli(fmt::format("sweep {}/sweep.json --emit jobs", crash));
  ASSERT_EQ(lines_of(o.out).size(), 2u) << o.out;
  for (const auto& l : lines_of(o.out)) shell("cd / && " + l + " 2>/dev/null");
  o = run_cli(fmt::format("sweep {}/sweep.json --emit jobs --retry-failed", crash));
  const auto retry = lines_of(o.out);
  ASSERT_EQ(retry.size(), 1u) << o.out;
  EXPECT_NE(
      retry[0].find(fmt::format(" --only 0 --out {}/sweep.parts/0 --jobs 1 --progress false --retry-failed", crash)),
      std::string::npos)
      << retry[0];
  EXPECT_EQ(shell(fmt::format("cd / && {} 2>{}/retry.err", retry[0], crash)), 3); // it crashes again
  EXPECT_NE(slurp(crash + "/retry.err").find("1 run(s) done now (1 recorded before), 1 failed"), std::string::npos)
      << slurp(crash + "/retry.err");
  o = run_cli(fmt::format("sweep {}/sweep.json --emit slurm --retry-failed", crash));
  EXPECT_NE(o.out.find("--progress false --retry-failed\n"), std::string::npos) << o.out;
}

TEST(Sweep, EmittingChecksItsLimitsAndOptions) {
  const std::string dir = make_sweep(json::object());
  auto o = run_cli(fmt::format("sweep {}/sweep.json --emit slurm --runs-per-task 1 --max-tasks 3", dir));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.out.find("--runs-per-task: 1 run(s) per task make 8 array tasks for the 8 pending runs, more than "
                       "--max-tasks 3: give at least 3 runs per task"),
            std::string::npos)
      << o.out;
  EXPECT_FALSE(fs::exists(dir + "/sweep.parts"));
  // --restart with options refused discards nothing.
  ASSERT_EQ(run_cli(fmt::format("sweep {}/sweep.json --only 0", dir)).status, 0);
  o = run_cli(fmt::format("sweep {}/sweep.json --restart --emit slurm --runs-per-task 1 --max-tasks 3", dir));
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(lines_of(slurp(dir + "/sweep.jsonl")).size(), 1u);
  o = run_cli(fmt::format("sweep {}/sweep.json --only ''", dir));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.out.find("--only: an empty list"), std::string::npos) << o.out;
  o = run_cli(fmt::format("sweep {}/sweep.json --runs-per-task 2", dir));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.out.find("--runs-per-task: only applies to --emit"), std::string::npos) << o.out;
  o = run_cli(fmt::format("sweep {}/sweep.json --emit slurm --out '{}/50%'", dir, dir));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.out.find("Slurm reads '%' in an output file name as a pattern"), std::string::npos) << o.out;
  o = run_cli(fmt::format("sweep {}/sweep.json --emit jobs --cpus-per-task 5000", dir));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.out.find("--cpus-per-task: expected a number from 1 to 4096"), std::string::npos) << o.out;
  // The daly sweep's size: 2,200 runs fit Slurm's default limit with 3 runs per task.
  const std::string big = make_sweep({{"replicates", 550}});
  o = run_cli(fmt::format("sweep {}/sweep.json --emit slurm", big));
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("2200 pending run(s) (of 2200)"), std::string::npos);
  EXPECT_NE(o.out.find("734 task(s) of up to 3 run(s)"), std::string::npos);
  EXPECT_NE(o.out.find("\n#SBATCH --array=0-733\n"), std::string::npos);
  EXPECT_NE(o.out.find(" 2196-2198 2199)\n"), std::string::npos);
  // Job lines: one per run by default, batches on request.
  o = run_cli(fmt::format("sweep {}/sweep.json --emit jobs --runs-per-task 3 --cpus-per-task 2", dir));
  ASSERT_EQ(o.status, 0) << o.out;
  const auto lines = lines_of(o.out);
  ASSERT_EQ(lines.size(), 3u) << o.out;
  // Run 0 is recorded (above): the pending runs 1-7 in threes.
  EXPECT_NE(lines[2].find(fmt::format(" --only 7 --out {}/sweep.parts/7 --jobs 2 --progress false", dir)),
            std::string::npos)
      << lines[2];
}

TEST(Sweep, SigtermStopsTheSweepRecordsTheRunUnderWayAndLeavesTheRestPending) {
  // What Slurm does at a task's time limit or on scancel: SIGTERM.
  const std::string dir =
      make_sweep({{"axes", json::array({{{"option", "--self-test"}, {"values", {"none", "hang"}}}})},
                  {"protocols", {"coordinated"}},
                  {"replicates", 3}});
  const int status = shell(fmt::format("cd / && {} sweep {}/sweep.json --jobs 1 2>{}/err & p=$!; "
                                       "for i in $(seq 600); do [ -e {}/sweep.jsonl.tmp/3.err ] && break; sleep 0.05; "
                                       "done; sleep 0.2; kill -TERM $p; wait $p",
                                       CKPTSIM_BINARY, dir, dir, dir));
  EXPECT_EQ(status, 3) << slurp(dir + "/err");
  EXPECT_NE(slurp(dir + "/err")
                .find("stopped by SIGTERM: the runs under way are recorded as crashed, 2 run(s) not "
                      "started"),
            std::string::npos)
      << slurp(dir + "/err");
  const auto rows = rows_of(slurp(dir + "/sweep.csv"));
  EXPECT_EQ(column(rows, "status"), (std::vector<std::string>{"ok", "ok", "ok", "crashed"}));
  EXPECT_EQ(column(rows, "exit"), (std::vector<std::string>{"0", "0", "0", "15"})); // SIGTERM
  EXPECT_NE(slurp(dir + "/sweep.jsonl").find("stopped by SIGTERM with its sweep"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir + "/sweep.jsonl.tmp"));
  // Again: only the two runs never started (the crash stays recorded, as a local one would); they
  // hang too, and a time limit ends them.
  const auto o = run_cli(fmt::format("sweep {}/sweep.json --jobs 2 --time-limit 1s", dir));
  EXPECT_EQ(o.status, 3) << o.out;
  EXPECT_NE(o.out.find("2 run(s) done now (4 recorded before), 2 failed"), std::string::npos) << o.out;
  EXPECT_EQ(column(rows_of(slurp(dir + "/sweep.csv")), "status"),
            (std::vector<std::string>{"ok", "ok", "ok", "crashed", "timeout", "timeout"}));
}

TEST(Sweep, BadSweepFilesAndOptionsExitTwoNamingTheField) {
  const std::string dir = make_sweep({{"axes", json::array({{{"set", "timers/nosuch/x"}, {"values", {1}}}})}});
  auto o = run_cli(fmt::format("sweep {}/sweep.json", dir));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.out.find("sweep.json: /axes: run 0"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("timers has no field /nosuch"), std::string::npos) << o.out;
  EXPECT_FALSE(fs::exists(dir + "/sweep.csv"));
  o = run_cli(fmt::format("sweep {}/sweep.json --jobs 0", dir));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.out.find("--jobs"), std::string::npos);
  o = run_cli(fmt::format("sweep {}/sweep.json --only 9-3", make_sweep(json::object())));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.out.find("--only: \"9-3\""), std::string::npos) << o.out;
}
