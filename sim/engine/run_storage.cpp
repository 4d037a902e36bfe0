/* The engine's side of stable storage: what the storage models (sim/storage/model.hpp) see of the
 * run, their checks once the platform exists, what they add to the results, and the recovery line
 * a global restart asks for (the newest line every node can still load, over the store). */
#include "sim/engine/run.hpp"
#include "sim/storage/recovery_line.hpp"

#include <fmt/format.h>

namespace ckptsim {

StorageContext Run::storage_context() const {
  return {inputs_.topology, platform_.layout, static_cast<int>(platform_.servers.size())};
}

void Run::check_storage() const {
  for (NodeId n = 0; n < num_nodes(); n++) {
    const StorageModelInfo& model = storage_model(n);
    if (model.needs_servers && platform_.servers.empty())
      throw InputError(inputs_.topology.source, "/storage",
                       fmt::format("the \"{}\" storage model needs checkpoint servers: a zone named \"storage\" in "
                                   "the platform XML",
                                   model.name));
  }
  const StorageContext context = storage_context();
  for (ClusterId c = 0; c < platform_.layout.num_clusters(); c++) {
    const ClusterLayout& cl = platform_.layout.cluster(c);
    if (cl.size == 0) continue;
    const StorageModelInfo& model = storage_model(cl.first);
    if (model.check_cluster) model.check_cluster(c, context);
  }
}

void Run::add_storage_results(nlohmann::ordered_json& results) const {
  const StorageContext context = storage_context();
  for (const StorageModelInfo& model : StorageModelRegistry::instance().all()) {
    if (!model.results) continue;
    std::vector<ClusterId> clusters;
    for (ClusterId c = 0; c < platform_.layout.num_clusters(); c++) {
      const ClusterLayout& cl = platform_.layout.cluster(c);
      if (cl.size > 0 && &storage_model(cl.first) == &model) clusters.push_back(c);
    }
    if (!clusters.empty()) results[model.results_key] = model.results(clusters, context);
  }
}

std::optional<std::uint64_t> Run::recovery_line(NodeId asker, const std::vector<std::uint64_t>& numbers) {
  const LineSearch s = search_recovery_line(store_, num_nodes(), numbers);
  std::set<NodeId> failed_ids;
  for (const auto& [id, rec] : failures_.recoveries)
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
  observe_.trace.emit(0, now, "recovery_line",
                      {{"node", asker},
                       {"line", s.line ? nlohmann::ordered_json(*s.line) : nlohmann::ordered_json(nullptr)},
                       {"skipped", skipped},
                       {"failed", failed}});
  observe_.stats.add("storage.recovery_lines");
  if (!s.skipped.empty() && s.line) observe_.stats.add("storage.recovery_lines_older");
  if (!s.line)
    end_unrecoverable(fmt::format("{}; checkpoints searched: {}; failed nodes: {}", fmt::join(details, "; "),
                                  fmt::join(searched, ", "), fmt::join(failed, ", ")),
                      {{"searched", searched}, {"failed", failed}, {"skipped", skipped}});
  return s.line;
}

} // namespace ckptsim
