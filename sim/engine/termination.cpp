#include "sim/engine/termination.hpp"

#include <algorithm>

namespace ckptsim {

namespace {
// Sets flags[i] to @p value; true when it changed, @p count follows.
bool set_counted_flag(std::vector<bool>& flags, int& count, int i, bool value) {
  if (flags[i] == value) return false;
  flags[i] = value;
  count += value ? 1 : -1;
  return true;
}
} // namespace

void Termination::reset(int nodes, int endpoints) {
  quiet_.assign(endpoints, false);
  recovering_flags_.assign(endpoints, false);
  finished_.assign(nodes, false);
  computing_.assign(nodes, false);
  best_work_.assign(nodes, 0.0);
  furthest_work_total_ = 0;
  best_delivered_.assign(nodes, 0);
}

bool Termination::set_finished(NodeId node, bool finished, double now) {
  if (!set_counted_flag(finished_, finished_count_, node, finished)) return false;
  if (all_finished()) {
    all_finished_date_ = now;
    if (first_all_finished_ < 0) first_all_finished_ = now;
  }
  update_busy(now);
  return true;
}

void Termination::set_quiet(NodeId endpoint, bool quiet) { set_counted_flag(quiet_, quiet_count_, endpoint, quiet); }

void Termination::set_computing(NodeId node, bool computing, double now) {
  if (set_counted_flag(computing_, computing_count_, node, computing)) update_busy(now);
}

void Termination::set_engine_waiting(bool waiting, double now) {
  engine_waiting_ = waiting;
  update_busy(now);
}

void Termination::set_app_on_wire(bool on_wire, double now) {
  app_on_wire_ = on_wire;
  update_busy(now);
}

void Termination::busy_until(double now, double until) {
  if (idle_since_ >= 0) { // the stretch so far stays idle
    idle_ += idle_between(idle_since_, now);
    idle_since_ = now;
  }
  busy_until_ = std::max(busy_until_, until);
}

void Termination::update_busy(double now) {
  const bool busy_now = computing_count_ > 0 || engine_waiting_ || app_on_wire_ || all_finished();
  if (busy_now && idle_since_ >= 0) {
    idle_ += idle_between(idle_since_, now);
    idle_since_ = -1;
  } else if (!busy_now && idle_since_ < 0) {
    idle_since_ = now;
  }
}

void Termination::note_progress(NodeId node, double work, std::uint64_t delivered, double now) {
  // Work is compared with a relative tolerance: a step redone after a rollback ends at the same
  // amount, give or take rounding.
  const bool further = work > best_work_[node] * (1 + 1e-12) + 1e-12 || delivered > best_delivered_[node];
  if (!further) return;
  if (work > best_work_[node]) {
    furthest_work_total_ += work - best_work_[node];
    best_work_[node] = work;
  }
  best_delivered_[node] = std::max(best_delivered_[node], delivered);
  last_progress_ = now;
  failures_since_progress_ = 0;
  longest_still_ = std::max(0.0, still_until_ - now); // failures still pending keep their due
  longest_redo_ = 0;
  idle_ = 0;
  if (idle_since_ >= 0) idle_since_ = now;
}

void Termination::note_stillness(double still, double now) {
  longest_still_ = std::max(longest_still_, still);
  still_until_ = std::max(still_until_, now + still);
  if (last_calm_) calm_until_ = std::max(calm_until_, now + still);
}

void Termination::note_rollback(double state_date) {
  longest_redo_ = std::max(longest_redo_, last_progress_ - state_date);
}

void Termination::set_recovering(NodeId endpoint, bool recovering) {
  set_counted_flag(recovering_flags_, recovering_, endpoint, recovering);
}

bool Termination::may_end(const EnginePending& engine) const {
  return quiet_count_ == static_cast<int>(quiet_.size()) && replicas_ == 0 && engine.wire_empty &&
         engine.open_recoveries == 0 && engine.nodes_down == 0 && !engine.failures_deferred;
}

void Termination::update_held(bool engine_idle, double now) {
  // Held open: every process finished, yet the run goes on with no recovery to finish and no
  // failure waiting to strike (those are the failures' business, not a protocol holding it).
  const bool held_now = all_finished() && engine_idle;
  if (held_now && !held()) {
    held_since_ = now;
  } else if (!held_now && held()) {
    held_open_ += now - held_since_;
    held_since_ = -1;
  }
}

void RunEnd::finish(Reason reason, double date, std::string why) {
  reason_ = reason;
  date_ = date;
  why_ = std::move(why);
}

std::string RunEnd::status() const {
  switch (reason_) {
  case Reason::Unrecoverable:
    return "unrecoverable failure: " + why_;
  case Reason::Stuck:
    return "stuck: " + why_;
  case Reason::EndDate:
    return "stopped at the end date";
  case Reason::Running:
  case Reason::Completed:
    break;
  }
  return "completed";
}

} // namespace ckptsim
