/* The sends of a msglog process and its sender-based log (SPEC 3.6): every message sent gets its
 * channel index and stays in the sender's volatile memory (State::log) until the receiver's
 * checkpoint has delivered it (LOG_GC). Pessimistic: a send that depends on a delivery whose
 * determinant is not stable is held, in order, until it is. A restarted peer asks for what it has
 * not delivered (RESEND_REQ): the log re-sends it and says what this process delivered from the
 * peer (CATCHUP), which the peer's re-execution must send again. */
#pragma once

#include "sim/protocol/index_set.hpp"
#include "protocols/msglog/execution.hpp"
#include "protocols/msglog/identity.hpp"
#include "protocols/msglog/messages.hpp"

#include <memory>

namespace ckptsim::msglog {

class Determinants;
class Inbox;
class Recovery;

class SenderLog {
 public:
  SenderLog(const Identity& id, Execution& exec, Determinants& dets, Inbox& inbox, Recovery& recovery)
      : id_(id)
      , exec_(exec)
      , dets_(dets)
      , inbox_(inbox)
      , recovery_(recovery) {}

  /** @brief The messages logged, all destinations. */
  double entries() const { return entries_; }
  /** @brief Their bytes. */
  double bytes() const { return bytes_; }

  /** @brief The application sends @p msg: sent now, or held (pessimistic). */
  void on_app_send(NodeContext& ctx, const AppMessage& msg);
  /** @brief Pessimistic: sends the held messages whose deliveries are stable now, in order. */
  void release_held(NodeContext& ctx);
  /** @brief The piggyback of message @p idx to @p dst, sent after delivery @p rsn. */
  std::shared_ptr<Piggyback> piggyback(std::uint64_t idx, std::uint64_t rsn, NodeId dst) const;
  /** @brief LOG_GC from @p from: its checkpoint delivered these; they are dropped. */
  void on_gc(NodeContext& ctx, NodeId from, const Body& b);
  /** @brief RESEND_REQ from restarted (or rolled back) @p from: re-sends, CATCHUP, and this
   *  process' part of the recovery is done. */
  void on_resend_req(NodeContext& ctx, NodeId from, const Body& b);
  /** @brief Re-sends the logged messages to @p to that @p delivered lacks; how many. */
  std::uint64_t resend_missing(NodeContext& ctx, NodeId to, const IndexSet& delivered);
  /** @brief Counts the log again (it was restored, or lost) and reports it. */
  void recount(NodeContext& ctx);

 private:
  /** @brief Puts @p msg on the wire; @p rsn: the deliveries it depends on. */
  void send_now(NodeContext& ctx, const AppMessage& msg, std::uint64_t rsn);
  void account(NodeContext& ctx) const;

  const Identity& id_;
  Execution& exec_;
  Determinants& dets_;
  Inbox& inbox_;
  Recovery& recovery_;
  double entries_ = 0; // in State::log
  double bytes_ = 0;
};

} // namespace ckptsim::msglog
