/* A process' side of CCK's checkpoint wave (thesis figure 4.5). On INIT it stops between two
 * tasks, PINGs the processes V_i it still expects data from, answers every PING with PONG once
 * stopped, and when its PONGs are in (FIFO: every message those processes sent before stopping has
 * arrived) saves its state. It then sends CONT to V_i, waits for as many CONT as PINGs it
 * received, resumes and ACKs the coordinator. PINGs go out before the queued PONGs, so that on
 * each channel to a neighbour the PING precedes the PONG: a process that has its PONGs has every
 * PING of the processes it PINGed. A failure aborts the wave (Restart calls abort()). */
#pragma once

#include "protocols/cck/checkpoints.hpp"
#include "protocols/cck/dataflow.hpp"
#include "protocols/cck/lives.hpp"
#include "protocols/cck/mailbox.hpp"
#include "protocols/cck/messages.hpp"
#include "sim/protocol/protocol.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace ckptsim::cck {

class Restart;

class WaveParticipant {
 public:
  enum class Phase { Idle, Stopping, Flushing, Saving, WaitingCont };

  WaveParticipant(const DataflowApplication& wl, NodeId coordinator, const Lives& lives, LocalCheckpoints& checkpoints,
                  Mailbox& mailbox, const Restart& restart)
      : wl_(wl)
      , coordinator_(coordinator)
      , lives_(lives)
      , checkpoints_(checkpoints)
      , mailbox_(mailbox)
      , restart_(restart) {}

  Phase phase() const { return phase_; }
  /** @brief The wave this process last joined (0: none yet). */
  std::uint64_t wave() const { return wave_; }
  /** @brief V_i of that wave: the processes it PINGed. */
  const std::vector<NodeId>& pinged() const { return v_; }
  bool idle() const { return phase_ == Phase::Idle; }

  /** @brief INIT: joins the wave, stopping the application (ignored during a restart or from an
   *  older execution). */
  void on_init(NodeContext& ctx, const WaveBody& b);
  /** @brief The application stopped between two steps: PINGs V_i, answers the PINGs queued. */
  void on_app_stopped(NodeContext& ctx);
  void on_ping(NodeContext& ctx, NodeId from, const WaveBody& b);
  void on_pong(NodeContext& ctx, const WaveBody& b);
  void on_cont(NodeContext& ctx, const WaveBody& b);
  /** @brief A save ended: CONT to V_i, or the save of an aborted wave discarded. */
  void on_saved(NodeContext& ctx, std::uint64_t number);
  /** @brief A failure aborts the wave: a save under way is discarded when it ends, a save made is
   *  discarded now, the PINGs and CONTs counted are forgotten. */
  void abort(NodeContext& ctx);

 private:
  void stopped(NodeContext& ctx);
  void save(NodeContext& ctx);
  void check_cont(NodeContext& ctx);

  const DataflowApplication& wl_;
  const NodeId coordinator_;
  const Lives& lives_;
  LocalCheckpoints& checkpoints_;
  Mailbox& mailbox_;
  const Restart& restart_;
  Phase phase_ = Phase::Idle;
  std::uint64_t wave_ = 0;
  std::vector<NodeId> v_; // the processes PINGed
  std::size_t pongs_ = 0;
  std::map<std::uint64_t, std::vector<NodeId>> queued_pings_; // PINGs to answer once stopped
  std::map<std::uint64_t, int> pings_;                        // PINGs received per wave
  std::map<std::uint64_t, int> conts_;                        // CONT received per wave
  std::set<std::uint64_t> aborted_;                           // saves of aborted waves still under way
};

} // namespace ckptsim::cck
