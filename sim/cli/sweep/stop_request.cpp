#include "sim/cli/sweep/stop_request.hpp"

namespace ckptsim::sweep {

namespace {
volatile std::sig_atomic_t g_requested = 0; // all a signal handler may touch
extern "C" void on_term(int) { g_requested = 1; }
} // namespace

StopRequest::StopRequest() {
  g_requested = 0;
  struct sigaction action {};
  action.sa_handler = on_term;
  action.sa_flags = SA_RESTART; // a blocking waitpid goes on instead of failing with EINTR
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, &previous_);
}

StopRequest::~StopRequest() { sigaction(SIGTERM, &previous_, nullptr); }

bool StopRequest::requested() const { return g_requested != 0; }

} // namespace ckptsim::sweep
