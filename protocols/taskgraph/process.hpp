/* A process under the taskgraph protocol (Lion, StarPU task graphs, section 3): checkpoints at
 * program-order points, a backup node per process, sender-based logging, partial rollback.
 *
 * Checkpoint. At every point k = interval + 1, 2 interval + 1... (the application's "iteration"
 * points: every compute task of iterations < k done) the process copies its state (application
 * state, log, what it knows of its receivers) without stopping and without any coordination
 * message: every process knows the numbers. The copy goes to the storage model (`buddy` by
 * default: its memory and the next node of its cluster, its backup); when it is complete the
 * process tells its backup (TG_STORED) and, once acknowledged, drops its previous checkpoint and
 * piggybacks the new number on its messages, so that its senders drop the logged messages the
 * checkpoint covers. One save at a time: a point met while the previous save is not acknowledged
 * is skipped.
 *
 * Recovery of a failed process R. Its substitute asks R's backup B (TG_RESTART); B answers with
 * the newest checkpoint it knows (TG_RESTORE) and sends TG_RECOVER to every process that has a
 * communication with R not covered by that checkpoint's point (from the graph). Each replays its
 * logged messages to R that the point does not cover and answers TG_REPLAYED with the messages
 * of R it has received beyond the point. The substitute restores the checkpoint (a load from
 * the backup), drops what its restored state already received, and re-executes; the receivers
 * drop what it sends again and they already have (by tag). Nobody else rolls back. R reports
 * its recovery once every peer has answered and it has sent again every message a peer holds.
 * A process whose backup failed re-creates the lost copy and tells the restarted backup again
 * (its part of that recovery). Split by concern: process.cpp (checkpoints, log, backup role),
 * process_recovery.cpp (restart, replay). */
#pragma once

#include "protocols/common/restart_delay.hpp"
#include "protocols/taskgraph/messages.hpp"
#include "protocols/taskgraph/sent_log.hpp"
#include "sim/protocol/dataflow.hpp"
#include "sim/protocol/protocol.hpp"

#include <map>
#include <set>
#include <vector>

namespace ckptsim::taskgraph {

struct Options {
  std::uint64_t interval = 10; // iterations between two checkpoints
};

/** @brief The protocol state saved with the application state in a checkpoint. */
struct State {
  SentLog log;
  std::map<NodeId, std::uint64_t> peer_committed; // per receiver: its newest committed checkpoint heard of
  std::uint64_t committed = 0;                    // own newest committed checkpoint (0: none, the initial state)
};

class Process : public Agent {
 public:
  Process(const DataflowApplication& workload, const Points& points, NodeId self, NodeId backup, Options options)
      : wl_(workload)
      , points_(points)
      , self_(self)
      , backup_(backup)
      , options_(options) {}

  void on_restart(NodeContext& ctx, const FailureNotice& own) override;
  void on_app_send(NodeContext& ctx, const AppMessage& msg) override;
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override;
  void on_app_point(NodeContext& ctx, const AppPoint& point) override;
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override;
  void on_saved(NodeContext& ctx, std::uint64_t number) override;
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) override;
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override;
  void on_node_back(NodeContext& ctx, const FailureNotice& notice) override;
  bool idle() const override { return saving_ == 0 && failure_ == 0; }
  bool recovering() const override { return backup_down_ || reannounced_ != 0 || failure_ != 0; }

 private:
  static constexpr int kRestartTimer = 1; // a process' only timer
  // ---- process.cpp: checkpoints, the log, the backup role ----
  void take_checkpoint(NodeContext& ctx, std::uint64_t number);
  void announce(NodeContext& ctx, std::uint64_t number);
  void on_stored(NodeContext& ctx, NodeId from, const Body& b);
  void on_stored_ack(NodeContext& ctx, const Body& b);
  /** @brief A message of @p src carried its committed checkpoint: drop what it covers. */
  void learn_committed(NodeContext& ctx, NodeId src, std::uint64_t committed);
  void receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  void account_log(NodeContext& ctx);

  // ---- process_recovery.cpp ----
  void on_restart_request(NodeContext& ctx, NodeId from, const Body& b);
  void on_restore(NodeContext& ctx, const Body& b);
  void restore_from(NodeContext& ctx, const Snapshot& s, std::uint64_t number);
  void on_recover(NodeContext& ctx, const Body& b);
  void on_replayed(NodeContext& ctx, NodeId from, const Body& b);
  void check_recovered(NodeContext& ctx);

  const DataflowApplication& wl_;
  const Points& points_;
  const NodeId self_;
  const NodeId backup_; // the node that holds this process' checkpoint and knows its number
  const Options options_;

  State st_;

  // Checkpoint being saved (0: none): saved_ once every copy is written and TG_STORED sent.
  std::uint64_t saving_ = 0;
  bool saved_ = false;
  bool backup_down_ = false;      // the backup failed and is not back: TG_STORED waits
  std::uint64_t reannounced_ = 0; // told again to a restarted backup, not acknowledged yet

  // Backup role: the newest checkpoint each process it backs up has stored here (not part of a
  // checkpoint: after its own restart a backup learns it again from those processes).
  std::map<NodeId, std::uint64_t> wards_;

  // Recovery of this process after its own failure (0: none).
  FailureId failure_ = 0;
  double failure_date_ = 0;
  bool restored_ = false;
  RestartDelay restart_delay_{kRestartTimer};
  std::uint64_t restoring_ = 0; // the checkpoint the backup named
  bool told_ = false;           // TG_RESTORE received
  std::vector<int> expected_;   // peers whose TG_REPLAYED is awaited
  std::set<NodeId> replied_;
  std::set<Tag> promised_; // own sends a peer holds, to be executed again
  std::uint64_t peers_resent_ = 0;
  std::vector<std::pair<AppMessage, PayloadPtr>> early_; // arrived before the restore
  std::vector<std::pair<NodeId, std::shared_ptr<const Body>>> early_replayed_;
  std::vector<std::shared_ptr<const Body>> early_recover_; // TG_RECOVER for another victim, before the restore
};

} // namespace ckptsim::taskgraph
