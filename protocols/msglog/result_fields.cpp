/* What each results-document field msglog writes means (stats, control messages, --param), for docs/RESULTS.md */
#include "sim/protocol/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration msglog_fields{
    {"msglog",
     "Protocol msglog",
     {
         {"/run/params/variant", "",
          "the msglog variant given with --param variant: pessimistic (sends wait until the determinants they depend "
          "on are stable), causal (unstable determinants piggybacked on messages) or optimistic (asynchronous "
          "logging, orphans roll back); absent when not given: pessimistic"},
         {"/run/params/keep", "",
          "optimistic: the checkpoints each process keeps in memory for orphan rollbacks, the initial state "
          "included, as given with --param keep (an integer from 2 to 100); absent when not given: 3"},
         {"/stats/counters/msglog.sends", "messages",
          "application sends, summed over the processes, counted when the application sends (a held send once; a "
          "re-execution's sends count again; re-sends from a sender log are not counted)"},
         {"/stats/counters/msglog.held", "messages",
          "pessimistic: sends held back because a delivery they depend on had no stable determinant at the event "
          "logger yet (or an earlier send was held), summed over the processes"},
         {"/stats/counters/msglog.hold_time", "s",
          "pessimistic: the time the held sends waited for their determinants to become stable, summed over the held "
          "sends (counted when each is released); divided by msglog.held, the mean wait of a held send"},
         {"/stats/counters/msglog.hold_max", "s",
          "pessimistic: the longest time one held send waited for its determinants to become stable, over the run "
          "and the processes"},
         {"/stats/counters/msglog.piggyback_dets", "determinants",
          "causal: determinants not known to be stable (the sender's own and its copies of others') piggybacked on "
          "application messages, summed over the sends (re-sends not counted)"},
         {"/stats/counters/msglog.piggyback_bytes", "bytes",
          "causal: bytes of the piggybacks of application messages (channel index, epoch, rsn and stable rsn: 32 "
          "bytes, plus 24 per determinant), summed over the sends (re-sends not counted)"},
         {"/stats/counters/msglog.det_messages", "messages",
          "DET messages the processes sent to the event logger (each a batch of determinants, one outstanding per "
          "process at a time), summed over the processes: equal to ctrl.DET"},
         {"/stats/counters/msglog.determinants", "determinants",
          "determinants (source, channel index, rsn of a delivery) sent to the event logger in DET messages, summed "
          "over the processes; one sent again (e.g. optimistic, after an orphan rollback) counts again"},
         {"/stats/counters/msglog.det_bytes", "bytes",
          "bytes of the DET messages (16-byte header plus 24 bytes per determinant), summed over the DET messages"},
         {"/stats/counters/msglog.dets_collected", "determinants",
          "determinants the event logger dropped on a CKPT_DONE because the new checkpoint of their process contains "
          "those deliveries (its garbage collection), summed over the processes"},
         {"/stats/counters/msglog.dets_held", "determinants",
          "determinants the event logger holds at the end of the run, summed over the processes they belong to"},
         {"/stats/counters/msglog.dets_held_max", "determinants",
          "the peak of msglog.dets_held over the run: the most determinants the event logger held at once, all "
          "processes together"},
         {"/stats/counters/msglog.dets_held_node_max", "determinants",
          "the most determinants the event logger held at once for one process, over the run and the processes"},
         {"/stats/counters/msglog.det_copies", "determinants",
          "causal: the copies of other processes' determinants (received piggybacked, not known to be stable) the "
          "processes hold at the end of the run, summed over the processes; 0 in the other variants (written when a "
          "process restarts)"},
         {"/stats/counters/msglog.det_copies_max", "determinants",
          "causal: the peak of msglog.det_copies over the run, all processes together (0 in the other variants)"},
         {"/stats/counters/msglog.det_copies_node_max", "determinants",
          "causal: the most determinant copies one process held at once, over the run and the processes (0 in the "
          "other variants)"},
         {"/stats/counters/msglog.checkpoints", "checkpoints",
          "checkpoints committed (the event logger acknowledged their CKPT_DONE), summed over the processes"},
         {"/stats/counters/msglog.checkpoints_skipped", "checkpoints",
          "checkpoint timer expiries that took no checkpoint: the process was recovering, restoring or paying its "
          "restart overhead, its previous checkpoint was not committed yet, or the application had finished; summed "
          "over the processes"},
         {"/stats/counters/msglog.log_gc_dropped", "messages",
          "sender-log entries dropped on a LOG_GC (the receiver's committed checkpoint delivered them; optimistic: "
          "its oldest kept checkpoint), summed over the senders"},
         {"/stats/counters/msglog.resent", "messages",
          "logged messages re-sent from a sender log in answer to a RESEND_REQ (those the recovering requester had "
          "not delivered), summed over the processes and the recoveries"},
         {"/stats/counters/msglog.resent_lost_in_transfer", "messages",
          "messages a restarted victim re-sent from its restored log to a peer (not a fellow victim) on that peer's "
          "CATCHUP: those the peer had not delivered (lost in transfer when the victim died, or duplicates the peer "
          "drops), summed over the recoveries"},
         {"/stats/counters/msglog.duplicates", "messages",
          "application messages a process dropped on arrival as duplicates (their channel index delivered already, "
          "or a copy already waiting): re-sends after a recovery; summed over the processes"},
         {"/stats/counters/msglog.stale", "messages",
          "application messages dropped as stale: sent by an incarnation that failed since (optimistic: in an "
          "interval an announced rollback undid, on arrival or waiting when its ROLLBACK_NOTICE came); summed over "
          "the processes"},
         {"/stats/counters/msglog.replayed", "messages",
          "deliveries a recovering process made again in the order of its logged determinants (the replay), summed "
          "over the processes and the recoveries (optimistic: orphans' replays included)"},
         {"/stats/counters/msglog.replay_from_peers", "determinants",
          "causal: determinants of a restarted process' replay that only the peers' copies (CATCHUP) had, not the "
          "event logger, summed over the recoveries (0 in the other variants)"},
         {"/stats/counters/msglog.orphan_rollbacks", "count",
          "optimistic: orphan rollbacks, summed over the processes: a process that delivered a message sent in an "
          "interval a ROLLBACK_NOTICE undid goes back (to a kept checkpoint, or replays less) and announces its own "
          "rollback"},
         {"/stats/series/msglog.recoveries[]/failure", "",
          "the failure recovered from (its id in /stats/series/failures)"},
         {"/stats/series/msglog.recoveries[]/victim", "",
          "the failed process (node id) this record is about: one record per victim, written when its recovery ends"},
         {"/stats/series/msglog.recoveries[]/rolled_back", "count",
          "processes this record counts as rolled back: always 1, the victim alone (optimistic: orphans are counted "
          "in msglog.orphan_rollbacks)"},
         {"/stats/series/msglog.recoveries[]/checkpoint", "",
          "the victim's committed checkpoint when its recovery ended: the one it restarted from (0: the initial "
          "state)"},
         {"/stats/series/msglog.recoveries[]/replayed", "messages",
          "deliveries the victim replayed in the logged order during this recovery (optimistic: since its last "
          "orphan rollback)"},
         {"/stats/series/msglog.recoveries[]/resent", "messages",
          "messages the peers re-sent from their sender logs for the victim, as their CATCHUP answers said "
          "(optimistic: in the last round)"},
         {"/stats/series/msglog.recoveries[]/duration", "s",
          "from the failure to the end of the victim's recovery: checkpoint restored, replay over, and its "
          "re-execution has sent again every message a peer had delivered from it"},
         {"/stats/counters/ctrl.DET", "messages",
          "process to event logger: a batch of determinants (source, channel index, rsn) of its deliveries not sent "
          "yet; one outstanding per process at a time"},
         {"/stats/counters/ctrl.DET_ACK", "messages",
          "event logger to process, answering a DET: the highest rsn up to which all its determinants are stable "
          "(pessimistic: releases the held sends)"},
         {"/stats/counters/ctrl.CKPT_DONE", "messages",
          "process to event logger once its checkpoint is written: its number and rsn; the logger drops the "
          "determinants the checkpoint contains"},
         {"/stats/counters/ctrl.CKPT_ACK", "messages",
          "event logger to process, answering a CKPT_DONE: the checkpoint is committed (the previous one is "
          "discarded and LOG_GC goes to the senders)"},
         {"/stats/counters/ctrl.LOG_GC", "messages",
          "process to a sender, after a commit: the channel indices its checkpoint delivered (optimistic: its oldest "
          "kept one), which the sender drops from its log; sent when that set grew"},
         {"/stats/counters/ctrl.REPLAY_REQ", "messages",
          "restarted process to event logger: asks for its last checkpoint and the determinants after it"},
         {"/stats/counters/ctrl.REPLAY", "messages",
          "event logger to restarted process: its checkpoint number and rsn, its stable determinants (optimistic: "
          "and the rollbacks announced so far)"},
         {"/stats/counters/ctrl.RESEND_REQ", "messages",
          "recovering process (restarted victim; optimistic: orphan after its rollback) to every other process: the "
          "channel indices it delivered from it; the peer re-sends the rest of its log"},
         {"/stats/counters/ctrl.CATCHUP", "messages",
          "answer to a RESEND_REQ: what the peer delivered from the requester (its re-execution must send it again) "
          "and how many it re-sent; causal: its copies of the requester's determinants"},
         {"/stats/counters/ctrl.ROLLBACK_NOTICE", "messages",
          "optimistic: a restarted victim (to every other process) or an orphan that rolled back (also to the event "
          "logger) announces that its deliveries after a target rsn are undone; those that depend on them become "
          "orphans"},
     },
     33}};

} // namespace
} // namespace ckptsim
