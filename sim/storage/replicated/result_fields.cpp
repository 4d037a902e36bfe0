/* The fields the "replicated" storage model writes (results.replicated_storage, replicated_results
 * in model.cpp), described for docs/RESULTS.md. */
#include "sim/config/result_fields.hpp"

namespace ckptsim {
namespace {

const ResultFieldsRegistration storage_replicated{
    {"storage-replicated",
     "Storage model replicated",
     {
         {"/results/replicated_storage/copies", "count",
          "DF, the remote copies of each save (the topology's storage/copies); the object is present when a "
          "cluster uses the replicated storage model"},
         {"/results/replicated_storage/depth", "count", "SD, the saves kept per node (the topology's storage/depth)"},
         {"/results/replicated_storage/mnf", "count",
          "MNF = (DF-1)*SD+1: the failures the scheme survives in a cluster (the paper's guarantee) when it has "
          "at least guarantee_nodes nodes"},
         {"/results/replicated_storage/guarantee_nodes", "count",
          "DF^SD + SD, the nodes a cluster needs for the MNF guarantee (saturated at 2^63-1 when DF^SD is larger)"},
         {"/results/replicated_storage/clusters[]/cluster", "",
          "the name of a cluster using the replicated model, one record per such cluster in cluster order"},
         {"/results/replicated_storage/clusters[]/nodes", "count",
          "N, its nodes (the copies of a save stay in the node's cluster)"},
         {"/results/replicated_storage/clusters[]/mnf_guaranteed", "",
          "true when N >= DF^SD + SD, the paper's condition for surviving MNF failures (as the paper states it: "
          "docs/MODEL.md says where it fails at its boundary)"},
     },
     21}};

} // namespace
} // namespace ckptsim
