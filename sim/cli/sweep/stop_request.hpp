/* SIGTERM asks a sweep to stop: it is how Slurm ends a task at its time limit or on scancel (and
 * how `kill` ends a process). The sweep then starts no more runs, stops the ones under way and
 * records them like any run killed by a signal, so that a run lost on a cluster is a recorded
 * failure, not a silent gap. Ctrl-C (SIGINT) keeps its default: an interrupted sweep resumes. */
#pragma once

#include <csignal>

namespace ckptsim::sweep {

class StopRequest {
 public:
  /** @brief Catches SIGTERM for the object's lifetime (the previous action comes back after). */
  StopRequest();
  ~StopRequest();
  StopRequest(const StopRequest&) = delete;
  StopRequest& operator=(const StopRequest&) = delete;

  /** @brief Whether SIGTERM arrived since construction. */
  bool requested() const;

 private:
  struct sigaction previous_ {};
};

} // namespace ckptsim::sweep
