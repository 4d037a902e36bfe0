/* Runs jobs in child processes, at most `jobs` at a time, each with an optional wall-clock limit.
 * A child that crashes or outlives its limit (then killed) is one job's outcome, never the
 * caller's: the sweep goes on. Children are forked from a parent that never starts SimGrid's
 * engine (it is process-global), so each job starts from a clean process. */
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <sys/types.h>

namespace ckptsim::sweep {

struct Outcome {
  enum class Kind { Exited, Signaled, TimedOut } kind = Kind::Exited;
  int code = 0;    // exit status (Exited) or signal number (Signaled)
  double wall = 0; // seconds
};

class ProcessPool {
 public:
  /** @param time_limit seconds per job, 0 = none. */
  ProcessPool(int jobs, double time_limit)
      : jobs_(jobs)
      , time_limit_(time_limit) {}
  ~ProcessPool();
  ProcessPool(const ProcessPool&) = delete;
  ProcessPool& operator=(const ProcessPool&) = delete;

  bool full() const { return static_cast<int>(running_.size()) >= jobs_; }
  std::size_t running() const { return running_.size(); }
  /** @brief Starts @p body in a child (its exit status is the job's); the child's stdout goes
   *  nowhere and its stderr to @p stderr_path. */
  void start(std::size_t id, const std::function<int()>& body, const std::string& stderr_path);
  /** @brief Waits until a job ends (killing one that passed its limit); its id and outcome. Once
   *  @p stop returns true, every job under way gets SIGTERM (once) and is waited for. */
  std::pair<std::size_t, Outcome> wait_one(const std::function<bool()>& stop = {});

 private:
  struct Child {
    std::size_t id;
    std::chrono::steady_clock::time_point started;
  };
  int jobs_;
  double time_limit_;
  std::map<pid_t, Child> running_;
  bool stopping_ = false;
  std::chrono::steady_clock::time_point stop_sent_;
  static constexpr double kStopGrace = 3; // seconds between SIGTERM and SIGKILL (Slurm's KillWait is 30 s)
};

} // namespace ckptsim::sweep
