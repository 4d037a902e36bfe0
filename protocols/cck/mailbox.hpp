/* The application messages of a CCK process: the piggyback of a send (the last wave saved, the
 * life of the sender), and on a receive, the message of a dead incarnation dropped, the message
 * sent after a save this process has not made yet held until its own save (the thesis' delaying
 * of delivery, L890, which keeps the wave's cut consistent), the others delivered (Replay says
 * whether for the first time). */
#pragma once

#include "protocols/cck/checkpoints.hpp"
#include "protocols/cck/dataflow.hpp"
#include "protocols/cck/lives.hpp"
#include "protocols/cck/replay.hpp"
#include "sim/protocol/protocol.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace ckptsim::cck {

class Restart;

class Mailbox {
 public:
  Mailbox(const DataflowApplication& wl, const Lives& lives, const LocalCheckpoints& checkpoints, Replay& replay,
          const Restart& restart)
      : wl_(wl)
      , lives_(lives)
      , checkpoints_(checkpoints)
      , replay_(replay)
      , restart_(restart) {}

  /** @brief The messages held, none when empty. */
  bool empty() const { return held_.empty(); }
  std::size_t held() const { return held_.size(); }

  /** @brief An application send: its piggyback, then Replay decides how it goes. */
  void send(NodeContext& ctx, const AppMessage& msg);
  /** @brief An application message arrives: dropped, held or delivered. */
  void receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  /** @brief Receives the held messages again (after a save, or when a restart begins): each is
   *  dropped, held again or delivered as on its arrival. */
  void deliver_held(NodeContext& ctx);

 private:
  void deliver(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);

  const DataflowApplication& wl_;
  const Lives& lives_;
  const LocalCheckpoints& checkpoints_;
  Replay& replay_;
  const Restart& restart_;
  std::vector<std::pair<AppMessage, PayloadPtr>> held_; // sent after a save this process has not made
};

} // namespace ckptsim::cck
