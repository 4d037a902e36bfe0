#include "sim/engine/storage_service.hpp"
#include "sim/storage/recovery_line.hpp"

#include <fmt/format.h>
#include <set>

namespace ckptsim {

const StorageModelInfo& StorageService::model(NodeId node) const {
  return storage_model_of(parts_.topology, parts_.platform.layout.cluster_of(node), default_model_);
}

std::vector<Holder> StorageService::remote_holders(NodeId node, std::uint64_t number) const {
  const StorageModelInfo& info = model(node);
  return info.holders(node, number, context(&info));
}

sg4::Host* StorageService::holder_host(Holder h) const {
  return is_server(h) ? parts_.platform.servers[server_index(h)] : parts_.wire.host_of(h);
}

std::string StorageService::holder_name(Holder h) const { return holder_host(h)->get_name(); }

void StorageService::unrecoverable(NodeId node, std::uint64_t number) {
  unrecoverable_(fmt::format("no copy of checkpoint {} of {} survives", number, parts_.platform.layout.host_name(node)),
                 {{"node", node}, {"checkpoint", number}});
}

StorageContext StorageService::context(const StorageModelInfo* info) const {
  auto it = states_.find(info);
  return {parts_.topology, parts_.platform.layout, static_cast<int>(parts_.platform.servers.size()),
          &store_,         &parts_.observe.stats,  it == states_.end() ? nullptr : &it->second};
}

SavePlan StorageService::save_plan(NodeId node, std::uint64_t number, double bytes) const {
  const StorageModelInfo& info = model(node);
  return info.save_plan(node, number, bytes, context(&info));
}

std::optional<LoadPlan> StorageService::load_plan(NodeId node, std::uint64_t number) const {
  const StorageModelInfo& info = model(node);
  return info.load_plan(node, number, context(&info));
}

void StorageService::check_protocol(StorageUse use, const std::string& protocol) {
  use_ = use;
  std::set<const StorageModelInfo*> checked;
  for (ClusterId c = 0; c < parts_.platform.layout.num_clusters(); c++) {
    const ClusterLayout& cl = parts_.platform.layout.cluster(c);
    if (cl.size == 0) continue;
    const StorageModelInfo& info = model(cl.first);
    if (info.check_protocol && checked.insert(&info).second)
      info.check_protocol(parts_.topology.storage, use, protocol, Where(parts_.topology.source, "/storage"));
  }
}

void StorageService::check(std::string default_model) {
  default_model_ = std::move(default_model);
  for (NodeId n = 0; n < parts_.platform.layout.num_nodes(); n++) {
    const StorageModelInfo& info = model(n);
    if (info.needs_servers && parts_.platform.servers.empty())
      throw InputError(parts_.topology.source, "/storage",
                       fmt::format("the \"{}\" storage model needs checkpoint servers: a zone named \"storage\" in "
                                   "the platform XML",
                                   info.name));
  }
  const StorageContext ctx = context();
  for (ClusterId c = 0; c < parts_.platform.layout.num_clusters(); c++) {
    const ClusterLayout& cl = parts_.platform.layout.cluster(c);
    if (cl.size == 0) continue;
    const StorageModelInfo& info = model(cl.first);
    if (info.check_cluster) info.check_cluster(c, ctx);
  }
  states_.clear();
  for (const StorageModelInfo& info : StorageModelRegistry::instance().all()) {
    if (!info.prepare) continue;
    std::vector<bool> uses(static_cast<std::size_t>(parts_.platform.layout.num_clusters()), false);
    bool used = false;
    for (ClusterId c = 0; c < parts_.platform.layout.num_clusters(); c++) {
      const ClusterLayout& cl = parts_.platform.layout.cluster(c);
      if (cl.size > 0 && &model(cl.first) == &info) uses[static_cast<std::size_t>(c)] = used = true;
    }
    if (used) states_[&info] = info.prepare(ctx, uses);
  }
}

void StorageService::add_results(nlohmann::ordered_json& results) const {
  for (const StorageModelInfo& info : StorageModelRegistry::instance().all()) {
    if (!info.results) continue;
    const StorageContext ctx = context(&info);
    std::vector<ClusterId> clusters;
    for (ClusterId c = 0; c < parts_.platform.layout.num_clusters(); c++) {
      const ClusterLayout& cl = parts_.platform.layout.cluster(c);
      if (cl.size > 0 && &model(cl.first) == &info) clusters.push_back(c);
    }
    if (!clusters.empty()) results[info.results_key] = info.results(clusters, ctx);
  }
}

std::optional<std::uint64_t> StorageService::recovery_line(NodeId asker, const std::vector<std::uint64_t>& numbers) {
  const LineSearch s = search_recovery_line(store_, parts_.platform.layout.num_nodes(), numbers);
  std::set<NodeId> failed_ids;
  for (const auto& [id, rec] : parts_.recoveries)
    if (!rec.done) failed_ids.insert(rec.victims.begin(), rec.victims.end());
  nlohmann::ordered_json failed = nlohmann::ordered_json::array();
  for (NodeId n : failed_ids) failed.push_back(parts_.platform.layout.host_name(n));
  std::vector<std::uint64_t> searched(s.skipped);
  if (s.line) searched.push_back(*s.line);
  nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
  std::vector<std::string> details;
  for (std::size_t i = 0; i < s.skipped.size(); i++) {
    const NodeId lost = s.lost_at[i];
    std::vector<std::string> were{parts_.platform.layout.host_name(lost)};
    for (Holder h : remote_holders(lost, s.skipped[i])) were.push_back(holder_name(h));
    skipped.push_back({{"number", s.skipped[i]}, {"lost", parts_.platform.layout.host_name(lost)}});
    details.push_back(fmt::format("no copy of checkpoint {} of {} survives (its copies were on {})", s.skipped[i],
                                  parts_.platform.layout.host_name(lost), fmt::join(were, ", ")));
  }
  const double now = sg4::Engine::get_clock();
  parts_.observe.trace.emit(0, now, "recovery_line",
                            {{"node", asker},
                             {"line", s.line ? nlohmann::ordered_json(*s.line) : nlohmann::ordered_json(nullptr)},
                             {"skipped", skipped},
                             {"failed", failed}});
  parts_.observe.stats.add("storage.recovery_lines");
  if (!s.skipped.empty() && s.line) parts_.observe.stats.add("storage.recovery_lines_older");
  if (!s.line)
    unrecoverable_(fmt::format("{}; checkpoints searched: {}; failed nodes: {}", fmt::join(details, "; "),
                               fmt::join(searched, ", "), fmt::join(failed, ", ")),
                   {{"searched", searched}, {"failed", failed}, {"skipped", skipped}});
  return s.line;
}

} // namespace ckptsim
