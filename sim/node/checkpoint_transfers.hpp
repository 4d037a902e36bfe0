/* A node's checkpoint transfers under the storage model: a save keeps the copy in the node's
 * memory at once and sends the remote copies over the network; a load reads the node's own copy
 * or fetches a surviving one; a replication re-creates copies a failure destroyed. The node waits
 * for these transfers with everything else (NodeRuntime's loop) and tells its agent when a save
 * or a load is complete (next_completed). A transfer whose route is down, or that a link failure
 * cut, waits for a route and starts again (its save or load takes that much longer). */
#pragma once

#include "sim/protocol/protocol.hpp"

#include <simgrid/s4u.hpp>

#include <map>
#include <optional>
#include <vector>

namespace ckptsim {

struct NodeEnv;
namespace sg4 = simgrid::s4u;

class CheckpointTransfers {
 public:
  /** @brief The transfers of incarnation @p inc of node @p self, in @p cluster (its checkpoint
   *  size); @p node traces their events. */
  CheckpointTransfers(NodeEnv& env, NodeContext& node, NodeId self, Incarnation inc, ClusterId cluster);
  /** @brief Killed with its node: the copies it was re-creating will not arrive. */
  ~CheckpointTransfers();
  CheckpointTransfers(const CheckpointTransfers&) = delete;
  CheckpointTransfers& operator=(const CheckpointTransfers&) = delete;

  /** @brief NodeContext::save_checkpoint, NodeContext::load_checkpoint, discard_checkpoint and
   *  replicate_checkpoint. */
  void save(std::uint64_t number, Snapshot s);
  void load(std::uint64_t number);
  void discard(std::uint64_t number);
  void replicate(std::uint64_t number);

  /** @brief A save whose copies are all made (or failed), or a load whose copy arrived. */
  struct Completed {
    bool save;
    std::uint64_t number;
  };
  /** @brief The oldest completion not reported to the agent yet. */
  std::optional<Completed> next_completed();

  // ---- the node's wait ----
  std::size_t size() const { return io_.size(); }
  /** @brief Appends the comm of every transfer under way to @p waited, oldest first. */
  void add_comms(std::vector<sg4::CommPtr>& waited) const;
  /** @brief Transfer @p index (counted from the oldest) ended, completed when @p ok. */
  void finished(std::size_t index, bool ok);
  /** @brief A peer died or a link failed during transfers: settles every transfer that ended or
   *  failed (a transfer a link failure cut waits for a route). */
  void settle_after_failure();
  /** @brief A link came back: the transfers waiting for a route start if theirs is up. */
  void retry_held();
  bool holding() const { return !held_.empty(); }
  /** @brief The node's actor ends: what it had under way is cancelled. */
  void cancel_all();

 private:
  struct PendingIo {
    sg4::CommPtr comm;
    bool save;
    std::uint64_t number;
    int holder;
    bool replica = false; // re-creating a lost remote copy: nobody waits for it
    sg4::Host* from = nullptr;
    sg4::Host* to = nullptr;
    double bytes = 0;
  };
  /** @brief Starts @p io's transfer, or holds it while its route is down. */
  void launch(PendingIo io);
  /** @brief A transfer ended (@p ok: completed; else its peer died). */
  void settle(const PendingIo& io, bool ok);
  /** @brief A struck incarnation's memory is gone (the store forgot it): it transfers nothing. */
  bool dead() const;
  /** @brief A transfer re-creating a lost copy: to @p peer (outgoing) or from it. */
  void start_replica(std::uint64_t number, int peer, bool outgoing, double bytes);

  NodeEnv& env_;
  NodeContext& node_;
  const NodeId self_;
  const Incarnation inc_;
  const ClusterId cluster_;
  std::vector<PendingIo> io_;               // transfers under way
  std::vector<PendingIo> held_;             // transfers waiting for a route (no comm)
  std::map<std::uint64_t, int> saves_left_; // checkpoint number -> copies still being made
  std::vector<Completed> completed_;        // to report to the agent, oldest first
};

} // namespace ckptsim
