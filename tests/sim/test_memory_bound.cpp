/* Memory bounded by what a rollback can undo (issue 34, item 2): the consistency oracle folds
 * what lies behind every process' oldest restorable state, so a failure-free run holds as many
 * events after 40 simulated hours as after 10, and its peak memory stays the same; runs with
 * failures fold too and are still checked without a violation. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

// The embedded default federation without failures, for @p hours of application.
std::vector<std::string> failure_free(const std::string& protocol, int hours, const std::string& out) {
  return {"run",
          "--protocol",
          protocol,
          "--set",
          "topology/mtbf=inf",
          "--set",
          "application/total_time=" + std::to_string(hours) + "h",
          "--quiet",
          "-o",
          out};
}

struct Measured {
  int status = -1;
  double peak_mib = 0; // the kernel's ru_maxrss of the run and its simulating child
};

Measured run_binary(const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(CKPTSIM_BINARY)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(CKPTSIM_BINARY, argv.data());
    _exit(127);
  }
  int st = 0;
  rusage ru{};
  wait4(pid, &st, 0, &ru);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, static_cast<double>(ru.ru_maxrss) / 1024.0};
}

json consistency(const std::string& path) { return json::parse(slurp(path))["results"]["consistency"]; }

} // namespace

TEST(MemoryBound, OracleHoldsAsManyEventsAfter40HoursAsAfter10) {
  for (const std::string protocol : {"none", "hc3i"}) {
    const std::string a = temp_path("fold10.json"), b = temp_path("fold40.json");
    ASSERT_EQ(run_binary(failure_free(protocol, 10, a)).status, 0) << protocol;
    ASSERT_EQ(run_binary(failure_free(protocol, 40, b)).status, 0) << protocol;
    const json c10 = consistency(a), c40 = consistency(b);
    EXPECT_EQ(c10["violations"], 0);
    EXPECT_EQ(c40["violations"], 0);
    // Four times the messages (~5,700 per 10 h, two events each), folded: without folding the
    // oracle would hold every one of them (~45,000 events at 40 h).
    EXPECT_GT(c40["events_folded"].get<double>(), 30000) << protocol;
    EXPECT_LE(c40["events_held_at_most"].get<double>(), 1.1 * c10["events_held_at_most"].get<double>())
        << protocol << ": 10 h " << c10 << ", 40 h " << c40;
    std::remove(a.c_str());
    std::remove(b.c_str());
  }
}

TEST(MemoryBound, PeakMemoryOf40HoursWithin10PercentOf10Hours) {
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "AddressSanitizer's quarantine grows with what was freed";
#endif
  for (const std::string protocol : {"none", "hc3i"}) {
    const std::string out = temp_path("peak.json");
    const Measured m10 = run_binary(failure_free(protocol, 10, out));
    const Measured m40 = run_binary(failure_free(protocol, 40, out));
    std::remove(out.c_str());
    ASSERT_EQ(m10.status, 0);
    ASSERT_EQ(m40.status, 0);
    RecordProperty(protocol + "_10h_MiB", std::to_string(m10.peak_mib));
    RecordProperty(protocol + "_40h_MiB", std::to_string(m40.peak_mib));
    EXPECT_LE(m40.peak_mib, 1.1 * m10.peak_mib)
        << protocol << ": 10 h " << m10.peak_mib << " MiB, 40 h " << m40.peak_mib << " MiB";
  }
}

TEST(MemoryBound, RunsWithFailuresFoldAndStayConsistent) {
  // The default scenario's seed 2 draws five failures in 10 h (three or more strike before a run ends): none restarts
  // everybody from scratch across folded history, the others roll back to checkpoints.
  for (const std::string protocol : {"none", "coordinated", "hc3i", "msglog", "independent"}) {
    const std::string out = temp_path("failing.json");
    auto r = run_cli("run --protocol " + protocol + " --seed 2 --quiet -o " + out);
    ASSERT_EQ(r.status, 0) << protocol << ": " << r.out;
    const json doc = json::parse(slurp(out));
    std::remove(out.c_str());
    EXPECT_GE(doc["results"]["failures"].get<int>(), 3) << protocol;
    EXPECT_GT(doc["results"]["consistency"]["checks"].get<int>(), 1) << protocol;
    EXPECT_EQ(doc["results"]["consistency"]["violations"], 0) << protocol;
    EXPECT_GT(doc["results"]["consistency"]["events_folded"].get<double>(), 0) << protocol;
  }
}
