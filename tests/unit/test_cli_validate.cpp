/* Tests of the real ckptsim binary on broken inputs: exit status 2, one "file: /json/path: problem"
 * line on stderr naming the file, and `run --output` leaving no output file behind when an input is
 * rejected. Also checks that the shipped example files validate. Every invocation only validates
 * (broken inputs fail before the simulation starts); none runs a long simulation. */
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int status = -1;
  std::string out;
  std::string err;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class CliValidate : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(testing::TempDir()) / (std::string("ckptsim_cli_") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "in");
    fs::create_directories(dir_ / "io");
  }
  void TearDown() override { fs::remove_all(dir_); }

  /** @brief Writes an input file under in/ and returns its path. */
  std::string input(const std::string& name, const std::string& content) {
    fs::path p = dir_ / "in" / name;
    std::ofstream(p) << content;
    return p.string();
  }

  /** @brief Runs `ckptsim ARGS` (ARGS already quoted for the shell); `timeout` guards a hang. */
  Outcome ckptsim(const std::string& args) {
    const fs::path out = dir_ / "io" / "stdout";
    const fs::path err = dir_ / "io" / "stderr";
    std::string cmd = "timeout 60 '" + std::string(CKPTSIM_BINARY) + "' " + args + " >'" + out.string() + "' 2>'" +
                      err.string() + "'";
    int raw = std::system(cmd.c_str());
    Outcome o;
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    o.out = read_text(out);
    o.err = read_text(err);
    return o;
  }

  /** @brief Files under in/: what a failed run may have left there. */
  std::vector<std::string> inputs_dir() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_ / "in")) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

std::string q(const std::string& s) { return "'" + s + "'"; }

const char* kTopology = R"({
  "clusters": [
    {"name": "a", "nodes": 2, "san": {"latency": "10us", "bandwidth": "80MBps"}},
    {"name": "b", "nodes": 2, "san": {"latency": "10us", "bandwidth": "80MBps"}}],
  "wan": [[{"latency": "150us", "bandwidth": "100MBps"}]],
  "mtbf": "10h"})";

const char* kApplication = R"({
  "kind": "stochastic", "total_time": "10s",
  "clusters": [{"cluster": "a", "compute": "1s", "send": {"b": 0.5}}, {"cluster": "b", "compute": "1s"}]})";

TEST_F(CliValidate, BrokenTopologyExitsWithStatus2AndNamesFileAndPath) {
  std::string topo = input("topo.json", R"({"clusters": [{"name": "a", "nodes": 2,
    "san": {"latency": "10us", "bandwidth": 0}}], "mtbf": "10h"})");
  Outcome o = ckptsim("validate " + q(topo));
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.err, "ckptsim: " + topo +
                       ": /clusters/0/san/bandwidth: must be a bandwidth greater than zero and finite, found 0\n");
  EXPECT_EQ(o.out, "");
}

TEST_F(CliValidate, InvalidJsonNamesFileAndByteOffset) {
  std::string topo = input("topo.json", "{\"clusters\": [}");
  Outcome o = ckptsim("validate " + q(topo));
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.err.rfind("ckptsim: " + topo + ": /: invalid JSON at byte 15: ", 0), 0u) << o.err;
}

TEST_F(CliValidate, MissingFileAndUnrecognisedContent) {
  Outcome o = ckptsim("validate " + q((dir_ / "in" / "nowhere.json").string()));
  EXPECT_EQ(o.status, 2);
  const std::string nowhere = (dir_ / "in" / "nowhere.json").string();
  EXPECT_EQ(o.err, "ckptsim: " + nowhere + ": /: cannot open this file (" + nowhere + "): No such file or directory\n");
  std::string odd = input("odd.json", R"({"mtbff": "5h"})");
  o = ckptsim("validate " + q(odd));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find(odd + ": /: cannot tell which kind of input this is"), std::string::npos) << o.err;
}

TEST_F(CliValidate, ApplicationNamingAnUnknownCluster) {
  std::string topo = input("topo.json", kTopology);
  std::string app = input("app.json", R"({"kind": "stochastic", "total_time": "10s",
    "clusters": [{"cluster": "a", "compute": "1s"}, {"cluster": "z", "compute": "1s"}]})");
  Outcome o = ckptsim("validate " + q(topo) + " " + q(app));
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.err,
            "ckptsim: " + app + ": /clusters/1/cluster: no cluster named \"z\" in the topology (" + topo + ")\n");
}

