/* A node's checkpoint transfers under the storage model: a save keeps the copy in the node's
 * memory at once and sends the remote copies over the network; a load reads the node's own copy
 * or fetches a surviving one; a replication re-creates copies a failure destroyed. The node waits
 * for these transfers with everything else (NodeRuntime's loop) and tells its agent when a save
 * or a load is complete (next_completed). A transfer whose route is down, or that a link failure
 * cut, waits for a route and starts again (its save or load takes that much longer). Under a
 * multi-level storage model a save or a load runs the model's steps in order (a time on the node,
 * then transfers: checkpoint_levels.cpp), the node's loop waking up when a local step ends. */
#pragma once

#include "sim/protocol/protocol.hpp"
#include "sim/storage/model.hpp"

#include <simgrid/s4u.hpp>

#include <functional>
#include <limits>
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
  /** @brief The run ended: the comms under way are cancelled, nothing else (the node is killed next). */
  void abandon();
  /** @brief When the next step on the node ends (a local write, an encoding; multi-level models),
   *  infinity when none runs. */
  double next_deadline() const;
  /** @brief The steps on the node due at @p now end, and what follows them starts. */
  void fire_due(double now);

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
    std::uint64_t staged = 0; // the multi-level operation it belongs to (0: none)
  };
  /** @brief A save or a load under a multi-level model: its steps, run in order (checkpoint_levels.cpp). */
  struct Staged {
    bool save = true;
    std::uint64_t number = 0;
    int level = 0;
    std::vector<StorageStep> steps;
    std::size_t step = 0;
    int phase = 0; // of the current step: 0 not started, 1 on the node (until due), 2 transfers
    double due = std::numeric_limits<double>::infinity();
    int left = 0;   // transfers of the step under way
    int failed = 0; // transfers of the step that could not be made
    double started = 0;
    bool reported = false; // the save was reported complete
    bool flushing = false; // ... with steps left (an asynchronous flush), which the run waits for
  };
  /** @brief No copy of checkpoint @p number is left to load. */
  void lost_load(std::uint64_t number);
  void save_staged(std::uint64_t number, double bytes, SavePlan plan); // the checkpoint is stored
  void load_staged(std::uint64_t number);
  /** @brief Runs staged operation @p id as far as it goes without waiting. */
  void advance(std::uint64_t id);
  void step_done(Staged& st);
  void staged_finished(Staged& st);
  void settle_staged(const PendingIo& io, bool ok);
  /** @brief A staged save of @p number is dropped (discarded, or the node's actor ends). */
  void end_staged_saves(const std::function<bool(const Staged&)>& which);
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
  std::map<std::uint64_t, Staged> staged_;  // multi-level saves and loads under way, by id
  std::uint64_t next_staged_ = 0;
};

} // namespace ckptsim
