/* When a run ends. Per endpoint, the Run keeps here what its nodes report: quiet (its application
 * finished, or a service, and its protocol agent idle), application finished, computing, agent
 * recovering; and the checkpoint copies in flight. From these and what the engine itself has
 * under way (the wire, open recoveries, nodes down, deferred failures) follow the termination
 * rule, quiescence (what some protocols' recoveries wait for) and the watchdog's view of
 * progress: how long the run was idle since the application last went further than ever, how
 * long it was held open with every process finished. Plain bookkeeping, dates passed in. How the run ended: RunEnd. */
#pragma once

#include "sim/net/ids.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief What the engine itself has under way, besides the endpoints. */
struct EnginePending {
  bool wire_empty = true;
  int open_recoveries = 0;
  int nodes_down = 0;
  bool failures_deferred = false;
};

class Termination {
 public:
  void reset(int nodes, int endpoints);

  // ---- what the endpoints report (true: it changed) ----
  /** @brief @p node's application finished (or was rolled back from finished) at @p now. */
  bool set_finished(NodeId node, bool finished, double now);
  void set_quiet(NodeId endpoint, bool quiet);
  /** @brief @p node's application started or stopped computing at @p now (the run is busy). */
  void set_computing(NodeId node, bool computing, double now);
  /** @brief A failed node waits for its restart, or a failure for its detection (the engine's own
   *  pending events: the run is busy). */
  void set_engine_waiting(bool waiting, double now);
  /** @brief Application messages are on the wire (the run is busy: a slow link is no stall). */
  void set_app_on_wire(bool on_wire, double now);
  /** @brief From @p now, a restarted node pays its restart overhead until @p until: busy until then. */
  void busy_until(double now, double until);
  void set_recovering(NodeId endpoint, bool recovering);
  /** @brief A transfer restoring a lost checkpoint copy started / ended: part of a recovery. */
  void replica_started() { replicas_++; }
  void replica_finished() { replicas_--; }
  /** @brief @p node's application stands at @p work done and @p delivered messages at @p now (a
   *  step ended, a message was delivered): progress when either is beyond the furthest it ever
   *  reached. Work redone after a rollback is not: a run stuck while failures keep striking
   *  redoes the same work after each one, and would otherwise look alive for ever. */
  void note_progress(NodeId node, double work, std::uint64_t delivered, double now);
  /** @brief A failure arrived at @p now (struck, deferred or ignored); @p calm: no recovery was
   *  open, no node down and no failure deferred then (it did not overtake another's recovery). */
  void note_failure(double now, bool calm) {
    failures_since_progress_++;
    last_failure_ = now;
    last_calm_ = calm;
  }
  /** @brief A failure struck at @p now keeps its victims from working for @p still seconds
   *  (repair or restart, detection, restart overhead). */
  void note_stillness(double still, double now);
  /** @brief A process restored a state it first reached at @p state_date: getting back to the
   *  furthest progress takes about last_progress() - state_date (the redo a legitimate recovery
   *  needs before the application goes further than ever again). */
  void note_rollback(double state_date);

  // ---- decisions ----
  /** @brief No protocol control message on the wire (@p control_on_wire), no agent recovering, no
   *  copy in flight. */
  bool quiescent(int control_on_wire) const { return control_on_wire == 0 && recovering_ == 0 && replicas_ == 0; }
  /** @brief The run may end: every endpoint quiet, no copy in flight, nothing under way in @p engine. */
  bool may_end(const EnginePending& engine) const;
  /** @brief Held open: every process finished while @p engine_idle (no recovery open, no failure
   *  deferred, the run not over), a stretch the watchdog counts. Call at each change of either. */
  void update_held(bool engine_idle, double now);

