/* The fields of results.network (LinkFaults::results in link_faults.cpp, completed in
 * run_results.cpp) and the network.* counters of link faults (link_faults.cpp, wire_service.cpp,
 * checkpoint_transfers.cpp, run_suspicions.cpp), described for docs/RESULTS.md. */
#include "sim/config/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration network_faults{
    {"network",
     "Network faults",
     {
         {"/results/network/link_failures", "count",
          "times a link went down, summed over the links (a split-duplex link's two directions are one link); "
          "results.network is absent when the inputs name no link failure and no link went down"},
         {"/results/network/links", "",
          "the links that went down, by name, each with the two fields below; {} when none did"},
         {"/results/network/links/<LINK>/outages", "count",
          "times this link went down; only links that went down at least once are listed"},
         {"/results/network/links/<LINK>/down_seconds", "s",
          "the time this link was down, summed over its outages (one still under way counts until the run's end)"},
         {"/results/network/clusters_cut_off", "",
          "the pairs of clusters whose route was cut, one record each (the fields below); [] when none was"},
         {"/results/network/clusters_cut_off[]/clusters", "",
          "the names of a pair of clusters whose route (between their first nodes, either way: the WAN links and "
          "those nodes' own links) was cut at least once; one record per such pair"},
         {"/results/network/clusters_cut_off[]/cuts", "count", "times that route went from up to cut"},
         {"/results/network/clusters_cut_off[]/seconds", "s",
          "the time that route was cut, summed over its cuts (one still under way counts until the run's end)"},
         {"/results/network/messages_delayed", "messages",
          "messages (application and control) that waited for a route, at their send or after a cut, and left "
          "once it was back (network.messages_delayed)"},
         {"/results/network/message_delay_total", "s",
          "the waits of those messages, from the send or the cut to their new start, summed over the messages "
          "(the mean wait: this / messages_delayed)"},
         {"/results/network/transfers_resent", "messages",
          "message transfers a link failure cut while both ends ran, held and resumed (what they had not sent "
          "leaves again)"},
         {"/results/network/checkpoint_transfers_held", "count",
          "times a checkpoint transfer (a save's copy, a load, a re-created copy) found its route down when "
          "started and waited; one that finds it down again after a repair counts again"},
         {"/results/network/suspicions", "count",
          "with heartbeat detection only: suspicion events (the nodes suspected at one date are one), each "
          "fencing nodes cut off from the monitor as a failure"},
         {"/results/network/nodes_suspected", "count",
          "with heartbeat detection only: nodes suspected and fenced, summed over the suspicions"},
         {"/stats/counters/network.link_failures", "count",
          "as /results/network/link_failures; absent when no link went down"},
         {"/stats/counters/network.messages_delayed", "messages",
          "as /results/network/messages_delayed; absent when none"},
         {"/stats/counters/network.message_delay", "s", "as /results/network/message_delay_total; absent when none"},
         {"/stats/counters/network.transfers_resent", "messages",
          "as /results/network/transfers_resent; absent when none"},
         {"/stats/counters/network.checkpoint_transfers_held", "count",
          "as /results/network/checkpoint_transfers_held; absent when none"},
         {"/stats/counters/network.suspicions", "count", "as /results/network/suspicions; absent when none"},
         {"/stats/counters/network.nodes_suspected", "count", "as /results/network/nodes_suspected; absent when none"},
     },
     16}};

} // namespace
} // namespace ckptsim
