/* The fields protocol hc3i writes in a results document (its stats, control messages, --param), for
 * docs/RESULTS.md. */
#include "sim/protocol/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration hc3i_fields{
    {"hc3i",
     "Protocol hc3i",
     {
         // Cluster-level checkpoints (CLCs), counted by each cluster's leader at the commit.
         {"/stats/per_cluster/hc3i.clc_initial", "checkpoints",
          "initial CLCs committed (SN 1, taken at the start before the application runs, and again after a "
          "rollback to the initial state), per cluster, in cluster order"},
         {"/stats/per_cluster/hc3i.clc_forced", "checkpoints",
          "forced CLCs committed, per cluster: started because a node asked (CLC_FORCE) on receiving an "
          "inter-cluster message whose SN exceeded the cluster's DDV entry for the sender's cluster"},
         {"/stats/per_cluster/hc3i.clc_unforced", "checkpoints",
          "unforced CLCs committed, per cluster: started by the leader's checkpoint_period timer (reset by every "
          "commit) with no DDV entry asked for by a forced-CLC request"},
         {"/stats/per_cluster/hc3i.clc_time", "s",
          "durations of the committed CLCs (all kinds) summed, per cluster: from the leader's CLC_REQ to the last "
          "CLC_ACK (the commit); aborted CLCs not counted"},
         {"/stats/per_cluster/hc3i.clc_aborted", "checkpoints",
          "CLCs under way that a failure in the cluster or a rollback aborted, per cluster, counted by the "
          "cluster's leader (not when the leader itself failed); other nodes add 0, so entries may be 0"},
         {"/stats/per_cluster/hc3i.clcs_stored", "checkpoints",
          "committed CLCs the cluster stores at the end of the run (the leader's list; every node holds the same), "
          "per cluster: what garbage collection and rollbacks left"},
         {"/stats/per_cluster/hc3i.clcs_stored_max", "checkpoints",
          "the most committed CLCs the cluster stored at once over the run (the leader's list), per cluster"},
         // The optimistic sender-side log of inter-cluster messages.
         {"/stats/per_cluster/hc3i.logged", "messages",
          "inter-cluster messages in the logs of the cluster's nodes at the end of the run, summed over its nodes, "
          "per cluster (a restarted node's lost log is not counted)"},
         {"/stats/per_cluster/hc3i.logged_max", "messages",
          "the most inter-cluster messages the cluster's logs held at once, summed over its nodes, per cluster"},
         {"/stats/per_cluster/hc3i.logged_node_max", "messages",
          "the most inter-cluster messages one node of the cluster held in its log at once, per cluster (the "
          "report's bound on logged messages is per node)"},
         {"/stats/per_cluster/hc3i.replays", "messages",
          "logged inter-cluster messages the cluster's nodes re-sent, per cluster: on an alert of the receiver's "
          "cluster (those acknowledged with an SN >= the alert's, or not at all), and a restarted node's whole log"},
         // Rollbacks and alerts.
         {"/stats/per_cluster/hc3i.rollbacks", "count",
          "rollbacks of the cluster to a CLC, one per cluster rollback (not per node), per cluster: on a failure "
          "in it (counted by its recovery leader) or on an alert its leader decided to roll back for"},
         {"/stats/per_cluster/hc3i.alerts_sent", "count",
          "times the cluster alerted the other clusters of its rollback (one ALERT to each other leader), per "
          "cluster: after a failure once its victims are back, or after a rollback an alert caused"},
         {"/stats/counters/hc3i.alerts_duplicate", "messages",
          "ALERT messages a leader dropped because it had handled or queued that rollback (cluster, epoch) "
          "already; summed over the leaders"},
         {"/stats/counters/hc3i.alerts_recovered", "count",
          "rollbacks a leader back from a failure learnt of from an ALERT_REPLY and had not heard of (alerts lost "
          "while it was down), then handled as alerts; summed over the leaders"},
         // Application messages dropped on receipt.
         {"/stats/counters/hc3i.stale_dropped", "messages",
          "intra-cluster application messages dropped on receipt because sent under an older epoch of the "
          "cluster (by an execution a rollback undid); summed over the nodes"},
         {"/stats/counters/hc3i.superseded_dropped", "messages",
          "inter-cluster messages dropped because sent to an execution of the receiver's cluster that a rollback "
          "undid, before the sender knew; not acknowledged, so re-sent on the alert; summed over the nodes"},
         {"/stats/counters/hc3i.orphans_dropped", "messages",
          "orphan inter-cluster messages dropped: the sender's cluster rolled back to before their send (their SN "
          ">= the alert's SN), so the send is undone; summed over the nodes"},
         {"/stats/counters/hc3i.duplicates_dropped", "messages",
          "inter-cluster messages received again after their delivery (a re-send, told by channel index): "
          "dropped and acknowledged again (LOG_ACK); summed over the nodes"},
         // Centralized garbage collection (GC), run by the leader of cluster 0.
         {"/stats/counters/hc3i.gc_rounds", "rounds",
          "GC rounds completed: the collector had every leader's CLC list, computed each cluster's worst SN and "
          "sent GC_COLLECT; one /stats/series/hc3i.gc record each"},
         {"/stats/counters/hc3i.gc_skipped", "rounds",
          "GC timer expiries (gc_period) that started no round: a round still under way, a failure not recovered, "
          "or a recovery or alerts holding the collector's cluster"},
         {"/stats/counters/hc3i.gc_aborted", "rounds",
          "GC rounds abandoned: a failure heard of during the round (by the collector or an answering leader), or "
          "a leader that had not processed every cluster's rollback yet; no hc3i.gc record"},
         {"/stats/counters/hc3i.gc_ignored", "count",
          "GC orders (GC_APPLY, or GC_COLLECT at a leader) a node ignored because it heard of a failure since the "
          "lists were gathered or its cluster rolled back since; summed over the nodes"},
         {"/stats/series/hc3i.gc[]/round", "",
          "the GC round's number on the collector, from 1 (abandoned rounds included)"},
         {"/stats/series/hc3i.gc[]/date", "s", "when the collector computed the worst SNs"},
         {"/stats/series/hc3i.gc[]/before", "checkpoints",
          "per cluster, in cluster order: committed CLCs stored before the collection"},
         {"/stats/series/hc3i.gc[]/after", "checkpoints",
          "per cluster, in cluster order: the CLCs the collection keeps (numbered >= the cluster's worst SN)"},
         {"/stats/series/hc3i.gc[]/worst_sn", "",
          "per cluster, in cluster order: the SN of the oldest CLC it could roll back to over a failure of any "
          "cluster; CLCs below it, and logged messages it acknowledged below it, are discarded"},
         // One record per cluster rollback.
         {"/stats/series/hc3i.rollbacks[]/failure", "",
          "the failure the rollback answers: its number for a failure in the cluster; for an alert, the newest "
          "failure the leader had heard of"},
         {"/stats/series/hc3i.rollbacks[]/date", "s",
          "when the recovery leader ordered the rollback, or the leader decided it"},
         {"/stats/series/hc3i.rollbacks[]/cluster", "", "the number of the cluster rolling back"},
         {"/stats/series/hc3i.rollbacks[]/to_sn", "", "the SN of the CLC restored (0: the initial state)"},
         {"/stats/series/hc3i.rollbacks[]/cause", "",
          "failure (a failure in the cluster) or alert (another cluster's)"},
         {"/stats/series/hc3i.rollbacks[]/from", "", "alert only: the number of the cluster whose alert caused it"},
         // Control messages, counted by the engine at each send (one per destination).
         {"/stats/counters/ctrl.CLC_REQ", "messages",
          "a leader to the other nodes of its cluster, starting a CLC (number, epoch, DDV): each stops its "
          "application and answers CLC_READY"},
         {"/stats/counters/ctrl.CLC_READY", "messages",
          "a node to its leader on CLC_REQ: it has stopped, with how many intra-cluster messages it sent to each "
          "peer (so that none is in transit across the CLC)"},
         {"/stats/counters/ctrl.CLC_SAVE", "messages",
          "the leader to each other node once all are ready: how many intra-cluster messages to have received "
          "from each peer before saving its CLC state"},
         {"/stats/counters/ctrl.CLC_ACK", "messages",
          "a node to its leader: its part of the CLC is saved (its memory and the storage's copy)"},
         {"/stats/counters/ctrl.CLC_COMMIT", "messages",
          "the leader to the other nodes after every CLC_ACK: the CLC is committed (forced or not); they resume "
          "and deliver the inter-cluster messages queued meanwhile"},
         {"/stats/counters/ctrl.CLC_FORCE", "messages",
          "a node to its leader: an inter-cluster message carries an SN above the cluster's DDV entry, so a "
          "forced CLC must come before its delivery (transitive: with the message's DDV); once per (cluster, SN)"},
         {"/stats/counters/ctrl.LOG_ACK", "messages",
          "the receiver of an inter-cluster message to its sender, at delivery or on a duplicate: the receiver "
          "cluster's SN and epoch, kept in the sender's log entry (optimistic logging)"},
         {"/stats/counters/ctrl.ROLLBACK", "messages",
          "a cluster's recovery leader to its surviving nodes after a failure there: back to the last committed "
          "CLC; and to each restarted node on RESTARTED, with the cluster's CLC list and rollbacks"},
         {"/stats/counters/ctrl.RESTARTED", "messages",
          "a restarted node to its cluster's recovery leader (the leader, or the lowest surviving node): it is "
          "back and waits for its ROLLBACK order"},
         {"/stats/counters/ctrl.ALERT", "messages",
          "a cluster f that rolled back, to every other cluster's leader: the alert (f, s), the messages f sent "
          "with an SN >= s are undone; from its recovery leader, or its leader after an alert's rollback"},
         {"/stats/counters/ctrl.ALERT_BCAST", "messages",
          "a leader to the other nodes of its cluster, for each alert it handles: the alert and its decision "
          "(the CLC to roll back to, or none); each then re-sends its logged messages to f"},
         {"/stats/counters/ctrl.ALERT_QUERY", "messages",
          "a leader back from a failure to every other cluster's leader (again if that leader was down): asks for "
          "that cluster's rollbacks after the epoch it knows (alerts it may have lost)"},
         {"/stats/counters/ctrl.ALERT_REPLY", "messages",
          "a leader's answer to ALERT_QUERY, once its cluster is not recovering: its rollbacks (epoch, SN) after "
          "the epoch asked about; those unheard of are handled as alerts"},
         {"/stats/counters/ctrl.GC_REQ", "messages",
          "the garbage collector (leader of cluster 0) to every other leader at the start of a GC round (every "
          "gc_period): asks for its list of committed CLCs"},
         {"/stats/counters/ctrl.GC_RESP", "messages",
          "a leader's answer to GC_REQ: its committed CLCs with their DDVs, its epoch, the epochs it knows of the "
          "other clusters and the newest failure it heard of"},
         {"/stats/counters/ctrl.GC_COLLECT", "messages",
          "the collector to every other leader at the end of a round: each cluster's worst SN and the epochs the "
          "round saw"},
         {"/stats/counters/ctrl.GC_APPLY", "messages",
          "a leader to the other nodes of its cluster on GC_COLLECT (the collector's own too): discard the CLCs "
          "below the cluster's worst SN and the logged messages no rollback can need"},
         // The protocol's --param.
         {"/run/params/transitive", "",
          "the value given with --param transitive (true/false, 1/0, yes/no), absent when not given; default "
          "false; true: inter-cluster messages piggyback the whole DDV instead of the SN (report section 7)"},
     },
     31}};

} // namespace
} // namespace ckptsim
