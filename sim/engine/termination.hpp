/* When a run ends. Per endpoint, the Run keeps here what its nodes report: quiet (its application
 * finished, or a service, and its protocol agent idle), application finished, computing, agent
 * recovering; and the checkpoint copies in flight. From these and what the engine itself has
 * under way (the wire, open recoveries, nodes down, deferred failures) follow the termination
 * rule, quiescence (what some protocols' recoveries wait for) and the watchdog's view of
 * progress: when the application last moved, how long the run was held open with every process
 * finished. Plain bookkeeping, dates passed in. How the run ended: RunEnd. */
#pragma once

#include "sim/net/ids.hpp"

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
  /** @brief @p node's application started or stopped computing at @p now: progress, for the watchdog. */
  void set_computing(NodeId node, bool computing, double now);
  void set_recovering(NodeId endpoint, bool recovering);
  /** @brief A transfer restoring a lost checkpoint copy started / ended: part of a recovery. */
  void replica_started() { replicas_++; }
  void replica_finished() { replicas_--; }
  /** @brief The application moved forward at @p now (a message of it received, a step ended). */
  void note_activity(double now) { last_activity_ = now; }

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
  /** @brief When every process was last finished (the makespan), first finished; -1: not yet. */
  double all_finished_date() const { return all_finished_date_; }
  double first_all_finished() const { return first_all_finished_; }
  double last_activity() const { return last_activity_; }
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
  double last_activity_ = 0;
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
