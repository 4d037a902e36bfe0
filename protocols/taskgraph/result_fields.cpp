/* What each results-document field protocol taskgraph writes means, registered for docs/RESULTS.md. */
#include "sim/protocol/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration taskgraph_fields{
    {"taskgraph",
     "Protocol taskgraph",
     {{"/stats/counters/taskgraph.checkpoints", "checkpoints",
       "Checkpoints committed: the backup acknowledged (TG_STORED_ACK) the complete copy, the process discarded its "
       "previous checkpoint and piggybacks the new number. Total over the run and the processes."},
      {"/stats/counters/taskgraph.checkpoints_skipped", "checkpoints",
       "Checkpoint points (iterations interval+1, 2*interval+1...) a process reached while its previous save was "
       "not yet acknowledged by its backup: no checkpoint is taken there. Total over the run and the processes."},
      {"/stats/counters/taskgraph.duplicates", "messages",
       "Application messages dropped on arrival because the receiver's state had already received their tag: a "
       "replayed or re-sent message it held, or a send a restarted sender's re-execution made again (Lion 3.3). "
       "Total over the run and the receivers."},
      {"/stats/counters/taskgraph.gc_dropped", "messages",
       "Sender-log entries dropped because the receiver's committed checkpoint, piggybacked on its messages, covers "
       "them (garbage collection by checkpoint numbers). Total over the run and the senders."},
      {"/stats/counters/taskgraph.replayed", "messages",
       "Logged messages the peers of a restarted process replayed to it on TG_RECOVER: those its restored "
       "checkpoint's point does not cover (Lion 3.4 step 5). Total over the recoveries and the peers, the backup "
       "included."},
      {"/stats/counters/taskgraph.resent_own", "messages",
       "Messages a restarted process sent again right after its restore: its whole restored log, as a copy still in "
       "transfer when it failed was lost with it (receivers drop those they hold). Total over the recoveries."},
      {"/stats/counters/taskgraph.promised", "messages",
       "Sends of a restarted process that a peer reported holding (TG_REPLAYED) and that its restored state has not "
       "executed: owed again by its re-execution, the recovery ending when all are sent. Total over the recoveries."},
      {"/stats/series/taskgraph.recoveries[]/failure", "",
       "Id of the failure: one record per failed process, written when it reports its recovery (every peer has "
       "answered TG_REPLAYED, every promised send is made)."},
      {"/stats/series/taskgraph.recoveries[]/victim", "", "The restarted process (node number)."},
      {"/stats/series/taskgraph.recoveries[]/checkpoint", "",
       "Number (program-order point) of the checkpoint it restored, as its backup named it in TG_RESTORE; 0: the "
       "initial state."},
      {"/stats/series/taskgraph.recoveries[]/peers", "count",
       "Peers asked to replay: the processes with a communication with the victim that the checkpoint's point does "
       "not cover, from the task graph (the backup among them possibly)."},
      {"/stats/series/taskgraph.recoveries[]/replayed", "messages",
       "Messages the peers replayed to it, as their TG_REPLAYED reported (its part of taskgraph.replayed)."},
      {"/stats/series/taskgraph.recoveries[]/duration", "s",
       "From the failure to the victim's report of its recovery: downtime, restore, restart overhead, replay and "
       "the promised sends included."},
      {"/stats/counters/ctrl.TG_STORED", "messages",
       "A process to its backup when the copy of a checkpoint is complete; sent again to a restarted backup (which "
       "lost the copy and what it knew) once the copy is re-created."},
      {"/stats/counters/ctrl.TG_STORED_ACK", "messages",
       "The backup's answer to TG_STORED: the process commits the checkpoint, discards its previous one and "
       "piggybacks the new number, so that its senders collect their logs."},
      {"/stats/counters/ctrl.TG_RESTART", "messages",
       "A restarted process to its backup: asks which checkpoint to restore."},
      {"/stats/counters/ctrl.TG_RESTORE", "messages",
       "The backup's answer to TG_RESTART: the newest checkpoint of the process whose copy is complete there (0: "
       "the initial state)."},
      {"/stats/counters/ctrl.TG_RECOVER", "messages",
       "The backup of a restarted process to each peer the task graph says may have to send to it again (Lion 3.4 "
       "step 4): replay what the restored point does not cover. A backup that is itself a peer replays without a "
       "message."},
      {"/stats/counters/ctrl.TG_REPLAYED", "messages",
       "Each peer asked to replay to the restarted process: the replay is done, how many it re-sent, and the tags "
       "of the victim's messages it received beyond the point (sends the victim owes again)."},
      {"/run/params/interval", "",
       "The value given with --param interval (an integer >= 1): the iterations between two checkpoints, taken at "
       "points interval+1, 2*interval+1... Absent when not given; default 10."}},
     35}};

} // namespace
} // namespace ckptsim