TEST_F(CliValidate, ScriptedNodeThatDoesNotExist) {
  // Node names are resolved once the platform exists: still a validation error, with its path.
  std::string topo = input("topo.json", kTopology);
  std::string app = input("app.json", R"({"kind": "scripted", "nodes": {"a-0": [{"compute": 1}], "c7-0": []}})");
  Outcome o = ckptsim("validate --topology " + q(topo) + " --application " + q(app));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("ckptsim: " + app + ": /nodes/c7-0: no node \"c7-0\" in the federation"), std::string::npos)
      << o.err;
}

TEST_F(CliValidate, TimersWithUnknownTimerOrHost) {
  std::string topo = input("topo.json", kTopology);
  std::string app = input("app.json", kApplication);
  std::string timers = input("timers.json", R"({"default": {"checkpoint_perod": "1h"}})");
  Outcome o = ckptsim("validate " + q(topo) + " " + q(app) + " " + q(timers));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("ckptsim: " + timers + ": /default/checkpoint_perod: unknown timer \"checkpoint_perod\""),
            std::string::npos)
      << o.err;
  input("timers.json", R"({"processes": {"a-5": {"checkpoint_period": "1h"}}})");
  o = ckptsim("validate " + q(topo) + " " + q(app) + " --timers " + q(timers));
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.err, "ckptsim: " + timers + ": /processes/a-5: no node \"a-5\" in the federation\n");
}

TEST_F(CliValidate, ValidCustomScenario) {
  std::string topo = input("topo.json", kTopology);
  std::string app = input("app.json", kApplication);
  Outcome o = ckptsim("validate " + q(topo) + " " + q(app));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "ok: topology " + topo + ", application " + app + ", timers <none>, protocol hc3i\n");
}

TEST_F(CliValidate, RunWithBrokenTopologyWritesNoOutput) {
  std::string topo = input("topo.json", R"({"clusters": [{"name": "a", "nodes": 2,
    "san": {"latency": "-1us", "bandwidth": "1GBps"}}]})");
  std::string app = input("app.json", kApplication);
  const std::string out = (dir_ / "in" / "X.json").string();
  Outcome o = ckptsim("run --topology " + q(topo) + " --application " + q(app) + " --end 1s -q --output " + q(out));
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.err,
            "ckptsim: " + topo + ": /clusters/0/san/latency: must be a duration >= 0 and finite, found \"-1us\"\n");
  EXPECT_EQ(inputs_dir(), (std::vector<std::string>{"app.json", "topo.json"})); // no X.json, no temporary file
}

TEST_F(CliValidate, RunWithBadOverrideOrLateErrorWritesNoOutput) {
  std::string topo = input("topo.json", kTopology);
  std::string app = input("app.json", kApplication);
  const std::string out = (dir_ / "in" / "X.json").string();
  const std::string base = "run --topology " + q(topo) + " --application " + q(app) + " --end 1s -q --output " + q(out);

  Outcome o = ckptsim(base + " --set application/clusters/0/send/b=2");
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.err, "ckptsim: " + app + ": /clusters/0/send/b: a probability must be within [0, 1], found 2\n");

  o = ckptsim(base + " --set topology/nothere/x=1");
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.err, "ckptsim: command line: --set topology/nothere/x=1: topology has no field /nothere\n");

  o = ckptsim(base + " --param nosuch=1"); // rejected once the protocol is known, still before simulating
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("ckptsim: command line: --param nosuch: protocol \"hc3i\" has no parameter \"nosuch\""),
            std::string::npos)
      << o.err;

  EXPECT_EQ(inputs_dir(), (std::vector<std::string>{"app.json", "topo.json"}));
}

TEST_F(CliValidate, ShippedWorkloadsValidate) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(CKPTSIM_SOURCE_DIR) / "workloads" / "default"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 3u); // application, timers, topology
  std::string args = "validate";
  for (const auto& f : files) args += " " + q(f);
  Outcome o = ckptsim(args);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out,
            "ok: topology " + files[2] + ", application " + files[0] + ", timers " + files[1] + ", protocol hc3i\n");
  EXPECT_EQ(o.err, "");
}

} // namespace
