/* The application messages a msglog process receives: each is checked against its channel
 * (a duplicate from a re-send, a message of a failed incarnation or, optimistic, of an undone
 * interval is dropped), waits for its turn in a per-sender reorder buffer, and is delivered: in
 * the replay's order while a recovery replays (Replay), else any whose channel is in order, lowest
 * sender first. A delivery advances the rsn and is recorded where it is needed (determinants;
 * optimistic: the orphan bookkeeping). Messages that arrive before the restarted process has its
 * checkpoint back (the channel indices they are checked against) wait aside. */
#pragma once

#include "protocols/common/reorder_buffer.hpp"
#include "protocols/msglog/execution.hpp"
#include "protocols/msglog/identity.hpp"
#include "protocols/msglog/messages.hpp"

#include <map>
#include <memory>
#include <vector>

namespace ckptsim::msglog {

class Determinants;
class Orphans;
class Recovery;
class Replay;

class Inbox {
 public:
  Inbox(const Identity& id, Execution& exec, Determinants& dets, Orphans& orphans, Replay& replay, Recovery& recovery)
      : id_(id)
      , exec_(exec)
      , dets_(dets)
      , orphans_(orphans)
      , replay_(replay)
      , recovery_(recovery) {}

  /** @brief No message waits for its turn. */
  bool empty() const { return buffer_.empty() && before_restore_.empty(); }

  /** @brief An application message arrives with its piggyback. */
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  /** @brief Delivers what may be: the next replayed deliveries, then any in their turn. */
  void try_deliver(NodeContext& ctx);
  /** @brief The state is restored: files the messages that arrived before (not delivered yet). */
  void accept_early(NodeContext& ctx);
  /** @brief Not optimistic: @p from restarted as incarnation @p inc (its RESEND_REQ): what its
   *  failed incarnation sent and is still waiting is dropped (its re-execution sends it again). */
  void peer_restarted(NodeId from, std::uint64_t inc);
  /** @brief optimistic: drops the waiting messages of @p who's undone intervals; how many. */
  std::size_t drop_undone(NodeId who);

 private:
  struct Arrived {
    AppMessage msg;
    std::shared_ptr<const Piggyback> pb;
  };
  using Arrivals = ReorderBuffer<Arrived>;

  /** @brief Files an arrived message (drops duplicates and stale ones). */
  void accept(NodeContext& ctx, const AppMessage& msg, const std::shared_ptr<const Piggyback>& pb);
  void deliver(NodeContext& ctx, const AppMessage& msg, const std::shared_ptr<const Piggyback>& pb, bool replayed);

  const Identity& id_;
  Execution& exec_;
  Determinants& dets_;
  Orphans& orphans_;
  Replay& replay_;
  Recovery& recovery_;
  Arrivals buffer_;                             // before their turn on their channel
  std::vector<Arrived> before_restore_;         // arrived while the state is not restored
  std::map<NodeId, std::uint64_t> known_epoch_; // not optimistic: newest incarnation of each sender heard of
};

} // namespace ckptsim::msglog
