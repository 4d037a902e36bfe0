/* Runs one simulation in a forked child process and returns its results document: SimGrid's
 * engine is process-global, so a test that needs many simulations (200 seeds) forks one child
 * per simulation instead of spawning the CLI. */
#pragma once

#include "sim/engine/run_config.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace ckptsim::test_support {

struct ChildResult {
  int exit_status = -1;    // 0: ran; 2: InputError; 3: other exception
  std::string error;       // the exception text when exit_status != 0
  nlohmann::json document; // the results document when exit_status == 0
};

/** @brief Runs @p config in a child process. */
ChildResult run_in_child(const RunConfig& config);

struct ChildText {
  int exit_status = -1; // 0: @p body returned; 2: it threw an InputError; 3: another exception
  std::string text;     // what it returned, or the exception's text
};

/** @brief Runs @p body in a forked child process (for anything that needs its own SimGrid engine). */
ChildText run_forked(const std::function<std::string()>& body);

/** @brief A small federation: @p clusters clusters of @p nodes nodes (SAN 10us / 80MBps, WAN
 *  150us / 100MBps), MTBF @p mtbf seconds (inf for none). */
json small_topology(int clusters, int nodes, double mtbf);

/** @brief A stochastic application on small_topology: compute mean @p mean, total @p total,
 *  intra-cluster send probability @p p_intra and inter-cluster @p p_inter. */
json small_application(int clusters, double mean, double total, double p_intra, double p_inter);

/** @brief A RunConfig from documents (protocol none, seed 1, no trace). */
RunConfig make_config(json topology, json application, json timers = json::object());

struct CliOutput {
  int status = -1; // exit status (-1: killed)
  std::string out; // stdout and stderr together
};

/** @brief Runs the ckptsim binary with @p args (a shell word list) from the root folder, so
 *  relative paths would fail: what a user sees from any folder. */
CliOutput run_cli(const std::string& args);

/** @brief Reads a JSON-lines trace file. */
std::vector<json> read_trace(const std::string& path);

/** @brief The whole content of a file ("" if it cannot be read). */
std::string slurp(const std::string& path);

/** @brief A fresh temporary file path (not created). */
std::string temp_path(const std::string& name);
/** @brief A fresh temporary folder (created), removed with temp_path's paths. */
std::string temp_folder(const std::string& name);

} // namespace ckptsim::test_support
