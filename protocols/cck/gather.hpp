/* The all-gather of a CCK restart (thesis 4.3.4 step 3): each process sends every other one its
 * communication-restricted graph with the communications it lost to the failed process and those
 * it received from it (GatherBody), and waits for the N-1 others' before it plans. The failed
 * process' new incarnation gets a survivor's GATHER only once it runs again (node back): one sent
 * earlier would reach the dead incarnation's mailbox. GATHERs of a newer failure may come before
 * this process has heard of it: they are kept per failure. */
#pragma once

#include "protocols/cck/lost.hpp"
#include "protocols/cck/messages.hpp"
#include "sim/protocol/protocol.hpp"

#include <map>
#include <memory>
#include <vector>

namespace ckptsim::cck {

/** @brief The GATHERs of one failure, by sender. */
using Gathered = std::map<NodeId, std::shared_ptr<const GatherBody>>;

class Gather {
 public:
  /** @brief A new restart: the failed process is not running again yet. */
  void begin() {
    failed_back_ = false;
    owed_to_failed_ = false;
  }
  /** @brief This process' GATHER of the restart under way (nullptr before send()). */
  const std::shared_ptr<const GatherBody>& own() const { return own_; }
  /** @brief A GATHER is owed to the failed process, to send once it is back. */
  bool owed_to_failed() const { return owed_to_failed_; }

  /** @brief Sends @p own to every process but this one and @p failed; to @p failed too if it is
   *  back, else once it is (a restarted process, @p failed itself, sends to all the others). */
  void send(NodeContext& ctx, std::shared_ptr<const GatherBody> own, const std::vector<NodeId>& failed);
  /** @brief The failed process runs again: the GATHER owed to it goes now. */
  void failed_back(NodeContext& ctx, const std::vector<NodeId>& failed);
  /** @brief GATHER @p body from @p from, kept unless of a failure older than @p epoch: whether
   *  it was kept. */
  bool keep(NodeId from, std::shared_ptr<const GatherBody> body, FailureId epoch);
  /** @brief The others' GATHERs of failure @p epoch once the @p others expected are in, else
   *  nullptr. */
  const Gathered* complete(FailureId epoch, int others) const;
  /** @brief Forgets the GATHERs of failure @p epoch and older ones. */
  void forget_through(FailureId epoch) { gathered_.erase(gathered_.begin(), gathered_.upper_bound(epoch)); }

 private:
  void send_to(NodeContext& ctx, NodeId to) const;

  std::map<FailureId, Gathered> gathered_;
  std::shared_ptr<const GatherBody> own_;
  bool failed_back_ = false;
  bool owed_to_failed_ = false; // the GATHER owed to the failed process once it is back
};

/** @brief A non-failed process' GATHER for failure @p epoch of @p failed, from its task @p states
 *  and the data still in its memory (@p in_memory, empty without reuse). */
std::shared_ptr<GatherBody> survivor_gather(const TaskGraph& g, NodeId self, FailureId epoch,
                                            const std::vector<NodeId>& failed, const TaskStates& states,
                                            const std::vector<bool>& in_memory);
/** @brief The restarted process' GATHER: the restricted graph of its whole checkpointed graph,
 *  which it re-executes. */
std::shared_ptr<GatherBody> restarted_gather(const TaskGraph& g, NodeId self, FailureId epoch,
                                             const TaskStates& states);

} // namespace ckptsim::cck
