/* The fields protocol coordinated writes in a results document (its stats, control messages, --param), for
 * docs/RESULTS.md. */
#include "sim/protocol/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration coordinated_fields{
    {"coordinated",
     "Protocol coordinated",
     {
         // Checkpoint waves, counted by the coordinator.
         {"/stats/counters/coordinated.waves_started", "checkpoints",
          "checkpoint waves the coordinator started (INIT sent to every process): committed, aborted, or under "
          "way when the run ended"},
         {"/stats/counters/coordinated.waves_committed", "checkpoints",
          "waves committed: every process's ACK in, CONT sent; one /stats/series/coordinated.waves record each"},
         {"/stats/counters/coordinated.waves_aborted", "checkpoints",
          "waves under way when the coordinator heard of a failure (notice or RESTARTED): abandoned, the last "
          "committed wave is the recovery line"},
         {"/stats/counters/coordinated.waves_periodic", "checkpoints",
          "with --param trigger both only: waves the checkpoint_period timer started (with trigger periodic, the "
          "default, every wave is and this is not written)"},
         {"/stats/counters/coordinated.waves_collective", "checkpoints",
          "with --param trigger collective or both: waves started at a collective, on process 0's CKPT_REQUEST"},
         {"/stats/counters/coordinated.periodic_skipped", "count",
          "checkpoint_period timer expiries that started no wave: a wave was under way, or a wave taken at a "
          "collective since moved the next periodic date (the LAM/MPI rule, trigger both)"},
         {"/stats/counters/coordinated.requests_declined", "count",
          "CKPT_REQUESTs answered with no wave: a wave or a recovery under way, a request of an undone execution, "
          "or less than checkpoint_period since the last committed wave began"},
         {"/stats/counters/coordinated.checkpoint_time", "s",
          "durations of the committed waves summed, from the INIT to the last ACK (aborted waves not counted); "
          "the mean is this divided by coordinated.waves_committed"},
         {"/stats/counters/coordinated.stale_dropped", "messages",
          "application messages a process dropped on receipt because an execution that a global rollback undid "
          "sent them (an older failure epoch); summed over the processes"},
         // One record per committed wave.
         {"/stats/series/coordinated.waves[]/wave", "",
          "the wave's number; numbered along the execution line: the wave after a rollback to wave w is w + 1"},
         {"/stats/series/coordinated.waves[]/start", "s", "when the coordinator sent INIT"},
         {"/stats/series/coordinated.waves[]/commit", "s", "when the last ACK came in and CONT went out"},
         {"/stats/series/coordinated.waves[]/duration", "s", "commit - start"},
         // Control messages, counted by the engine at each send (one per destination).
         {"/stats/counters/ctrl.INIT", "messages",
          "the coordinator to every process, starting a wave: stop computing and flush the channels; N per wave"},
         {"/stats/counters/ctrl.FLUSH", "messages",
          "each process to every process, itself included, on INIT: no message sent before the wave is in "
          "transit behind it on that FIFO channel; N x N per wave"},
         {"/stats/counters/ctrl.ACK", "messages",
          "a process to the coordinator once it has every FLUSH and saved its checkpoint of the wave; N per wave"},
         {"/stats/counters/ctrl.CONT", "messages",
          "the coordinator to every process after the N ACKs: the wave is committed, go on; N per wave"},
         {"/stats/counters/ctrl.ROLLBACK", "messages",
          "the coordinator to every process not down after a failure, and to each restarted process on its "
          "RESTARTED: roll back to the newest committed wave every process can still load (0: the initial state)"},
         {"/stats/counters/ctrl.RESTARTED", "messages",
          "a restarted process to the coordinator, naming every victim of its failure: it is back and waits for "
          "its ROLLBACK"},
         {"/stats/counters/ctrl.CKPT_REQUEST", "messages",
          "process 0, the root of the application's collectives, to the coordinator at each collective it reaches "
          "(--param trigger collective or both): asks for a wave, and waits for the answer"},
         {"/stats/counters/ctrl.CKPT_DECISION", "messages",
          "the coordinator's answer to a CKPT_REQUEST, after the INIT when a wave started or at once when "
          "declined: process 0 goes on"},
         // The protocol's --param.
         {"/run/params/trigger", "",
          "the value given with --param trigger, absent when not given: periodic (default: a wave every "
          "checkpoint_period), collective (at process 0's collectives) or both (the LAM/MPI paper's rule)"},
     },
     30}};

} // namespace
} // namespace ckptsim
