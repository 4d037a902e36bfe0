/* The recovery of a msglog process, after its own failure (the victim) or, optimistic, after a
 * rollback it was an orphan of. The restarted process asks the event logger for its checkpoint
 * and the determinants after it (REPLAY_REQ), restores the checkpoint, asks every peer to re-send
 * what it logged for it (RESEND_REQ), replays its deliveries in the logged order (Replay) and
 * reports its recovery once its re-execution has also re-sent every message a peer kept
 * (CatchUp). What arrives before the checkpoint is restored waits: application messages in the
 * Inbox, RESEND_REQs and ROLLBACK_NOTICEs here. */
#pragma once

#include "protocols/common/restart_delay.hpp"
#include "protocols/msglog/execution.hpp"
#include "protocols/msglog/identity.hpp"
#include "protocols/msglog/messages.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace ckptsim::msglog {

class CatchUp;
class Checkpoints;
class Determinants;
class Inbox;
class Orphans;
class Replay;
class SenderLog;

class Recovery {
 public:
  Recovery(const Identity& id, Execution& exec, SenderLog& log, Determinants& dets, Inbox& inbox, Replay& replay,
           CatchUp& catchup, Checkpoints& checkpoints, Orphans& orphans)
      : id_(id)
      , exec_(exec)
      , log_(log)
      , dets_(dets)
      , inbox_(inbox)
      , replay_(replay)
      , catchup_(catchup)
      , checkpoints_(checkpoints)
      , orphans_(orphans) {}

  /** @brief The failure being recovered from (0: none). */
  FailureId failure() const { return failure_; }
  /** @brief A recovery is under way. */
  bool active() const { return failure_ != 0; }
  /** @brief The recovery under way is of this process' own failure (it restarted). */
  bool victim() const { return victim_; }
  /** @brief The state is this process' own (false from a restart until the checkpoint is back). */
  bool restored() const { return restored_; }
  /** @brief From the restart until the restart overhead is paid. */
  bool restarting() const { return restart_delay_.restarting(); }
  /** @brief Agent::recovering: optimistic, while a recovery or a restore is under way (the run's
   *  recovery waits for quiescence). */
  bool recovering() const { return id_.optimistic() && (failure_ != 0 || !restored_); }

  /** @brief This process restarted after its own failure @p own: REPLAY_REQ to the logger. */
  void on_restart(NodeContext& ctx, const FailureNotice& own);
  /** @brief REPLAY: the logger's checkpoint number and determinants; loads the checkpoint. */
  void on_replay(NodeContext& ctx, const Body& b);
  /** @brief The checkpoint is loaded. */
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s);
  /** @brief A RESEND_REQ from @p from to keep until the state is restored: true when kept. */
  bool hold_resend_req(NodeId from, const Body& b);
  /** @brief A ROLLBACK_NOTICE from @p from to keep until the state is restored: true when kept. */
  bool hold_notice(NodeId from, const Body& b);
  /** @brief CATCHUP from @p from: what it delivered from this process, its re-sends, its copies. */
  void on_catchup(NodeContext& ctx, NodeId from, const Body& b);
  /** @brief A timer: true when it was the end of the restart overhead (handled: the application
   *  resumes, checkpoints and the replay may start). */
  bool on_timer(NodeContext& ctx, int id);
  /** @brief The application finished (after its last step's sends). */
  void on_app_finished(NodeContext& ctx);
  /** @brief Starts the replay once its order can be known. */
  void maybe_start_replay(NodeContext& ctx);
  /** @brief Reports the recovery once the replay is over and the re-execution caught up. */
  void check_recovered(NodeContext& ctx);
  /** @brief optimistic: this process is an orphan of @p failure (its recovery, unless one is under
   *  way). */
  void orphaned(FailureId failure) {
    if (failure_ == 0) failure_ = failure;
  }
  /** @brief optimistic: an orphan rollback restored an older state of the application. */
  void rolled_back(const NodeContext& ctx) { app_done_ = ctx.app_finished(); }
  /** @brief optimistic: a new round of catch-up after an orphan rollback. */
  void start_round(NodeContext& ctx);

 private:
  void restore_from(NodeContext& ctx, const Snapshot& s, std::uint64_t number);
  /** @brief Asks every peer to re-send its logged messages from this process' next expected index. */
  void request_resends(NodeContext& ctx);

  const Identity& id_;
  Execution& exec_;
  SenderLog& log_;
  Determinants& dets_;
  Inbox& inbox_;
  Replay& replay_;
  CatchUp& catchup_;
  Checkpoints& checkpoints_;
  Orphans& orphans_;
  FailureId failure_ = 0;       // being recovered (0: none)
  bool victim_ = false;         // failure_ is this process' own failure
  std::vector<NodeId> fellows_; // the victims of failure_ (this process among them) when victim_
  double failure_date_ = 0;
  bool app_done_ = false;                     // on_app_finished came (after the last step's sends)
  bool restored_ = true;                      // false from the restart until the checkpoint is restored
  RestartDelay restart_delay_{kRestartTimer}; // from the restart until the restart overhead is paid
  bool have_replay_ = false;                  // the logger's answer is in
  std::uint64_t logger_stable_ = 0;           // the logger holds the determinants up to this rsn
  std::vector<std::pair<NodeId, std::shared_ptr<const Body>>> early_notices_; // before the restore
  std::vector<std::pair<NodeId, std::shared_ptr<const Body>>> early_resend_;  // RESEND_REQs, idem
};

} // namespace ckptsim::msglog
