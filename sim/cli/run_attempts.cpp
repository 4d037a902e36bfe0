#include "sim/cli/run_attempts.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <stdexcept>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

// SimGrid 3.32's maxmin/precision (src/kernel/lmm/System.cpp), exported by libsimgrid: read by the
// crash handler below, where its configuration API is no safe call.
extern double sg_maxmin_precision;

namespace ckptsim::cli {

namespace {
constexpr const char* kMarker = "maxmin precision to which it is compared is ";

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return; // our stderr is gone: nothing left to tell
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}
// SimGrid 3.32 formats its max-min abort message with the constraint before the failing one: when
// the first one fails it reads out of bounds and dies of SIGSEGV in MaxMin::do_solve instead
// (fixed after 3.32: "Try to avoid a segfault on assert message"). The same abort, then: say it
// as SimGrid would have, with the precision, and abort. Any other crash is reported as SimGrid's
// own handler would (ours replaces it: SimGrid keeps a handler installed before its engine).
void on_crash(int sig, siginfo_t* info, void*) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  bool in_solver = false;
  for (int i = 0; i < n && !in_solver; i++) {
    Dl_info where;
    in_solver = dladdr(frames[i], &where) != 0 && where.dli_sname != nullptr &&
                std::strstr(where.dli_sname, "lmm6MaxMin8do_solve") != nullptr;
  }
  char text[320];
  int len = 0;
  if (in_solver) {
    len = std::snprintf(text, sizeof text,
                        "ckptsim: SimGrid's max-min solver crashed (SIGSEGV in MaxMin::do_solve, while reporting a "
                        "constraint with no active element): the maxmin precision to which it is compared is %g.\n",
                        sg_maxmin_precision);
    write_all(STDERR_FILENO, text, static_cast<std::size_t>(len));
    std::signal(SIGABRT, SIG_DFL);
    std::abort();
  }
  len = std::snprintf(text, sizeof text, "%s\n",
                      sig == SIGSEGV && info->si_code != SEGV_ACCERR
                          ? "Segmentation fault."
                          : "Access violation or bus error: a programming error, or a stack overflow (try "
                            "--cfg=contexts/stack-size).");
  write_all(STDERR_FILENO, text, static_cast<std::size_t>(len));
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

[[maybe_unused]] void catch_solver_crash() {
  void* warm[1];
  backtrace(warm, 1); // loads what backtrace needs now, not in the handler
  struct sigaction action {};
  action.sa_sigaction = &on_crash;
  action.sa_flags = SA_ONSTACK | SA_RESETHAND | SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, nullptr);
  sigaction(SIGBUS, &action, nullptr);
}
} // namespace

std::optional<double> maxmin_precision_in(const std::string& line) {
  const auto at = line.find(kMarker);
  if (at == std::string::npos) return std::nullopt;
  const char* start = line.c_str() + at + std::char_traits<char>::length(kMarker);
  char* end = nullptr;
  const double v = std::strtod(start, &end);
  if (end == start || !(v > 0)) return std::nullopt;
  return v;
}

Attempt attempt_in_child(const std::function<int()>& body) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("run: pipe failed");
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("run: fork failed");
  if (pid == 0) {
    // A child that outlives this process (killed by a sweep runner's SIGTERM) would simulate on.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(3);
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    close(fds[1]);
#ifndef __SANITIZE_ADDRESS__ // under ASan its own SIGSEGV report is worth more than ours
    catch_solver_crash();
#endif
    const int status = body();
    std::fflush(nullptr);
    _exit(status);
  }
  close(fds[1]);
  Attempt a;
  std::string line;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    // Passed on as it comes (progress lines too), up to SimGrid's line naming the precision: what
    // follows it is SimGrid's backtrace of its abort, which our note replaces.
    ssize_t shown = 0;
    for (ssize_t i = 0; i < n; i++) {
      if (buf[i] != '\n') {
        if (line.size() < 4096) line += buf[i];
        continue;
      }
      if (!a.maxmin_abort) {
        a.maxmin_abort = maxmin_precision_in(line);
        shown = i + 1;
      }
      line.clear();
    }
    if (!a.maxmin_abort) shown = n;
    write_all(STDERR_FILENO, buf, static_cast<std::size_t>(shown));
  }
  if (!a.maxmin_abort) a.maxmin_abort = maxmin_precision_in(line);
  close(fds[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(st)) {
    a.signal = WTERMSIG(st);
    if (a.signal != SIGABRT) a.maxmin_abort.reset();
  } else {
    a.exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 3;
    a.maxmin_abort.reset(); // the message alone (a log line quoted in a trace?) is no abort
  }
  return a;
}

} // namespace ckptsim::cli
