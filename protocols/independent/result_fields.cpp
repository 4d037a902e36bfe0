/* What each results-document field independent writes means (stats, control messages, --param), for docs/RESULTS.md */
#include "sim/protocol/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration independent_fields{
    {"independent",
     "Protocol independent",
     {
         {"/run/params/unit", "",
          "the checkpoint unit given with --param unit: process (every process checkpoints on its own timer) or "
          "cluster (each cluster takes an intra-cluster coordinated checkpoint); absent when not given: process"},
         {"/stats/counters/independent.checkpoints", "checkpoints",
          "unit checkpoints committed (every member saved and acknowledged to the unit's leader), summed over the "
          "units"},
         {"/stats/per_cluster/independent.checkpoints", "checkpoints",
          "unit checkpoints committed, per cluster (the cluster of the unit's leader), in cluster order"},
         {"/stats/counters/independent.checkpoint_time", "s",
          "time from a unit's leader starting a checkpoint (INIT) to its commit (the last member's ACK), summed over "
          "the committed checkpoints; divided by independent.checkpoints, the mean duration of a checkpoint"},
         {"/stats/counters/independent.checkpoints_aborted", "checkpoints",
          "unit checkpoints under way when a recovery began that the recovery manager's ROLLBACK showed uncommitted: "
          "discarded; counted by the unit's leader, summed over the units"},
         {"/stats/counters/independent.stale_dropped", "messages",
          "unit=cluster: messages inside a unit dropped on arrival because they carry an older epoch of the unit "
          "(sent by an execution a rollback undid), summed over the nodes"},
         {"/stats/counters/independent.orphans_dropped", "messages",
          "messages from another unit dropped because they were sent in an interval a rollback of the sender's unit "
          "undid (orphans), on arrival or waiting in the reorder buffer when the rollback became known; summed over "
          "the nodes"},
         {"/stats/counters/independent.duplicates_dropped", "messages",
          "messages from another unit dropped on arrival because their channel index was delivered already (copies "
          "re-sent after a rollback), summed over the nodes"},
         {"/stats/counters/independent.replays", "messages",
          "logged messages re-sent after a rollback, from the index each receiver expects (receivers drop what they "
          "have), once every victim is back; summed over the nodes and the recoveries"},
         {"/stats/counters/independent.recoveries", "count",
          "recovery lines the recovery manager computed: one per failure"},
         {"/stats/counters/independent.rollbacks", "count",
          "units on the recovery line (restoring a checkpoint or their initial state), the failed units included, "
          "summed over the recoveries"},
         {"/stats/counters/independent.rolled_over", "checkpoints",
          "committed checkpoints newer than the one a unit restored, made useless by the rollback (the domino "
          "effect), summed over the units and the recoveries"},
         {"/stats/counters/independent.max_depth", "checkpoints",
          "the most committed checkpoints one unit rolled over in one recovery (newer than the one it restored), "
          "over the run: the depth of the domino effect"},
         {"/stats/counters/independent.to_initial", "count",
          "units the recovery line sent back to their initial state (checkpoint 0: the domino effect's end), summed "
          "over the recoveries"},
         {"/stats/counters/independent.gcs", "count",
          "garbage collections the recovery manager ran (every gc_period; after the recovery under way, if any)"},
         {"/stats/counters/independent.stored", "checkpoints",
          "committed checkpoints the recovery manager keeps a record of at the end of the run (not removed by a "
          "garbage collection or a rollback), all units together; initial states not counted"},
         {"/stats/counters/independent.stored_max", "checkpoints",
          "the peak of independent.stored over the run: the most committed checkpoints recorded at once, all units "
          "together"},
         {"/stats/counters/independent.stored_bytes", "bytes",
          "bytes of the checkpoints counted in independent.stored (per checkpoint, its members' checkpoint sizes "
          "summed) at the end of the run"},
         {"/stats/counters/independent.stored_bytes_max", "bytes", "the peak of independent.stored_bytes over the run"},
         {"/stats/series/independent.recoveries[]/failure", "",
          "the failure recovered from (its id in /stats/series/failures)"},
         {"/stats/series/independent.recoveries[]/date", "s",
          "when the recovery manager computed the recovery line (every surviving node had reported its state)"},
         {"/stats/series/independent.recoveries[]/victim", "",
          "the failed node (the first of them, in increasing order, when several failed together)"},
         {"/stats/series/independent.recoveries[]/victims", "",
          "only when several nodes failed together: every victim (node ids), in increasing order"},
         {"/stats/series/independent.recoveries[]/units_rolled_back", "count",
          "units on this recovery line (restoring a checkpoint or their initial state), the failed units included"},
         {"/stats/series/independent.recoveries[]/rolled_over", "checkpoints",
          "committed checkpoints newer than the one restored, summed over the units of this recovery (the domino "
          "effect)"},
         {"/stats/series/independent.recoveries[]/max_depth", "checkpoints",
          "the most committed checkpoints one unit rolled over in this recovery"},
         {"/stats/series/independent.recoveries[]/to_initial", "count",
          "units this recovery sent back to their initial state (checkpoint 0)"},
         {"/stats/series/independent.recoveries[]/line", "",
          "the recovery line, per unit in unit order (process or cluster index): the checkpoint the unit restores "
          "(0: the initial state), null for a unit that keeps its current state"},
         {"/stats/series/independent.gc[]/date", "s", "when the recovery manager ran this garbage collection"},
         {"/stats/series/independent.gc[]/stored_before", "checkpoints",
          "committed checkpoints recorded before this garbage collection, all units together"},
         {"/stats/series/independent.gc[]/stored_after", "checkpoints",
          "committed checkpoints left after it: those numbered below the garbage-collection line (the recovery line "
          "if every unit failed now) are removed"},
         {"/stats/counters/ctrl.INIT", "messages",
          "unit=cluster: a unit's leader to each other member, starting the unit's checkpoint (a process unit's own "
          "INIT is a local call, not counted)"},
         {"/stats/counters/ctrl.FLUSH", "messages",
          "unit=cluster: each member to every other member of its unit after INIT (FIFO channels: no message of the "
          "unit crosses the checkpoint); a member saves once it has them all"},
         {"/stats/counters/ctrl.ACK", "messages",
          "unit=cluster: a member to its unit's leader once its checkpoint is saved: its dependency vector, next "
          "expected index per sender, checkpoint bytes (the leader's own is local)"},
         {"/stats/counters/ctrl.COMMIT", "messages",
          "unit=cluster: a unit's leader to each other member once every member acknowledged: the checkpoint is "
          "committed and the members resume"},
         {"/stats/counters/ctrl.CKPT_RECORD", "messages",
          "a unit's leader to the recovery manager at each commit: the unit's merged dependency vector, the "
          "channels' next expected indices and the checkpoint's bytes"},
         {"/stats/counters/ctrl.RECOVER_REQ", "messages",
          "recovery manager to every node a failure spared: stop, freeze the checkpoint under way and report the "
          "state"},
         {"/stats/counters/ctrl.STATE", "messages",
          "node to recovery manager, answering a RECOVER_REQ: its dependency vector and next expected index per "
          "sender"},
         {"/stats/counters/ctrl.ROLLBACK", "messages",
          "recovery manager to every node once the line is computed (a restarted victim after its RESTARTED): the "
          "recovery line, every unit's epoch, where to re-send from; a victim also gets the knowledge it lost"},
         {"/stats/counters/ctrl.RESTARTED", "messages",
          "restarted victim to the recovery manager: it is back and waits for its ROLLBACK order"},
         {"/stats/counters/ctrl.GC", "messages",
          "recovery manager to every node at each garbage collection: the line below which its checkpoints, and the "
          "log entries its receivers' checkpoints on the line delivered, are discarded"},
     },
     32}};

} // namespace
} // namespace ckptsim
