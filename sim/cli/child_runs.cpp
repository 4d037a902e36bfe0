#include "sim/cli/child_runs.hpp"

#include "sim/cli/commands.hpp"
#include "sim/cli/failure_free.hpp"
#include "sim/cli/sweep/process_pool.hpp"
#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace ckptsim::cli {

void run_all(std::vector<ChildRun>& runs, int jobs, const std::string& program, const std::string& dir,
             const std::string& what) {
  // Runs of the same inputs but their protocol (compare's protocols at one seed) share one
  // failure-free reference simulation.
  const FailureFreeCache cache((std::filesystem::path(dir) / "failure-free").string());
  sweep::ProcessPool pool(jobs, 0);
  const bool terminal = isatty(STDERR_FILENO) != 0; // a line redrawn for a person, a line per run for a log
  std::size_t next = 0, done = 0;
  auto finish = [&](std::size_t id, const sweep::Outcome& o) {
    ChildRun& r = runs[id];
    r.status = o.kind == sweep::Outcome::Kind::Exited ? o.code : 128 + o.code;
    std::ifstream in(r.output);
    if (in) r.doc = nlohmann::json::parse(in, nullptr, false);
    if (r.doc.is_discarded()) r.doc = nullptr;
    std::ifstream err(std::filesystem::path(dir) / fmt::format("run-{}.err", id));
    r.error.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
    while (!r.error.empty() && r.error.back() == '\n') r.error.pop_back();
    done++;
    if (!what.empty())
      std::fprintf(stderr, "%s%s: %zu/%zu runs%s", terminal ? "\r" : "", what.c_str(), done, runs.size(),
                   terminal ? "" : "\n");
  };
  while (next < runs.size() || pool.running() > 0) {
    while (next < runs.size() && !pool.full()) {
      const std::size_t id = next++;
      runs[id].output = (std::filesystem::path(dir) / fmt::format("run-{}.json", id)).string();
      std::vector<std::string> args = runs[id].args;
      args.insert(args.end(), {"--quiet", "--progress", "false", "--output", runs[id].output});
      pool.start(
          id,
          [args, &program] {
            try {
              return run_command(args, program);
            } catch (const InputError& e) {
              std::fprintf(stderr, "%s\n", e.what());
              return 2;
            }
          },
          (std::filesystem::path(dir) / fmt::format("run-{}.err", id)).string());
    }
    auto [id, outcome] = pool.wait_one();
    finish(id, outcome);
  }
  if (!what.empty() && terminal) std::fprintf(stderr, "\n");
}

std::vector<std::string> protocol_args(const ProtocolChoice& p) {
  std::vector<std::string> out{"--protocol", p.name};
  for (const auto& kv : p.params) out.insert(out.end(), {"--param", kv});
  return out;
}

} // namespace ckptsim::cli