  // ---- what they show ----
  bool quiet(NodeId endpoint) const { return quiet_[endpoint]; }
  bool finished(NodeId node) const { return finished_[node]; }
  int finished_count() const { return finished_count_; }
  bool all_finished() const { return finished_count_ == static_cast<int>(finished_.size()); }
  bool computing() const { return computing_count_ > 0; }
  bool computing(NodeId node) const { return computing_[node]; }
  /** @brief When every process was last finished (the makespan), first finished; -1: not yet. */
  double all_finished_date() const { return all_finished_date_; }
  double first_all_finished() const { return first_all_finished_; }
  /** @brief The furthest work each process ever reached, summed (the progress line's share). */
  double furthest_work_total() const { return furthest_work_total_; }
  /** @brief When some process last went further than ever (0: not yet). */
  double last_progress() const { return last_progress_; }
  /** @brief Failures that arrived since last_progress(). */
  int failures_since_progress() const { return failures_since_progress_; }
  /** @brief When a failure last arrived (-1: never). */
  double last_failure() const { return last_failure_; }
  /** @brief Until when the failures since last_progress() and the rollbacks they caused may
   *  legitimately keep the application from going further (the watchdog's no-progress rule):
   *  until the stillness of the last calm failure ends (one that struck a run with no recovery
   *  under way, which starts a legitimate recovery whenever it comes), or the longest stillness
   *  after the last progress when later, plus the longest redo. A failure that overtakes another's
   *  recovery excuses nothing more: failures that come faster than recoveries end. */
  double excused_until() const { return std::max(calm_until_, last_progress_ + longest_still_) + longest_redo_; }
  /** @brief Seconds since last_progress() during which the run was idle (until @p now): no
   *  process computing, no failed node down, undetected or paying its restart overhead, no
   *  application message on the wire, some process not finished (the held-open rule's case). */
  double idle(double now) const { return idle_ + (idle_since_ >= 0 ? idle_between(idle_since_, now) : 0.0); }
  bool busy() const { return idle_since_ < 0; }
  /** @brief The run is held open now (update_held). */
  bool held() const { return held_since_ >= 0; }
  /** @brief Time held open in all until @p now, the current stretch included. */
  double held_open(double now) const { return held_open_ + (held() ? now - held_since_ : 0.0); }

 private:
  std::vector<bool> quiet_, finished_, computing_, recovering_flags_;
  int quiet_count_ = 0;
  int finished_count_ = 0;
  int computing_count_ = 0;
  int recovering_ = 0;
  int replicas_ = 0;
  double all_finished_date_ = -1;
  double first_all_finished_ = -1;
  std::vector<double> best_work_;
  double furthest_work_total_ = 0;
  std::vector<std::uint64_t> best_delivered_;
  bool engine_waiting_ = false;
  bool app_on_wire_ = false;
  double busy_until_ = 0;
  double last_progress_ = 0;
  int failures_since_progress_ = 0;
  double last_failure_ = -1;
  bool last_calm_ = false;   // whether the failure that arrived last was calm (note_failure)
  double calm_until_ = 0;    // when the stillness of the last calm failure ends
  double still_until_ = 0;   // when the stillness of the failures so far ends, the latest
  double longest_still_ = 0; // since last_progress_: the longest stillness of a failure pending then
  double longest_redo_ = 0;  // since last_progress_: the longest redo a rollback needs
  double idle_ = 0;          // closed idle stretches since last_progress_
  double idle_since_ = 0;    // start of the idle stretch under way; -1: busy now
  void update_busy(double now);
  double idle_between(double from, double to) const { return std::max(0.0, to - std::max(from, busy_until_)); }
  double held_since_ = -1; // -1: not held open now
  double held_open_ = 0;   // closed stretches
};

/** @brief How a run ended. */
class RunEnd {
 public:
  enum class Reason { Running, Completed, EndDate, Unrecoverable, Stuck };
  /** @brief The run ends at @p date for @p reason (@p why: what was unrecoverable or pending). */
  void finish(Reason reason, double date, std::string why = {});
  bool over() const { return reason_ != Reason::Running; }
  Reason reason() const { return reason_; }
  double date() const { return date_; }
  const std::string& why() const { return why_; }
  /** @brief Cut before every process finished and the protocol was done: no makespan, no final check. */
  bool cut() const {
    return reason_ == Reason::EndDate || reason_ == Reason::Unrecoverable || reason_ == Reason::Stuck;
  }
  /** @brief The results' "status". */
  std::string status() const;

 private:
  Reason reason_ = Reason::Running;
  double date_ = 0;
  std::string why_;
};

} // namespace ckptsim
