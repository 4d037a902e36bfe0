/* The "replicated" storage model (Bondarenko-Iakobovski, the scheme in scheme.hpp): save k of the
 * node of index i in a cluster goes to DF other nodes of the same cluster given by the receiver
 * formula, and the last SD saves are kept. DF and SD have no default (they set how many failures
 * a run survives): both are required where the model is used, and meaningless elsewhere. A
 * placement that would put a copy on the node itself or two copies on one node is refused once
 * the cluster sizes are known; the results say, per cluster, whether the paper's MNF guarantee
 * holds. */
#include "sim/storage/model.hpp"
#include "sim/storage/replicated/scheme.hpp"

#include <fmt/format.h>

namespace ckptsim {

namespace {
constexpr const char* kReplicatedModel = "replicated";

// DF and SD as the topology gives them (0: not given).
replicated::Scheme given_scheme(const StorageSpec& spec) {
  auto it = spec.settings.find(kReplicatedModel);
  return it == spec.settings.end() ? replicated::Scheme{0, 0} : std::any_cast<replicated::Scheme>(it->second);
}

void read_replicated(ObjectReader& r, StorageSpec& spec) {
  replicated::Scheme s{0, 0};
  if (auto* v = r.optional("copies")) s.copies = static_cast<int>(as_integer(*v, r.where("copies"), 1, 1'000'000));
  if (auto* v = r.optional("depth")) s.depth = static_cast<int>(as_integer(*v, r.where("depth"), 1, 64));
  spec.settings[kReplicatedModel] = s;
}

void check_replicated(const StorageSpec& spec, bool used, const Where& at) {
  const replicated::Scheme s = given_scheme(spec);
  for (const std::string key : {"copies", "depth"}) {
    const bool given = (key == "copies" ? s.copies : s.depth) != 0;
    if (used && !given)
      (at / "storage" / key)
          .fail(fmt::format("missing required field \"{}\" ({}) for the \"replicated\" storage model", key,
                            key == "copies" ? "DF, remote copies of each save" : "SD, saves kept"));
    if (!used && given) (at / "storage" / key).fail("only meaningful with the \"replicated\" storage model");
  }
}

// The check that the receiver formula gives DF distinct other nodes in the cluster.
void check_replicated_cluster(ClusterId cluster, const StorageContext& context) {
  const ClusterLayout& cl = context.layout.cluster(cluster);
  if (auto problem = replicated::placement_problem(given_scheme(context.topology.storage), cl.size))
    throw InputError(
        context.topology.source, "/storage/copies",
        fmt::format("cluster {}: {}; choose fewer copies, a smaller depth or more nodes", cl.name, *problem));
}

// N and i are the cluster's: copies travel on its SAN, like buddy's.
std::vector<Holder> replicated_holders(NodeId node, std::uint64_t number, const StorageContext& context) {
  const ClusterLayout& c = context.layout.cluster(context.layout.cluster_of(node));
  std::vector<Holder> out;
  for (int r : replicated::receivers(node - c.first, number, given_scheme(context.topology.storage), c.size))
    out.push_back(c.first + r);
  return out;
}

nlohmann::ordered_json replicated_results(const std::vector<ClusterId>& clusters, const StorageContext& context) {
  const replicated::Scheme scheme = given_scheme(context.topology.storage);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (ClusterId c : clusters) {
    const ClusterLayout& cl = context.layout.cluster(c);
    list.push_back(
        {{"cluster", cl.name}, {"nodes", cl.size}, {"mnf_guaranteed", replicated::guarantee_holds(scheme, cl.size)}});
  }
  // The paper's condition N >= DF^SD + SD, per cluster, as the paper states it (docs/MODEL.md:
  // it fails at its boundary for some DF and SD >= 3, e.g. DF 2 SD 3 N 11).
  return {{"copies", scheme.copies},
          {"depth", scheme.depth},
          {"mnf", replicated::mnf(scheme)},
          {"guarantee_nodes", replicated::guarantee_nodes(scheme)},
          {"clusters", list}};
}

const StorageModelRegistration replicated_model{{
    .name = kReplicatedModel,
    .description = "Bondarenko-Iakobovski: save k of node i on DF nodes of its cluster given by a formula of i, j "
                   "and k mod SD; the last SD saves kept; survives MNF = (DF-1)*SD+1 failures when N >= DF^SD + SD",
    .rank = 2,
    .fields = {{"copies", "DF, remote copies of each save (integer >= 1); required with the model, no default"},
               {"depth", "SD, saves kept per node (integer 1..64); required with the model, no default"}},
    .read = read_replicated,
    .check = check_replicated,
    .check_cluster = check_replicated_cluster,
    .holders = replicated_holders,
    .depth = [](const StorageSpec& spec) { return given_scheme(spec).depth; },
    .results_key = "replicated_storage",
    .results = replicated_results,
}};
} // namespace

} // namespace ckptsim
