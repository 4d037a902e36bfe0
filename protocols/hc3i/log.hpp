/* The inter-cluster log of an HC3I node (report section 3.3): every message it sends to another
 * cluster, kept in volatile memory with the SN the receiver acknowledged it with (optimistic
 * sender-side logging). It answers acknowledgements, re-sends what an alert names, gives the copy
 * a CLC saves, and drops what a rollback undid or the garbage collector says is no longer needed. */
#pragma once

#include "protocols/hc3i/dependencies.hpp"
#include "protocols/hc3i/membership.hpp"
#include "protocols/hc3i/state.hpp"

#include <memory>

namespace ckptsim::hc3i {

class InterClusterLog {
 public:
  InterClusterLog(const Membership& place, const Dependencies& deps)
      : place_(place)
      , deps_(deps) {}

  const Log& entries() const { return log_; }
  /** @brief Logs message @p e, just sent. */
  void record(NodeContext& ctx, LogEntry e);
  /** @brief LOG_ACK: the receiver cluster delivered a message, in its interval of SN b["sn"]. */
  void on_ack(NodeContext& ctx, const Body& b);
  /** @brief Cluster @p to_cluster rolled back to SN @p s: re-sends the messages to it that it
   *  acknowledged with an SN >= s, or not at all (their delivery is undone or unknown). */
  void replay(NodeContext& ctx, int to_cluster, Sn s);
  /** @brief Re-sends every logged message under this cluster's epoch @p epoch (a restarted node,
   *  whose log lost its acknowledgements). */
  void resend_all(NodeContext& ctx, std::uint64_t epoch);
  /** @brief The copy a CLC saves: the previous checkpoint's when nothing changed since. */
  std::shared_ptr<const Log> saved_copy();
  /** @brief The node restored CLC @p number, whose saved state is @p st: a node that lost its
   *  memory (@p lost) takes the CLC's copy, the others drop the messages sent after the CLC. */
  void restore(NodeContext& ctx, const SavedState& st, Sn number, bool lost);
  /** @brief The node restored the initial state: nothing was sent. */
  void clear(NodeContext& ctx);
  /** @brief Garbage collection: drops the messages acknowledged with an SN below the receiver
   *  cluster's worst SN @p worst, in the receiver's epoch @p epochs the collection saw. */
  void collect(NodeContext& ctx, const Ddv& worst, const std::vector<std::uint64_t>& epochs);

 private:
  /** @brief Re-sends logged message @p e, under the sender cluster's epoch @p epoch. */
  void resend(NodeContext& ctx, LogEntry& e, std::uint64_t epoch);
  /** @brief Counts what the log holds now (after any change to it). */
  void count(NodeContext& ctx) const;

  const Membership& place_;
  const Dependencies& deps_;
  Log log_;
  std::shared_ptr<const Log> saved_; // the copy the last checkpoint holds
};

} // namespace ckptsim::hc3i
