/* When the coordinator starts a checkpoint wave (SPEC 3.7, the LAM/MPI paper's figure 3): the
 * rule of the paper's two mpirun threads, as plain logic over dates.
 *   - cr_ckpt_time (periodic): at ckpt_time, if ckpt_time <= now, checkpoint and
 *     ckpt_time = now + interval + delay; otherwise a collective took one meanwhile: skip.
 *   - cr_ckpt_coll (collective): on a request from a collective, if ckpt_time - delay <= now
 *     (an interval went by since the last checkpoint began), checkpoint and move ckpt_time the same
 *     way; otherwise decline.
 * "now + interval + delay" with now the date the checkpoint started and delay its measured
 * duration is commit date + interval: the date the coordinated protocol has always used for its
 * next wave, so the periodic policy (the default) keeps the earlier results exactly.
 * Policies: "periodic" (collectives ignored), "collective" (no periodic timer; the interval, when
 * finite, is the least time between two checkpoint starts), "both" (the paper's configuration).
 * Without a finite period, "collective" and "both" checkpoint at every collective. */
#pragma once

#include <string>

namespace ckptsim::coordinated {

enum class TriggerPolicy { Periodic, Collective, Both };

/** @brief The policy named @p name ("periodic", "collective", "both"); InputError naming
 *  `--param trigger` otherwise. */
TriggerPolicy parse_trigger(const std::string& name);
const char* to_string(TriggerPolicy policy);

class TriggerClock {
 public:
  /** @brief The run starts at date 0 with checkpoint period @p interval (inf: none). */
  TriggerClock(TriggerPolicy policy, double interval);

  TriggerPolicy policy() const { return policy_; }
  /** @brief Whether the coordinator keeps a periodic timer. */
  bool periodic() const;
  /** @brief Collective points may ask for a checkpoint. */
  bool collective() const { return policy_ != TriggerPolicy::Periodic; }
  /** @brief ckpt_time: the date of the next periodic checkpoint (inf: none). */
  double next() const { return next_; }
  /** @brief The duration of the last committed checkpoint (0 before the first). */
  double delay() const { return delay_; }

  /** @brief The periodic timer fired at @p now: checkpoint (true), or skip because one was taken
   *  at a collective since the timer was set (false; the timer goes to next()). */
  bool periodic_due(double now) const;
  /** @brief A collective at @p now asks for a checkpoint: take it? */
  bool collective_due(double now) const;
  /** @brief A checkpoint committed at @p commit after @p duration: next = commit + interval. */
  void committed(double commit, double duration);
  /** @brief The computation restarts after a recovery at @p now: next = now + interval. */
  void restart(double now);

 private:
  TriggerPolicy policy_;
  bool has_period_;
  double interval_; // collectives without a finite period: 0 (every collective)
  double next_;
  double delay_ = 0;
};

} // namespace ckptsim::coordinated
