/* The fields the "levels" storage model writes (results.storage_levels, levels_results in
 * model.cpp) and the per-level counters its saves and loads add (sim/node/checkpoint_levels.cpp),
 * described for docs/RESULTS.md. */
#include "sim/config/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration storage_levels{
    {"storage-levels",
     "Storage model levels",
     {
         {"/results/storage_levels/levels[]/level", "",
          "the level's number: 1 for the first (cheapest) of the topology's storage/levels, in their order; "
          "present when a cluster uses the levels storage model, one record per level"},
         {"/results/storage_levels/levels[]/kind", "", "the level's kind: local, partner, xor, rs or pfs"},
         {"/results/storage_levels/levels[]/every", "count",
          "the level's every: it writes every every-th checkpoint (checkpoint k goes to the deepest level whose "
          "every divides k); 1 for the first level"},
         {"/results/storage_levels/levels[]/checkpoints", "count",
          "saves written at this level (counted when they start), summed over the nodes: one per node and "
          "checkpoint number; a level whose deeper one takes every checkpoint has 0"},
         {"/results/storage_levels/levels[]/bytes_written", "bytes",
          "bytes the saves of this level wrote, summed over the nodes: their whole plan (the local device's write, "
          "the partner copy or parity shares, the file system flush), counting transfers that arrived"},
         {"/results/storage_levels/levels[]/time", "s",
          "the save times of this level, summed over the saves that completed: from a save's start to its report "
          "(with an async pfs flush, before the flush; with a sync one, after it)"},
         {"/results/storage_levels/levels[]/recoveries_served", "count",
          "restores read from this level, summed over the nodes' loads: 1 for the node's own copy on a local first "
          "level, a partner or xor/rs level for a copy or a group rebuild, the pfs level for the file system"},
         {"/results/storage_levels/levels[]/held_max_bytes", "bytes",
          "the most bytes held at once for the saves written at this level: every complete copy (the node's own, "
          "the partner's, the file system's) and every parity share, summed over the nodes"},
         {"/results/storage_levels/levels[]/flush", "",
          "pfs levels only: sync (a save completes when its flush to the file system does) or async (it completes "
          "before, the flush going on meanwhile)"},
         {"/results/storage_levels/levels[]/flush_time", "s",
          "async pfs levels only: the durations of the flushes that ended, from the save's report to the end of "
          "its flush, summed over the saves"},
         {"/results/storage_levels/recoveries_from_memory", "count",
          "restores from the node's own copy in memory, with no transfer (a plan without a local first level), "
          "summed over the nodes' loads (storage.level0.recoveries)"},
         {"/stats/counters/storage.level<N>.checkpoints", "count",
          "saves started at level N, summed over the nodes (as levels[]/checkpoints); absent when none"},
         {"/stats/counters/storage.level<N>.bytes", "bytes",
          "bytes written by the saves of level N, summed over the nodes (as levels[]/bytes_written); absent when "
          "none"},
         {"/stats/counters/storage.level<N>.time", "s",
          "save times of level N, from start to report, summed over the saves (as levels[]/time); absent when none"},
         {"/stats/counters/storage.level<N>.flush_time", "s",
          "asynchronous flush times of level N, summed over the flushes that ended (as levels[]/flush_time); "
          "absent when none"},
         {"/stats/counters/storage.level<N>.recoveries", "count",
          "restores read from level N, summed over the nodes' loads (as levels[]/recoveries_served); level 0: from "
          "the node's own memory (recoveries_from_memory); absent when none"},
     },
     20}};

} // namespace
} // namespace ckptsim
