/* ckptsim: a discrete-event simulator of checkpoint / rollback-recovery protocols on cluster
 * federations. `ckptsim` alone runs the embedded default scenario; see `ckptsim --help`. */
#include "sim/cli/commands.hpp"
#include "sim/version.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {
const char* kUsage = R"(usage: ckptsim [COMMAND] [OPTIONS]

commands:
  run         simulate (the default command; with no option, the embedded default scenario)
  validate    check input files without simulating
  protocols   list the protocols, their parameters and the timers
  list        list the protocols, application kinds, storage models, failure sources and timers, with their fields
              (--results: every field of the results document, the tables of docs/RESULTS.md)
  compare     run several protocols on the same inputs and seed, print one table
  advise      which checkpoint plan (period, storage levels) for these inputs, checked by a sweep
  sweep       run every point of a sweep file in parallel processes (resumable; docs/SWEEP.md)
  merge       combine the result files of parts of a sweep
  platform    write the SimGrid platform XML equivalent to a topology

`ckptsim COMMAND --help` describes a command's options.
)";
}

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string command = "run";
  if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
    command = args[0];
    args.erase(args.begin());
  } else if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  } else if (!args.empty() && args[0] == "--version") {
    std::printf("ckptsim %s\n", ckptsim::version());
    return 0;
  }
  return ckptsim::cli::exit_status_of([&] {
    if (command == "run") return ckptsim::cli::run_command(args, argv[0]);
    if (command == "validate") return ckptsim::cli::validate_command(args, argv[0]);
    if (command == "protocols") return ckptsim::cli::protocols_command(args);
    if (command == "list") return ckptsim::cli::list_command(args);
    if (command == "platform") return ckptsim::cli::platform_command(args);
    if (command == "compare") return ckptsim::cli::compare_command(args, argv[0]);
    if (command == "advise") return ckptsim::cli::advise_command(args, argv[0]);
    if (command == "sweep") return ckptsim::cli::sweep_command(args, argv[0]);
    if (command == "merge") return ckptsim::cli::merge_command(args);
    std::fprintf(stderr, "ckptsim: unknown command \"%s\"\n%s", command.c_str(), kUsage);
    return 2;
  });
}
