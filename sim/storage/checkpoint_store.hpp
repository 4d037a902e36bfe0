/* The engine's record of every stored checkpoint and of who holds a complete copy of it: the
 * node itself (its memory), other nodes (buddy), servers. A failed node loses every copy in its
 * memory, its own and those it held for others; a checkpoint without any copy left cannot be
 * restored, and the engine says so instead of pretending. The snapshot's content lives here
 * once, standing for the bytes every holder has. */
#pragma once

#include "sim/protocol/protocol.hpp"
#include "sim/storage/placement.hpp"

#include <boost/container/flat_set.hpp>

#include <map>
#include <vector>

namespace ckptsim {

class CheckpointStore {
 public:
  struct Entry {
    Snapshot snapshot;
    double bytes = 0;
    boost::container::flat_set<Holder> holders; // complete copies (a few: one block, not a node each)
  };

  /** @brief A new checkpoint with its local copy (the node's memory). */
  void add(NodeId node, std::uint64_t number, Snapshot snapshot, double bytes);
  void add_copy(NodeId node, std::uint64_t number, Holder holder);
  void drop(NodeId node, std::uint64_t number);
  /** @brief A node failed: the copies in its memory are gone. */
  void holder_failed(NodeId node);
  const Entry* find(NodeId node, std::uint64_t number) const;
  /** @brief Checkpoints stored and their bytes, each checkpoint counted once whatever its copies
   *  (the storage a protocol holds: GC and rollbacks lower it). */
  std::size_t held() const { return held_; }
  double held_bytes() const { return held_bytes_; }
  /** @brief Bytes of every complete copy in memory or on a server (a checkpoint with its local copy
   *  and DF remote ones counts DF + 1 times): what the storage model really holds, now and at most. */
  double held_copy_bytes() const { return copy_bytes_; }
  double held_copy_bytes_max() const { return copy_bytes_max_; }

 private:
  void copies_changed(double delta);
  Entry* entry(NodeId node, std::uint64_t number);

  // Per node (NodeId indexes the vector, grown on demand), by number: the same order as one map
  // keyed by (node, number), so walks over every entry add up in the same order, but each lookup
  // searches one node's few checkpoints instead of a tree of every node's (2.5 % of hc3i on
  // 4 x 1,000 nodes).
  std::vector<std::map<std::uint64_t, Entry>> entries_;
  std::size_t held_ = 0;
  double held_bytes_ = 0;
  double copy_bytes_ = 0;
  double copy_bytes_max_ = 0;
};

} // namespace ckptsim
