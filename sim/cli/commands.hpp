/* The subcommands of the ckptsim command line. Each returns the process exit status:
 * 0 success, 2 bad input, 3 a run that failed (consistency violation, deadlock). */
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ckptsim::cli {

int run_command(const std::vector<std::string>& args, const std::string& program);
/** @brief The argument vector Run::prepare gives SimGrid: @p program, then its --cfg / --log options. */
std::vector<std::string> simgrid_argv(const std::string& program, const std::vector<std::string>& sg_args);
/** @brief @p body's exit status; an input error it throws is said on stderr as main says it and
 *  gives 2, any other exception 3 (for a child process, whose exceptions main never sees). */
int exit_status_of(const std::function<int()>& body);
/** @brief Checks what `ckptsim run` with @p run_args would read, as the run would before simulating
 *  (`run --check-inputs`): 0, or 2 after saying what is wrong on stderr (3: the check crashed). */
int check_run_inputs(const std::vector<std::string>& run_args, const std::string& program);
int validate_command(const std::vector<std::string>& args, const std::string& program);
int protocols_command(const std::vector<std::string>& args);
/** @brief Lists the protocols, application kinds and storage models with their parameters or fields. */
int list_command(const std::vector<std::string>& args);
int platform_command(const std::vector<std::string>& args);
/** @brief The same inputs and seed under several protocols, one table (each run in a child process). */
int compare_command(const std::vector<std::string>& args, const std::string& program);
/** @brief Which checkpoint plan for these inputs (docs/ADVISE.md); each run in a child process. */
int advise_command(const std::vector<std::string>& args, const std::string& program);
/** @brief Every run of a sweep file, each in a child process, results appended as they finish. */
int sweep_command(const std::vector<std::string>& args, const std::string& program);
/** @brief Combines the result files of parts of one sweep. */
int merge_command(const std::vector<std::string>& args);

} // namespace ckptsim::cli
