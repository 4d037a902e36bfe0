/* A computing process under msglog (SPEC 3.6): independent checkpoints, sender-based payload
 * logging, determinants sent to the event logger (pessimistic: sends held until the
 * determinants they depend on are stable; causal: unstable determinants piggybacked instead),
 * and the recovery of a failed process by replay (optimistic: determinants logged asynchronously,
 * orphans rolled back by cascading notices).
 *
 * The process is a few parts with one job each (as hc3i::Node), each read and tested on its own;
 * Process only owns them and routes the engine's calls and the control messages to the part they
 * are for (parts.hpp wires them, and the part tests build the same Parts). Parts get the parts
 * they talk to by reference at construction and call their public methods only. The parts, and what each owns:
 *   - Identity (identity.hpp): who the process is, the logger's endpoint, the variant. Fixed.
 *   - Execution (execution.hpp): the protocol state a checkpoint saves (channel indices, rsn,
 *     sender-based log, held sends, dependency vector) and the epoch. Decides nothing.
 *   - SenderLog (sender_log.hpp): the sends, their channel indices and piggybacks, the log of
 *     their payloads, the held sends (pessimistic), LOG_GC, the answer to a restarted peer.
 *   - Determinants (determinants.hpp): the determinants of its deliveries on their way to the
 *     logger, their stability, the causal copies.
 *   - Inbox (inbox.hpp): the messages received: duplicates and stale ones dropped, the reorder
 *     buffer, the delivery (in the replay's order while there is one).
 *   - Checkpoints (checkpoints.hpp): the periodic checkpoints, their commit at the logger, the
 *     garbage collection they allow.
 *   - Replay (replay.hpp): the order a recovering process delivers again in.
 *   - CatchUp (catchup.hpp): what the peers delivered from a recovering process, which its
 *     re-execution must send again.
 *   - Recovery (recovery.hpp): the restart, the restore, the end of a recovery.
 *   - Orphans (orphans.hpp): optimistic: checkpoints and deliveries kept in memory, the rollbacks
 *     announced, orphan rollbacks. */
#pragma once

#include "protocols/msglog/parts.hpp"
#include "sim/protocol/protocol.hpp"

namespace ckptsim::msglog {

class Process : public Agent {
 public:
  Process(const FederationLayout& layout, NodeId self, Options options);

  void on_start(NodeContext& ctx) override;
  void on_restart(NodeContext& ctx, const FailureNotice& own) override;
  void on_app_send(NodeContext& ctx, const AppMessage& msg) override;
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override;
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override;
  void on_saved(NodeContext& ctx, std::uint64_t number) override;
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) override;
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override;
  void on_app_finished(NodeContext& ctx) override;
  bool idle() const override;
  bool recovering() const override { return p_.recovery.recovering(); }

 private:
  Parts p_;
};

} // namespace ckptsim::msglog
