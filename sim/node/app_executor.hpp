/* The application of one process as its node runs it: its state, the clock of its computation
 * steps (work done at the process' share of its host's speed, stopped while the protocol pauses
 * the application) and the actions of a step (its program-order point, its zero-time actions and
 * sends, its computation, its end). No SimGrid and no protocol: the node passes the date in, and
 * tells the agent what the executor reports (a point reached, messages to send, a stop at a step
 * end, the end of the application). Unit-tested in tests/unit/test_app_executor.cpp. */
#pragma once

#include "sim/app/workload.hpp"

#include <optional>
#include <vector>

namespace ckptsim {

class AppExecutor {
 public:
  /** @brief Deadlines within this of the clock are due: SimGrid finishes actions within 1e-9 s. */
  static constexpr double kDateEpsilon = 1e-9;

  /** @brief Process @p self of @p workload, starting from @p initial (empty for a service, which
   *  runs no application). @p full_speed: work per second at its node's speed (speed / 1 Gf),
   *  shared by @p share processes on its host. */
  AppExecutor(const Workload& workload, NodeId self, AppStateValue initial, double full_speed, int share);

  const AppStateValue& state() const { return state_; }
  bool paused() const { return paused_; }
  bool computing() const { return computing_; }
  /** @brief The application waits for a message (or for the end of one of its sends). */
  bool waiting() const { return waiting_; }
  /** @brief The application has done all its work and sent all its messages (false for a
   *  service). */
  bool finished() const { return state_ && state_->finished && state_->held.empty(); }
  /** @brief May start its next step: not paused, no step under way, not waiting for a message,
   *  not finished. */
  bool runnable() const { return state_ && !paused_ && !computing_ && !waiting_ && !state_->finished; }
  /** @brief When the step under way ends, at the current speed (inf: none under way, or paused). */
  double compute_end() const;
  /** @brief The step under way ends by @p now (within the clock's rounding). */
  bool step_due(double now) const;
  /** @brief Work done by @p now, the current step's progress included. */
  double work_done(double now) const;
  /** @brief Accounts the work done since the last accounting. */
  void progress(double now);

  // ---- the protocol's hold on the application ----
  void pause(double now);
  void resume(double now);
  /** @brief Stops the application between two steps: at once (true) when no step is under way,
   *  else when the current one ends (false; stopped_at_step_end says when). */
  bool stop_between_steps(double now);
  /** @brief The step under way when a stop was asked is over: the application pauses now, and
   *  true is returned once (the agent is told). */
  bool stopped_at_step_end(double now);

  // ---- steps ----
  /** @brief The program-order point the process stands at, when not announced yet (it counts as
   *  announced from now: a checkpoint taken at the point holds it so). */
  std::optional<AppPoint> take_point();
  /** @brief Runs the zero-time actions of the next step (the messages to send go to @p sends) and
   *  starts its computation; true when one started, false when the application finished or waits
   *  for a message. */
  bool start_step(double now, std::vector<AppMessage>& sends);
  /** @brief The step under way is over: its work is done, rounding included. */
  void finish_step(double now);
  /** @brief A message is handed to the application: a data-flow process may have a task ready. */
  void deliver(const AppMessage& msg);

  // ---- rendezvous sends (Workload::rendezvous) ----
  /** @brief Keeps @p msg until its receiver has posted its receive. */
  void hold(const AppMessage& msg) { state_->held.push_back(msg); }
  bool holding() const { return state_ && !state_->held.empty(); }
  /** @brief Moves the held messages that @p posted accepts to @p out, in production order. */
  template <class Posted>
  void take_releasable(Posted posted, std::vector<AppMessage>& out) {
    auto& held = state_->held;
    auto keep = held.begin();
    for (auto it = held.begin(); it != held.end(); ++it) {
      if (posted(*it))
        out.push_back(std::move(*it));
      else if (keep != it)
        *keep++ = std::move(*it);
      else
        ++keep;
    }
    held.erase(keep, held.end());
  }
  /** @brief The transfer of the process' message @p seq ended (or the message was lost): a
   *  process waiting for it may go on. */
  void send_done(std::uint64_t seq);

  // ---- the process' life ----
  /** @brief @p processes now share the host (shrink placement): the work done so far counts at
   *  the old speed, the rest of the step runs at full speed / @p processes. */
  void set_share(int processes, double now);
  /** @brief A restarted process: paused until its protocol restores a state; the work it had done
   *  when it died, @p work_at_death, is what the first restore counts as lost. */
  void restarted(double work_at_death);
  /** @brief Rolls the application back to @p s at @p now; returns the work lost. */
  double restore(const AppStateValue& s, double now);
  /** @brief The state, for the engine to reseed its random numbers after a restore. */
  AppState& mutable_state() { return *state_; }
  /** @brief Whether the application finished or was rolled back from finished since last asked:
   *  the new value, once. */
  std::optional<bool> finished_change();

 private:
  const Workload& workload_;
  const NodeId self_;
  AppStateValue state_;
  const double full_speed_;
  double speed_; // full_speed_ shared by the processes on the host
  bool paused_ = false;
  bool computing_ = false;           // a computation step is under way
  bool waiting_ = false;             // the application waits for a message (a data-flow process)
  bool stop_asked_ = false;          // stop_between_steps: pause when the current step ends
  double accounted_at_ = 0;          // date of the last work accounting
  bool fresh_after_failure_ = false; // restarted and not yet restored: the work at death is what is lost
  double work_at_death_ = 0;
  bool finished_reported_ = false;
};

} // namespace ckptsim
