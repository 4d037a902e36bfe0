/* A simulation that survives SimGrid's max-min precision abort (issue 34).
 *
 * SimGrid 3.32 aborts the whole process (xbt_assert, SIGABRT) when its max-min solver meets a
 * rounding error above maxmin/precision ("Cannot saturate more a constraint that has no active
 * element"). How large the errors get depends on the traffic as much as on the platform, so the
 * precision ckptsim chooses beforehand (sim/engine/precision.hpp) may still be too small. `ckptsim
 * run` therefore simulates in a forked child whose standard error passes through this process:
 * when the child dies of that abort (SIGABRT after SimGrid's message, which names the precision it
 * compared with), the run starts again from the beginning with ten times that precision, and says
 * so. Same inputs, same seed: the new attempt is the run the user asked for, at another precision;
 * its results document records the precision and the abort (run.maxmin_precision). Past what
 * ckptsim chooses by itself (kMaxChosenPrecision), or with a precision the user gave, the run ends
 * with exit status 2 naming the option. SimGrid 3.32 sometimes crashes (SIGSEGV in its solver)
 * while it formats that abort's message: the child's crash handler says it as the same abort.
 * Any other death of the child is passed on as it is. */
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace ckptsim::cli {

/** @brief How a child simulation ended. */
struct Attempt {
  int exit_status = 0;                // when it exited
  int signal = 0;                     // > 0: the signal that killed it
  std::optional<double> maxmin_abort; // killed by SimGrid's max-min precision abort, at this precision
};

/** @brief Runs @p body in a forked child (its return value is the exit status; an exception
 *  escaping it is the caller's to catch inside @p body) and passes the child's standard error
 *  through, watching it for SimGrid's max-min abort (whose backtrace it leaves out). */
Attempt attempt_in_child(const std::function<int()>& body);

/** @brief The precision SimGrid names in the line of its abort message that says it ("... the
 *  maxmin precision to which it is compared is 1e-05."); nothing on any other line. */
std::optional<double> maxmin_precision_in(const std::string& line);

} // namespace ckptsim::cli
