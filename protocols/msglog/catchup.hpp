/* What the peers of a recovering msglog process delivered from it (their CATCHUP answers): its
 * re-execution is over once it has sent all of it again, since a peer that delivered a message
 * expects the re-execution to produce it. optimistic: a peer that rolls back itself keeps fewer of
 * those deliveries (its ROLLBACK_NOTICE says which): the expectation is capped for this round. */
#pragma once

#include "sim/protocol/index_set.hpp"
#include "protocols/msglog/identity.hpp"

#include <map>

namespace ckptsim::msglog {

class CatchUp {
 public:
  explicit CatchUp(const Identity& id)
      : id_(id) {}

  /** @brief Every peer has answered. */
  bool complete() const { return static_cast<int>(delivered_.size()) >= id_.nodes() - 1; }
  /** @brief Messages the peers re-sent, as they said. */
  std::uint64_t resent() const { return resent_; }
  /** @brief What @p peer delivered from this process, as known now (none: not answered). */
  const IndexSet* delivered(NodeId peer) const;
  /** @brief Everything the peers delivered from this process is in @p sent (per destination). */
  bool covered_by(const std::map<NodeId, IndexSet>& sent) const;

  /** @brief CATCHUP from @p peer: it delivered @p delivered (capped), re-sent @p resent. */
  void record(NodeId peer, IndexSet delivered, std::uint64_t resent);
  /** @brief optimistic: @p peer rolled back and keeps only @p kept of this process' messages. */
  void cap(NodeId peer, const IndexSet& kept);
  /** @brief A new round (an orphan rollback), or the recovery is over: forgets the answers. */
  void reset();

 private:
  const Identity& id_;
  std::map<NodeId, IndexSet> delivered_; // per peer: what it delivered from this process
  std::map<NodeId, IndexSet> caps_;      // this round: peers' deliveries from this process after their rollbacks
  std::uint64_t resent_ = 0;
};

} // namespace ckptsim::msglog
