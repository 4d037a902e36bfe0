/* `ckptsim run` in child processes, several at a time, for the commands that compare runs
 * (compare, advise): the parent never starts SimGrid's engine (it is process-global), each run
 * writes its results document to a file of a temporary folder. */
#pragma once

#include "sim/cli/protocol_list.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ckptsim::cli {

/** @brief One `ckptsim run` in a child process: its arguments, where it writes its results, and
 *  what came of it. */
struct ChildRun {
  std::vector<std::string> args;
  std::string output;
  int status = -1;
  nlohmann::json doc; // null when the run wrote nothing
  std::string error;  // what it wrote on stderr
};

/** @brief `--protocol NAME --param K=V...` for @p p. */
std::vector<std::string> protocol_args(const ProtocolChoice& p);

/** @brief Runs every one of @p runs, @p jobs at a time, their results in @p dir; progress on
 *  stderr when @p what is not empty (a line redrawn on a terminal, else a line per finished run). */
void run_all(std::vector<ChildRun>& runs, int jobs, const std::string& program, const std::string& dir,
             const std::string& what);

} // namespace ckptsim::cli
