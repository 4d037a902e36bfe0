/* What each results-document field protocol cck writes means, registered for docs/RESULTS.md. */
#include "sim/protocol/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration cck_fields{
    {"cck",
     "Protocol cck",
     {{"/stats/counters/cck.waves_started", "count",
       "Checkpoint waves the coordinator started: one per checkpoint period when no wave or restart is under way, "
       "each an INIT to the N processes. Total over the run (committed, aborted, or under way when the run ended)."},
      {"/stats/counters/cck.waves_committed", "count",
       "Checkpoint waves committed: the coordinator had the ACKs of all N processes and the wave became the "
       "recovery line a restart rolls back to. Total over the run."},
      {"/stats/counters/cck.waves_aborted", "count",
       "Checkpoint waves under way when the coordinator learnt of a failure: the wave is no recovery line and the "
       "checkpoints saved for it are discarded. Total over the run."},
      {"/stats/counters/cck.coordination_time", "s",
       "Sum over the committed waves of their coordination time, from the coordinator's INIT to the last ACK (a "
       "process ACKs when it resumes). Divided by cck.waves_committed: the mean per wave the summary shows."},
      {"/stats/series/cck.waves[]/wave", "",
       "Number of the committed wave (numbers of aborted waves are not reused): one record per committed wave, in "
       "commit order."},
      {"/stats/series/cck.waves[]/start", "s", "Date the coordinator sent the wave's INIT."},
      {"/stats/series/cck.waves[]/commit", "s",
       "Date the last of the N ACKs arrived and the wave became the recovery line."},
      {"/stats/series/cck.waves[]/duration", "s",
       "commit - start: the wave's coordination time (cck.coordination_time sums them)."},
      {"/stats/series/cck.waves[]/messages", "messages",
       "Control messages of the wave (INIT, PING, PONG, CONT, ACK) sent between its INIT and its commit, measured "
       "on the ctrl.* counters; the thesis predicts 2N + 3 sum(V_i)."},
      {"/stats/series/cck.waves[]/sum_v", "count",
       "Sum over the N processes of |V_i|, the processes each one PINGed in this wave (those it still expected data "
       "from), as their ACKs reported: the wave's PINGs."},
      {"/stats/counters/cck.stale_dropped", "messages",
       "Application messages dropped on arrival because the incarnation of the sender that sent them has died since "
       "(a failure struck the sender after the send). Total over the run and the receivers."},
      {"/stats/counters/cck.held", "messages",
       "Application messages held on arrival because their sender had saved a wave the receiver had not saved yet "
       "(delayed delivery, keeping the cut consistent), received again after the receiver's save or when a restart "
       "begins. Counts each holding: a message held again counts again."},
      {"/stats/counters/cck.duplicates", "messages",
       "Application messages dropped on arrival because the receiver's state had already received their tag. Never "
       "expected: a non-zero value reveals a protocol bug (each is also traced as cck_duplicate)."},
      {"/stats/counters/cck.restarts", "count",
       "Partial restarts planned: one per failure, counted once (by the first non-failed process) when every GATHER "
       "is in and C_total is computed. Total over the run."},
      {"/stats/counters/cck.c_lost", "messages",
       "Sum over the restarts of |C_lost|: the communications from a non-failed process to a failed one whose send "
       "ran after the recovery line (the last committed wave), lost with the failed process (thesis Definition 6)."},
      {"/stats/counters/cck.c_total", "messages",
       "Sum over the restarts of |C_total|: C_lost plus every communication it depends on transitively in the union "
       "of the processes' communication-restricted graphs (thesis 4.3.4): what the non-failed processes send again."},
      {"/stats/counters/cck.reexecuted_tasks", "tasks",
       "Compute tasks the non-failed processes re-execute at restarts (in T^p: those the sends of C_total depend "
       "on; fewer with reuse=true), summed over the non-failed processes and the restarts. The failed processes' "
       "re-execution is not counted."},
      {"/stats/counters/cck.global_restart_tasks", "tasks",
       "For comparison with cck.reexecuted_tasks: the compute tasks the non-failed processes had executed since the "
       "recovery line, which a global restart would have re-executed; summed over the non-failed processes and the "
       "restarts."},
      {"/stats/series/cck.restart[]/failure", "",
       "Id of the failure the restart recovers from: one record per process and restart, written when the process "
       "has planned its part (all GATHERs in)."},
      {"/stats/series/cck.restart[]/process", "", "The process (node number) the record is about."},
      {"/stats/series/cck.restart[]/failed", "",
       "true: the process is a victim of the failure (restarted from the recovery line); false: a non-failed "
       "process."},
      {"/stats/series/cck.restart[]/reexecuted", "tasks",
       "Non-failed process only: the compute tasks of T^p it re-executes (its part of cck.reexecuted_tasks)."},
      {"/stats/series/cck.restart[]/global", "tasks",
       "Non-failed process only: its compute tasks executed since the recovery line, what a global restart would "
       "re-execute (its part of cck.global_restart_tasks)."},
      {"/stats/series/cck.restart[]/withheld", "messages",
       "Failed process only: the sends of its re-execution it will not send again, a non-failed process having "
       "received them already and C_total not needing them (thesis 4.3.3)."},
      {"/stats/series/cck.restart[]/c_lost", "messages",
       "|C_lost| of the restart, as this process computed it from every GATHER (the same on every process)."},
      {"/stats/series/cck.restart[]/c_total", "messages",
       "|C_total| of the restart, as this process computed it from every GATHER (the same on every process)."},
      {"/stats/counters/ctrl.INIT", "messages",
       "Coordinator to each of the N processes every checkpoint period: starts a wave (the process stops between "
       "two tasks) and names the last committed wave, older local copies being discarded."},
      {"/stats/counters/ctrl.PING", "messages",
       "Wave: a stopped process to each process of V_i (those it still expects data from); answered by PONG once "
       "that one has stopped too, which flushes the channel."},
      {"/stats/counters/ctrl.PONG", "messages",
       "Wave: the answer to a PING, sent once the receiver has stopped for the wave (FIFO: every message it sent "
       "before precedes it). With all its PONGs a process saves its checkpoint."},
      {"/stats/counters/ctrl.CONT", "messages",
       "Wave: a process to each process of V_i once its save is complete; a process resumes, and ACKs, when it has "
       "as many CONT as PINGs it received."},
      {"/stats/counters/ctrl.ACK", "messages",
       "Wave: a process to the coordinator when it resumes, with |V_i|; the N ACKs commit the wave."},
      {"/stats/counters/ctrl.RECOVER", "messages",
       "Coordinator at a failure to each non-failed process, and to a restarted process in answer to its RESTARTED: "
       "the recovery line (last committed wave), the aborted wave whose checkpoint is discarded, the victims."},
      {"/stats/counters/ctrl.STOP_PING", "messages",
       "Restart: a stopped non-failed process to each non-failed process it still expects data from; answered by "
       "STOP_PONG, flushing the channel before the states are compared."},
      {"/stats/counters/ctrl.STOP_PONG", "messages",
       "Restart: the answer to a STOP_PING, sent once the receiver has stopped for the same failure."},
      {"/stats/counters/ctrl.GATHER", "messages",
       "Restart all-gather: each process to every other one, its communication-restricted graph, its sends to "
       "failed processes lost since the line and its receptions from them; N(N-1) per restart."},
      {"/stats/counters/ctrl.READY", "messages",
       "Restart: a process to the coordinator once it has planned its part (C_total, T^p); after the N READY the "
       "coordinator sends RESTART."},
      {"/stats/counters/ctrl.RESTART", "messages",
       "Coordinator to each of the N processes once all are READY: the application resumes and the re-execution "
       "begins."},
      {"/stats/counters/ctrl.RESTARTED", "messages",
       "A restarted process to the coordinator, naming the failure's victims; the coordinator answers with RECOVER "
       "(it may arrive before the failure notice)."},
      {"/stats/counters/ctrl.DONE", "messages",
       "Restart: a process to the coordinator once its re-execution owes no more sends; after the N DONE the "
       "restart is over and the next checkpoint period starts."},
      {"/run/params/reuse", "",
       "The value given with --param reuse (true/1/yes or false/0/no): true, a non-failed process reuses the data "
       "still in its memory instead of recomputing them at a restart (thesis 4.4.2). Absent when not given; default "
       "false."}},
     34}};

} // namespace
} // namespace ckptsim
