#include "sim/cli/sweep/process_pool.hpp"

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ckptsim::sweep {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
} // namespace

ProcessPool::~ProcessPool() {
  // The caller stopped early (an exception): no child outlives the sweep.
  for (const auto& [pid, child] : running_) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
}

void ProcessPool::start(std::size_t id, const std::function<int()>& body, const std::string& stderr_path) {
  std::fflush(stdout);
  std::fflush(stderr);
  // The parent may catch SIGTERM (StopRequest); a run must die of it, as under Slurm's own kill.
  // Blocked across fork, a SIGTERM sent to the new child before it drops the parent's handler
  // stays pending until it has, instead of being swallowed by that handler.
  sigset_t term, previous;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigprocmask(SIG_BLOCK, &term, &previous);
  const pid_t pid = fork();
  if (pid != 0) sigprocmask(SIG_SETMASK, &previous, nullptr);
  if (pid < 0) throw std::runtime_error("sweep: fork failed");
  if (pid == 0) {
    signal(SIGTERM, SIG_DFL);
    sigprocmask(SIG_SETMASK, &previous, nullptr);
    const int out = open("/dev/null", O_WRONLY);
    const int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) dup2(out, STDOUT_FILENO);
    if (err >= 0) dup2(err, STDERR_FILENO);
    int status = 3;
    try {
      status = body();
    } catch (...) {
      status = 3;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(status);
  }
  running_[pid] = Child{id, std::chrono::steady_clock::now()};
}

std::pair<std::size_t, Outcome> ProcessPool::wait_one(const std::function<bool()>& stop) {
  if (running_.empty()) throw std::logic_error("sweep: wait_one with no job running");
  while (true) {
    if (!stopping_ && stop && stop()) {
      stopping_ = true;
      stop_sent_ = std::chrono::steady_clock::now();
      for (const auto& [pid, child] : running_) kill(pid, SIGTERM);
    } else if (stopping_ && seconds_since(stop_sent_) > kStopGrace) {
      // A run that ignores SIGTERM must not keep the sweep (and its scheduler's job) alive.
      for (const auto& [pid, child] : running_) kill(pid, SIGKILL);
    }
    for (auto it = running_.begin(); it != running_.end(); ++it) {
      int st = 0;
      const pid_t pid = it->first;
      const Child child = it->second;
      Outcome o;
      if (waitpid(pid, &st, WNOHANG) == pid) {
        o.wall = seconds_since(child.started);
        if (WIFSIGNALED(st)) {
          o.kind = Outcome::Kind::Signaled;
          o.code = WTERMSIG(st);
        } else {
          o.code = WEXITSTATUS(st);
        }
      } else if (time_limit_ > 0 && seconds_since(child.started) > time_limit_) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        o.kind = Outcome::Kind::TimedOut;
        o.wall = seconds_since(child.started);
      } else {
        continue;
      }
      running_.erase(it);
      return {child.id, o};
    }
    // Polling keeps the pool simple (no SIGCHLD handler racing with the caller's own waits);
    // 10 ms is nothing next to a simulation's start-up.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

} // namespace ckptsim::sweep
