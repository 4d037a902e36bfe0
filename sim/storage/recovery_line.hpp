/* The recovery line of a global restart over what the stored checkpoints really are (RLFFN of
 * the replicated storage model, valid under any model): the newest of a list of checkpoint
 * numbers that every node can still load, each from a copy on a live holder. The paper computes
 * it from the receiver formula and the failure set (sim/storage/replicated/scheme.hpp); the engine asks
 * the store, which also knows the copies lost to earlier failures and not re-created yet. */
#pragma once

#include "sim/storage/checkpoint_store.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ckptsim {

struct LineSearch {
  std::optional<std::uint64_t> line;  // the newest restorable number, nullopt when none
  std::vector<std::uint64_t> skipped; // numbers searched before it (newest first)
  // For each skipped number: the first node with no copy left of its checkpoint.
  std::vector<NodeId> lost_at;
};

/** @brief Searches @p numbers newest first over nodes 0..@p nodes-1; 0 stands for the initial
 *  state, which needs no storage and is always restorable. */
LineSearch search_recovery_line(const CheckpointStore& store, int nodes, std::vector<std::uint64_t> numbers);

} // namespace ckptsim
