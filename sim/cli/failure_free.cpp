#include "sim/cli/failure_free.hpp"

#include "sim/app/kind.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/output.hpp"
#include "sim/cli/run_attempts.hpp"
#include "sim/cli/scenario.hpp"
#include "sim/engine/run.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ckptsim::cli {

bool needs_failure_free_run(const RunConfig& config) {
  const auto& doc = config.application_doc;
  if (!doc.is_object() || !doc.contains("kind") || !doc["kind"].is_string()) return false;
  const ApplicationKindInfo* kind = ApplicationKindRegistry::instance().find(doc["kind"].get<std::string>());
  return kind && kind->waits_for_messages;
}

double failure_free_makespan(const RunConfig& config, const std::string& program,
                             const std::vector<std::string>& sg_args) {
  RunConfig plain = config;
  for (const auto& a : failure_free_assignments(plain.topology_doc)) apply_override(plain, a);
  RunOptions& o = plain.options;
  o.protocol = "none";
  o.params.clear();
  o.trace_file.clear();
  o.paje_file.clear();
  o.quiet = true;
  o.progress = ProgressStyle::Off;
  o.failure_free_makespan = 0;
  const auto out = std::filesystem::temp_directory_path() / fmt::format("ckptsim-failure-free-{}.json", getpid());
  o.output = out.string();
  const Attempt a = attempt_in_child([&] {
    return exit_status_of([&] {
      Run run(plain);
      run.prepare(simgrid_argv(program, sg_args));
      write_results(o.output, run.simulate().document);
      return 0;
    });
  });
  double makespan = 0;
  std::string status = a.signal > 0 ? fmt::format("killed by signal {}", a.signal) : "wrote no results";
  if (std::ifstream in(out); in && a.exit_status == 0 && a.signal == 0) {
    const auto doc = nlohmann::json::parse(in, nullptr, false);
    if (!doc.is_discarded() && doc["results"]["makespan"].is_number())
      makespan = doc["results"]["makespan"].get<double>();
    else if (!doc.is_discarded())
      status = doc["results"]["status"].get<std::string>();
  }
  std::filesystem::remove(out);
  if (!(makespan > 0))
    std::fprintf(stderr,
                 "ckptsim: the failure-free simulation of these inputs (protocol none) did not complete (%s): the "
                 "overhead refers to the longest computation\n",
                 status.c_str());
  return makespan;
}

} // namespace ckptsim::cli
