/* The Run's side of the progress watchdog (sim/engine/watchdog.hpp): an actor that looks at the
 * run when it could first be stuck, and ends a run that cannot progress with a status naming
 * what is pending (exit status 3), instead of simulating failures forever. */
#include "sim/engine/run.hpp"
#include "sim/engine/watchdog.hpp"
#include "sim/node/node_runtime.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>

namespace ckptsim {

void Run::start_watchdog() {
  if (!std::isfinite(ending_.stall_limit)) return;
  sg4::Actor::create("watchdog", platform_.controller, [this] {
    while (!ending_.end.over()) {
      ProgressVerdict v = check_progress(progress_state());
      if (v.stuck) {
        // Progress is noted when a step ends: a step under way may already have gone further than
        // ever (a long step is no stall).
        for (NodeId n = 0; n < num_nodes(); n++)
          if (endpoints_.up[n] && endpoints_.runtimes[n] != nullptr && ending_.termination.computing(n))
            ending_.termination.note_progress(n, endpoints_.runtimes[n]->current_work(), 0, sg4::Engine::get_clock());
        v = check_progress(progress_state());
      }
      if (v.stuck) {
        end_stuck(v);
        return;
      }
      sg4::this_actor::sleep_until(v.next_check);
    }
  })->daemonize();
}

ProgressState Run::progress_state() const {
  const double now = sg4::Engine::get_clock();
  return {.now = now,
          .limit = ending_.stall_limit,
          .all_finished = ending_.termination.held(),
          .held_open = ending_.termination.held_open(now),
          .first_finished = ending_.termination.first_all_finished(),
          .idle = ending_.termination.idle(now),
          .last_progress = ending_.termination.last_progress(),
          .failures_since_progress = ending_.termination.failures_since_progress(),
          .excused_until = ending_.termination.excused_until(),
          .last_failure = ending_.termination.last_failure()};
}

std::string Run::pending_report() const {
  std::vector<std::string> items;
  constexpr std::size_t kMax = 6;
  for (NodeId e = 0; e < num_endpoints() && items.size() < kMax; e++) {
    if (ending_.termination.quiet(e) || !endpoints_.up[e] || endpoints_.runtimes[e] == nullptr) continue;
    std::string p = endpoints_.runtimes[e]->pending();
    if (p.empty() && e < num_nodes() && !ending_.termination.finished(e))
      continue; // still working: not what holds the run
    if (p.empty()) p = endpoint_name(e) + ": protocol busy";
    if (std::find(items.begin(), items.end(), p) == items.end()) items.push_back(p);
  }
  // The applications that do not move, grouped by why.
  std::vector<std::string> paused, waiting, holding;
  for (NodeId n = 0; n < num_nodes(); n++) {
    if (!endpoints_.up[n] || ending_.termination.finished(n) || endpoints_.runtimes[n] == nullptr) continue;
    if (endpoints_.runtimes[n]->app_paused())
      paused.push_back(endpoint_name(n));
    else if (endpoints_.runtimes[n]->app_waiting())
      waiting.push_back(endpoint_name(n));
    if (endpoints_.runtimes[n]->app_held() > 0) holding.push_back(endpoint_name(n));
  }
  const auto group = [&items](const std::vector<std::string>& who, const char* what) {
    if (who.empty()) return;
    items.push_back(who.size() <= 4 ? fmt::format("{}: {}", fmt::join(who, ", "), what)
                                    : fmt::format("{}, ... ({} processes): {}",
                                                  fmt::join(who.begin(), who.begin() + 3, ", "), who.size(), what));
  };
  group(paused, "application paused by the protocol");
  group(waiting, "application waits for a message");
  group(holding, "application holds messages whose receives are not posted");
  for (const auto& [id, rec] : failures_.recoveries) {
    if (rec.done || items.size() >= kMax) continue;
    std::vector<std::string> who;
    for (NodeId n : rec.notices) who.push_back(endpoint_name(n));
    std::vector<std::string> victims;
    for (NodeId v : rec.victims) victims.push_back(endpoint_name(v));
    std::string item = fmt::format("the recovery of failure {} ({}) is not over", id, fmt::join(victims, ", "));
    if (!who.empty()) item += fmt::format(": notices not processed by {}", fmt::join(who, ", "));
    who.clear();
    for (NodeId n : rec.to_report) who.push_back(endpoint_name(n));
    if (!who.empty()) item += fmt::format(": waits for the reports of {}", fmt::join(who, ", "));
    items.push_back(item);
  }
  if (!wire_.empty()) items.push_back(fmt::format("{} message(s) on the wire", wire_.size()));
  if (wire_.held() > 0)
    items.push_back(fmt::format("{} of them wait for a route ({})", wire_.held(), links_.down_report()));
  if (!failures_.deferred.empty()) items.push_back(fmt::format("{} deferred failure(s)", failures_.deferred.size()));
  if (items.empty()) items.push_back("nothing the protocol names");
  return fmt::format("{}", fmt::join(items, "; "));
}

void Run::end_stuck(const ProgressVerdict& verdict) {
  if (ending_.end.over()) return;
  const double now = sg4::Engine::get_clock();
  const std::string& why = verdict.why;
  // Under failures that arrive too fast, the cause comes first: what is pending is only its effect.
  const std::string stuck = verdict.rule == ProgressVerdict::Rule::NoProgress
                                ? why + " (pending: " + pending_report() + ")"
                                : pending_report() + " (" + why + ")";
  std::fprintf(stderr, "ckptsim: stuck at %g s: %s\n", now, stuck.c_str());
  observe_.trace.emit(0, now, "stuck", {{"pending", pending_report()}, {"why", why}});
  observe_.stats.record("stuck", {{"date", now}, {"pending", pending_report()}, {"why", why}});
  end_run(RunEnd::Reason::Stuck, stuck);
}

} // namespace ckptsim
