/* What a CCK partial re-execution owes, message by message (thesis 4.3.3-4.3.4), and how each
 * repeated send or receive is told to the engine so that the consistency oracle counts it as a
 * repetition, not a new message:
 *   - a non-failed process re-executes T^p: its sends there go out again (resend_app), its
 *     receives there take the message again (redeliver);
 *   - the failed process re-executes its whole checkpointed graph: of its sends, those a
 *     non-failed process already received are promised (promise_send) and, when C_total does not
 *     need them, withheld (only recorded: record_send), the receiver keeping its copy.
 * The restart is over on a process when nothing repeated or promised is still to send. */
#pragma once

#include "protocols/cck/dataflow.hpp"
#include "sim/protocol/protocol.hpp"

#include <cstddef>
#include <set>
#include <vector>

namespace ckptsim::cck {

class Replay {
 public:
  /** @brief An application send (piggyback @p pb): sent, sent again, or only recorded when the
   *  receiver kept it; a promise it fulfils is kept. */
  void send(NodeContext& ctx, const AppMessage& msg, PayloadPtr pb);
  /** @brief Delivers @p msg: again if its receive is re-executed, else for the first time. */
  void deliver(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  /** @brief A non-failed process re-executes @p redo (tasks of @p g): their sends and receives
   *  are repeated. */
  void repeat(const TaskGraph& g, const std::vector<TaskId>& redo);
  /** @brief The failed process: of its sends, the non-failed ones received @p received (tags);
   *  each is promised, and withheld unless C_total (@p total, ascending) needs it again. */
  void promise(NodeContext& ctx, const TaskGraph& g, const std::vector<Tag>& received, const std::vector<Tag>& total);
  /** @brief Sends repeated or promised are still to go. */
  bool owes() const { return !resend_.empty() || !promised_.empty(); }
  /** @brief The sends to withhold still to come. */
  std::size_t withheld() const { return withheld_.size(); }

 private:
  std::set<Tag> resend_;    // sends to re-execute whose first send is kept: replays
  std::set<Tag> redeliver_; // receives to re-execute whose first delivery is kept
  std::set<Tag> withheld_;  // a restarted process' sends the receiver still holds (4.3.3)
  std::set<Tag> promised_;  // a restarted process' sends a non-failed process received: still owed
};

} // namespace ckptsim::cck
