/* The determinants of a msglog process' own deliveries (SPEC 3.6): each delivery's (source,
 * channel index, rsn) goes to the event logger, batched, one DET message outstanding at a time;
 * the logger's DET_ACK says up to which rsn they are stable. Pessimistic: a stable prefix releases
 * the sends held (SenderLog). Causal: the determinants not known stable ride on every message
 * sent (its own and the copies of other processes' it delivered messages from), and a restarted
 * peer gets its copies back with CATCHUP. */
#pragma once

#include "protocols/msglog/execution.hpp"
#include "protocols/msglog/identity.hpp"
#include "protocols/msglog/messages.hpp"

#include <map>
#include <vector>

namespace ckptsim::msglog {

class SenderLog;

class Determinants {
 public:
  Determinants(const Identity& id, const Execution& exec, SenderLog& log)
      : id_(id)
      , exec_(exec)
      , log_(log) {}

  /** @brief Own determinants are stable (at the logger or in the checkpoint) up to this rsn. */
  std::uint64_t stable() const { return stable_; }
  /** @brief None waits to be sent nor to be acknowledged. */
  bool idle() const { return pending_.empty() && !outstanding_; }
  /** @brief Causal: the copies of @p owner's determinants this process holds, by rsn. */
  std::vector<Det> copies_of(NodeId owner) const;
  /** @brief Causal: every copy this process holds, by owner and rsn (saved with a checkpoint). */
  const std::map<NodeId, std::map<std::uint64_t, Det>>& copies() const { return others_; }

  /** @brief Causal: puts the stable rsn and the determinants not known stable on piggyback @p pb
   *  of a message to @p dst (not @p dst's own: it has them). */
  void fill(Piggyback& pb, NodeId dst) const;
  /** @brief This process delivered, as determinant @p d, a message with piggyback @p pb (causal:
   *  its copies are kept); its determinant goes to the logger unless @p replayed and stable. */
  void on_delivered(NodeContext& ctx, const Det& d, const Piggyback& pb, bool replayed);
  /** @brief Sends the determinants not sent yet, unless a DET is outstanding. */
  void flush(NodeContext& ctx);
  /** @brief DET_ACK from the logger. */
  void on_ack(NodeContext& ctx, const Body& b);
  /** @brief A restored process: stable up to @p stable (what the logger has, and the checkpoint). */
  void restart_at(std::uint64_t stable) { stable_ = stable; }
  /** @brief optimistic, an orphan rollback: the logger keeps them up to @p ckpt_rsn only, those
   *  of @p history after it go again; an outstanding DET is of the old epoch (dropped there). */
  void rewind(std::uint64_t ckpt_rsn, const std::map<std::uint64_t, Det>& history);
  /** @brief Counts the copies held (msglog.det_copies). */
  void account(NodeContext& ctx) const;

 private:
  /** @brief Causal: @p owner's determinants up to @p stable are stable; its copies are dropped. */
  void learn_stable(NodeId owner, std::uint64_t stable);

  const Identity& id_;
  const Execution& exec_;
  SenderLog& log_;
  std::vector<Det> pending_; // not sent yet (a DET message is outstanding)
  bool outstanding_ = false;
  std::uint64_t stable_ = 0;
  // causal: own determinants not known stable, and the copies of other processes' determinants
  std::map<std::uint64_t, Det> own_unstable_;
  std::map<NodeId, std::map<std::uint64_t, Det>> others_;
  std::map<NodeId, std::uint64_t> known_stable_; // per owner, from its piggybacks
};

} // namespace ckptsim::msglog
