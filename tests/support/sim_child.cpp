#include "tests/support/sim_child.hpp"

#include "sim/config/input_error.hpp"
#include "sim/engine/run.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ckptsim::test_support {

CliOutput run_cli(const std::string& args) {
  const std::string cmd = "cd / && " + std::string(CKPTSIM_BINARY) + " " + args + " 2>&1";
  CliOutput o;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return o;
  std::array<char, 4096> buf;
  while (std::fgets(buf.data(), buf.size(), p)) o.out += buf.data();
  const int st = pclose(p);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

ChildText run_forked(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    int status = 0;
    std::string out;
    try {
      out = body();
    } catch (const InputError& e) {
      status = 2;
      out = e.what();
    } catch (const std::exception& e) {
      status = 3;
      out = e.what();
    }
    std::size_t done = 0;
    while (done < out.size()) {
      ssize_t n = write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    close(fds[1]);
    _exit(status);
  }
  close(fds[1]);
  ChildText r;
  char buf[65536];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) r.text.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  r.exit_status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  return r;
}

ChildResult run_in_child(const RunConfig& config) {
  const ChildText child = run_forked([&] {
    Run run(config);
    run.prepare({"ckptsim-test", "--log=root.thres:critical"});
    return nlohmann::json(run.simulate().document).dump();
  });
  ChildResult r;
  r.exit_status = child.exit_status;
  if (r.exit_status == 0)
    r.document = nlohmann::json::parse(child.text);
  else
    r.error = child.text;
  return r;
}

json small_topology(int clusters, int nodes, double mtbf) {
  json t;
  for (int c = 0; c < clusters; c++)
    t["clusters"].push_back(
        {{"name", fmt::format("c{}", c)}, {"nodes", nodes}, {"san", {{"latency", "10us"}, {"bandwidth", "80MBps"}}}});
  t["wan"] = json::array();
  for (int i = 0; i + 1 < clusters; i++) {
    json row = json::array();
    for (int j = i + 1; j < clusters; j++) row.push_back({{"latency", "150us"}, {"bandwidth", "100MBps"}});
    t["wan"].push_back(row);
  }
  if (std::isfinite(mtbf))
    t["mtbf"] = mtbf;
  else
    t["mtbf"] = "inf";
  return t;
}

json small_application(int clusters, double mean, double total, double p_intra, double p_inter) {
  json a{{"kind", "stochastic"}, {"total_time", total}, {"message_size", "4KiB"}};
  for (int c = 0; c < clusters; c++) {
    json send;
    for (int d = 0; d < clusters; d++) send[fmt::format("c{}", d)] = c == d ? p_intra : p_inter;
    a["clusters"].push_back({{"cluster", fmt::format("c{}", c)}, {"compute", mean}, {"send", send}});
  }
  return a;
}

RunConfig make_config(json topology, json application, json timers) {
  RunConfig c;
  c.topology_doc = std::move(topology);
  c.application_doc = std::move(application);
  c.timers_doc = std::move(timers);
  c.topology_file = "<test:topology>";
  c.application_file = "<test:application>";
  c.timers_file = "<test:timers>";
  c.base_dir = ".";
  c.options.progress = ProgressStyle::Off;
  return c;
}

std::vector<json> read_trace(const std::string& path) {
  std::vector<json> events;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) events.push_back(json::parse(line));
  return events;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {
// The paths temp_path gave out, removed (files or folders) when the test program ends, unless a
// test failed: then they stay for a look. Each ctest test is a process of its own, so /tmp does
// not fill up over runs of the suite.
class TempFiles : public ::testing::Environment {
 public:
  void add(std::string path) {
    const std::lock_guard<std::mutex> lock(mutex_);
    paths_.push_back(std::move(path));
  }
  void TearDown() override {
    if (::testing::UnitTest::GetInstance()->Failed()) return;
    std::error_code ec;
    for (const auto& p : paths_) std::filesystem::remove_all(p, ec);
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> paths_;
};

TempFiles& temp_files() {
  static TempFiles* files = [] {
    auto* f = new TempFiles; // owned by googletest
    ::testing::AddGlobalTestEnvironment(f);
    return f;
  }();
  return *files;
}
} // namespace

std::string temp_path(const std::string& name) {
  static std::atomic<int> counter{0};
  std::string path = fmt::format("{}ckptsim-{}-{}-{}", ::testing::TempDir(), getpid(), counter++, name);
  temp_files().add(path);
  return path;
}

std::string temp_folder(const std::string& name) {
  std::string path = temp_path(name);
  std::filesystem::create_directories(path);
  return path;
}

} // namespace ckptsim::test_support
