/* A CCK process' side of the restart (thesis 4.3.4). A non-failed process stops, aborts the wave
 * under way, flushes its channels (STOP_PING / STOP_PONG with the processes it expects data from,
 * the failed one excepted), learns the recovery line from the coordinator (RECOVER), builds its
 * communication-restricted graph from the line's checkpoint and its current state and all-gathers
 * it (Gather); with the N-1 others in, it plans its part (plan.hpp) and tells the coordinator
 * (READY). The failed process reloads the line from its server, pays its restart overhead and
 * gathers its whole checkpointed graph. Everyone resumes on the coordinator's RESTART, and says
 * DONE once it has sent what the re-execution owes (Replay): the restart ends there, no wave and
 * no other failure before. */
#pragma once

#include "protocols/cck/checkpoints.hpp"
#include "protocols/cck/dataflow.hpp"
#include "protocols/cck/gather.hpp"
#include "protocols/cck/lives.hpp"
#include "protocols/cck/mailbox.hpp"
#include "protocols/cck/messages.hpp"
#include "protocols/cck/replay.hpp"
#include "protocols/common/restart_delay.hpp"
#include "sim/protocol/protocol.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace ckptsim::cck {

class WaveParticipant;

class Restart {
 public:
  static constexpr int kTimer = 1; // a process' only timer: the end of the restart overhead
  enum class State { None, Loading, Stopping, Flushing, Gathering, Ready, CatchingUp };

  Restart(const DataflowApplication& wl, NodeId coordinator, bool reuse, Lives& lives, LocalCheckpoints& checkpoints,
          Mailbox& mailbox, WaveParticipant& wave, Gather& gather, Replay& replay)
      : wl_(wl)
      , coordinator_(coordinator)
      , reuse_(reuse)
      , lives_(lives)
      , checkpoints_(checkpoints)
      , mailbox_(mailbox)
      , wave_(wave)
      , gather_(gather)
      , replay_(replay) {}

  State state() const { return state_; }
  /** @brief From a failure (or this process' restart) to the end of its re-execution. */
  bool active() const { return state_ != State::None; }
  /** @brief The failed processes of the restart under way, increasing order (this process among
   *  them when it restarted). */
  const std::vector<NodeId>& failed() const { return failed_; }
  bool is_failed(NodeId p) const { return std::binary_search(failed_.begin(), failed_.end(), p); }
  /** @brief The recovery line, once RECOVER told it. */
  std::optional<std::uint64_t> line() const { return line_known_ ? std::optional(line_) : std::nullopt; }
  /** @brief The processes this one STOP_PINGed. */
  const std::vector<NodeId>& stop_pinged() const { return rv_; }

  /** @brief A failure notice: a newer failure begins a restart. */
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice);
  /** @brief RECOVER: the recovery line (and the aborted wave's checkpoint to discard); may come
   *  before the failure notice. */
  void on_recover(NodeContext& ctx, const WaveBody& b);
  /** @brief The application stopped between two steps (while stopping: the flush begins). */
  void on_app_stopped(NodeContext& ctx);
  void on_stop_ping(NodeContext& ctx, NodeId from, const WaveBody& b);
  void on_stop_pong(NodeContext& ctx, const WaveBody& b);
  void on_gather(NodeContext& ctx, NodeId from, std::shared_ptr<const GatherBody> body);
  /** @brief The coordinator's RESTART: every process has its plan; the application resumes. */
  void on_restart_order(NodeContext& ctx, const WaveBody& b);
  /** @brief The failed process' node back: the GATHER owed to it goes. */
  void on_node_back(NodeContext& ctx, const FailureNotice& notice);
  /** @brief This process restarted after its own failure: RESTARTED to the coordinator. */
  void on_restart(NodeContext& ctx, const FailureNotice& own);
  /** @brief The recovery line's checkpoint is loaded (restarted process). */
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s);
  /** @brief The restart overhead is paid: the restarted process gathers. */
  void on_timer(NodeContext& ctx, int id);
  /** @brief Ends the restart (DONE, recovered) once the re-execution owes nothing more. */
  void check_caught_up(NodeContext& ctx);

 private:
  void begin(NodeContext& ctx, FailureId id, const std::vector<NodeId>& victims);
  void stopped(NodeContext& ctx);
  void maybe_gather(NodeContext& ctx);
  void check_plan(NodeContext& ctx);
  TaskStates own_states(const NodeContext& ctx) const;

  const DataflowApplication& wl_;
  const NodeId coordinator_;
  const bool reuse_;
  Lives& lives_;
  LocalCheckpoints& checkpoints_;
  Mailbox& mailbox_;
  WaveParticipant& wave_;
  Gather& gather_;
  Replay& replay_;
  State state_ = State::None;
  RestartDelay restart_delay_{kTimer}; // restarting from on_restart to the end of its overhead
  std::vector<NodeId> failed_;
  std::uint64_t line_ = 0; // the recovery line (last committed wave)
  bool line_known_ = false;
  std::vector<NodeId> rv_; // the processes STOP_PINGed
  std::size_t rpongs_ = 0;
  std::map<FailureId, std::vector<NodeId>> queued_stop_pings_; // to answer once flushing
};

} // namespace ckptsim::cck
