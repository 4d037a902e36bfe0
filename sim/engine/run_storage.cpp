/* The engine's side of the replicated storage model (Bondarenko-Iakobovski): the check that the
 * receiver formula gives DF distinct other nodes in every cluster using it, the recovery line a
 * global restart asks for (RLFFN over the store), and what the results say about the model. */
#include "sim/engine/run.hpp"
#include "sim/storage/recovery_line.hpp"

#include <fmt/format.h>

namespace ckptsim {

void Run::check_replicated_placement() const {
  const replicated::Scheme scheme{topology_.storage.copies, topology_.storage.depth};
  for (ClusterId c = 0; c < platform_.layout.num_clusters(); c++) {
    const ClusterLayout& cl = platform_.layout.cluster(c);
    if (cl.size == 0 || storage_model(cl.first) != "replicated") continue;
    if (auto problem = replicated::placement_problem(scheme, cl.size))
      throw InputError(
          topology_.source, "/storage/copies",
          fmt::format("cluster {}: {}; choose fewer copies, a smaller depth or more nodes", cl.name, *problem));
  }
}

std::optional<std::uint64_t> Run::recovery_line(NodeId asker, const std::vector<std::uint64_t>& numbers) {
  const LineSearch s = search_recovery_line(store_, num_nodes(), numbers);
  std::set<NodeId> failed_ids;
  for (const auto& [id, rec] : recoveries_)
    if (!rec.done) failed_ids.insert(rec.victim);
  nlohmann::ordered_json failed = nlohmann::ordered_json::array();
  for (NodeId n : failed_ids) failed.push_back(platform_.layout.host_name(n));
  std::vector<std::uint64_t> searched(s.skipped);
  if (s.line) searched.push_back(*s.line);
  nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
  std::vector<std::string> details;
  for (std::size_t i = 0; i < s.skipped.size(); i++) {
    const NodeId lost = s.lost_at[i];
    std::vector<std::string> were{platform_.layout.host_name(lost)};
    for (Holder h : remote_holders(lost, s.skipped[i])) were.push_back(holder_name(h));
    skipped.push_back({{"number", s.skipped[i]}, {"lost", platform_.layout.host_name(lost)}});
    details.push_back(fmt::format("no copy of checkpoint {} of {} survives (its copies were on {})", s.skipped[i],
                                  platform_.layout.host_name(lost), fmt::join(were, ", ")));
  }
  const double now = sg4::Engine::get_clock();
  trace_.emit(0, now, "recovery_line",
              {{"node", asker},
               {"line", s.line ? nlohmann::ordered_json(*s.line) : nlohmann::ordered_json(nullptr)},
               {"skipped", skipped},
               {"failed", failed}});
  stats_.add("storage.recovery_lines");
  if (!s.skipped.empty() && s.line) stats_.add("storage.recovery_lines_older");
  if (!s.line)
    end_unrecoverable(fmt::format("{}; checkpoints searched: {}; failed nodes: {}", fmt::join(details, "; "),
                                  fmt::join(searched, ", "), fmt::join(failed, ", ")),
                      {{"searched", searched}, {"failed", failed}, {"skipped", skipped}});
  return s.line;
}

nlohmann::ordered_json Run::replicated_results() const {
  const replicated::Scheme scheme{topology_.storage.copies, topology_.storage.depth};
  nlohmann::ordered_json clusters = nlohmann::ordered_json::array();
  for (ClusterId c = 0; c < platform_.layout.num_clusters(); c++) {
    const ClusterLayout& cl = platform_.layout.cluster(c);
    if (cl.size == 0 || storage_model(cl.first) != "replicated") continue;
    clusters.push_back(
        {{"cluster", cl.name}, {"nodes", cl.size}, {"mnf_guaranteed", replicated::guarantee_holds(scheme, cl.size)}});
  }
  if (clusters.empty()) return nullptr;
  // The paper's condition N >= DF^SD + SD, per cluster, as the paper states it (docs/MODEL.md:
  // it fails at its boundary for some DF and SD >= 3, e.g. DF 2 SD 3 N 11).
  return {{"copies", scheme.copies},
          {"depth", scheme.depth},
          {"mnf", replicated::mnf(scheme)},
          {"guarantee_nodes", replicated::guarantee_nodes(scheme)},
          {"clusters", clusters}};
}

} // namespace ckptsim
