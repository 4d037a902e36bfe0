/* `ckptsim list` prints every registry: the protocols, the application kinds, the storage models,
 * the failure sources and the timers, with their parameters and fields; `ckptsim protocols` the
 * protocols and the timers, as before `list` existed. The sections' full text is tested in
 * tests/unit/test_registries.cpp; here, that the command prints them all, and their names. */
#include "sim/cli/listing.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <sstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {
// The section titles (a line starting without a space, up to its first " (") and, under each, the
// modules (two spaces and a name) and their fields or parameters (the first word of a line indented
// further, "--param NAME=..." giving NAME), in the order printed.
std::vector<std::string> outline(const std::string& listing) {
  std::vector<std::string> out;
  std::istringstream in(listing);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      out.push_back(line.substr(0, line.find(" (")));
    } else if (line.rfind("   ", 0) != 0) {
      out.push_back("  " + line.substr(2, line.find(' ', 2) - 2));
    } else {
      std::size_t first = line.find_first_not_of(' ');
      if (line.compare(first, 8, "--param ") == 0) first += 8;
      out.push_back("    " + line.substr(first, line.find_first_of(" =", first) - first));
    }
  }
  return out;
}
} // namespace

TEST(CliList, PrintsEveryRegistry) {
  auto o = run_cli("list");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_EQ(o.out, cli::protocols_listing() + "\n" + cli::application_kinds_listing() + "\n" +
                       cli::storage_models_listing() + "\n" + cli::failure_sources_listing() + "\n" +
                       cli::timers_listing());
  const std::vector<std::string> want{
      // clang-format off
      "Protocols",
      "  cck", "    reuse",
      "  coordinated", "    trigger",
      "  hc3i", "    transitive",
      "  independent", "    unit",
      "  msglog", "    variant", "    keep",
      "  none",
      "  taskgraph", "    interval",
      "Application kinds",
      "  stochastic", "    total_time", "    clusters", "    message_size", "    node_matrix",
      "  scripted", "    nodes", "    failures", "    expected",
      "  stencil", "    dims", "    width", "    height", "    iterations", "    task_cost", "    cell_size",
      "    grid_columns", "    schedule", "    task_descriptor_size",
      "  master-worker", "    matrix_size", "    repetitions", "    row_cost", "    element_size",
      "  mpi-trace", "    trace", "    placement", "    compute_scale", "    sends",
      "Storage models",
      "  servers", "    servers", "    server_link",
      "  buddy",
      "  replicated", "    copies", "    depth",
      "  levels", "    levels",
      "Failure sources",
      "  exponential",
      "  weibull", "    shape",
      "  trace", "    trace",
      "  lanl", "    file", "    system", "    from", "    to", "    causes", "    nodes",
      "  fta", "    file", "    platform_id", "    from", "    to", "    nodes",
      "  none",
      "Timers",
      "  checkpoint_period",
      "  gc_period",
      // clang-format on
  };
  EXPECT_EQ(outline(o.out), want) << o.out;
}

TEST(CliList, ProtocolsStillPrintsTheProtocolsAndTheTimers) {
  auto o = run_cli("protocols");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_EQ(o.out, cli::protocols_listing() + "\n" + cli::timers_listing());
  EXPECT_NE(o.out.find("\nTimers (timer file):\n  checkpoint_period  delay between two unforced checkpoints"),
            std::string::npos)
      << o.out;
}
