/* The results document of a run: what ran (protocol, parameters, seed, files, models), the
 * inputs as given, the figures every protocol shares (status, makespan, overhead, failures, lost
 * work, storage, messages, consistency checks) and the full statistics; with the human-readable
 * summary. Built once, after the simulation. */
#include "sim/engine/run.hpp"

#include "sim/engine/summary.hpp"
#include "sim/version.hpp"

#include <simgrid/version.h>

#include <cmath>

namespace ckptsim {

RunResult Run::collect(double wall_seconds) {
  RunResult r;
  double failure_free = 0;
  for (NodeId n = 0; n < num_nodes(); n++)
    failure_free = std::max(failure_free, workload_->failure_free_work(n) / (platform_.layout.speed(n) / 1e9));
  const bool cut = end_.cut();
  const double makespan = cut ? end_.date() : termination_.all_finished_date();
  nlohmann::ordered_json res;
  res["status"] = end_.status();
  res["makespan"] = cut ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(makespan);
  res["end_date"] = end_.date();
  res["failure_free_time"] = failure_free;
  res["overhead_pct"] = cut || failure_free <= 0
                            ? nlohmann::ordered_json(nullptr)
                            : nlohmann::ordered_json(100.0 * (makespan - failure_free) / failure_free);
  res["failures"] = stats_.get("failures");
  res["failures_ignored_node_down"] = stats_.get("failures.ignored_down");
  res["failures_deferred"] = stats_.get("failures.deferred");
  res["lost_work"] = stats_.get("lost_work");
  res["rollbacks"] = stats_.get("rollbacks");
  res["storage_held_max_bytes"] = stats_.get("storage.held_bytes_max");
  res["storage_held_end_bytes"] = store_.held_bytes();
  res["storage_held_max_copy_bytes"] = store_.held_copy_bytes_max(); // every copy counted
  add_storage_results(res);
  res["recovery_time"] = stats_.get("recovery_time");
  // Mean over the recoveries that ended (null when none did).
  res["rolled_back_per_failure"] =
      stats_.get("recoveries_done") > 0
          ? nlohmann::ordered_json(stats_.get("rolled_back_processes") / stats_.get("recoveries_done"))
          : nlohmann::ordered_json(nullptr);
  res["app_messages_sent"] = stats_.get("app.sent");
  std::uint64_t digest = 0; // 48-bit digests: their xor stays exact as a JSON number
  for (std::uint64_t d : digests_) digest ^= d;
  if (digest != 0) res["result_checksum"] = digest;
  res["app_messages_delivered"] = stats_.get("app.delivered");
  res["control_messages"] = stats_.get("ctrl.total");
  res["consistency"] = {{"checks", checks_}, {"violations", violations_}};
  res["wall_time_s"] = wall_seconds;
  res["events"] = events_;

  nlohmann::ordered_json doc;
  doc["ckptsim"] = {{"version", version()}, {"simgrid", SIMGRID_VERSION_STRING}};
  const auto& o = config_.options;
  doc["run"] = {{"protocol", o.protocol},
                {"params", o.params},
                {"seed", o.seed},
                {"network_model", o.network_model},
                {"end_date", std::isfinite(o.end_date) ? nlohmann::ordered_json(o.end_date) : nullptr},
                {"stall_limit", std::isfinite(stall_limit_) ? nlohmann::ordered_json(stall_limit_) : nullptr},
                {"overrides", o.overrides},
                {"simgrid_args", o.simgrid_args},
                {"contexts", contexts_json()},
                {"files",
                 {{"topology", config_.topology_file},
                  {"application", config_.application_file},
                  {"timers", config_.timers_file},
                  {"platform", topology_.platform_xml}}},
                {"nodes", num_nodes()},
                {"clusters", platform_.layout.num_clusters()},
                {"failure_model", topology_.failures.model},
                {"overlapping_failures", overlapping_allowed() ? "allowed" : "deferred"},
                {"restart_placement", to_string(topology_.failures.restart)},
                {"storage", topology_.storage.model.empty() ? protocol_->default_storage() : topology_.storage.model},
                {"checkpoint_servers", platform_.servers.size()}};
  doc["inputs"] = {
      {"topology", config_.topology_doc}, {"application", config_.application_doc}, {"timers", config_.timers_doc}};
  doc["results"] = res;
  doc["stats"] = stats_.to_json();
  r.document = doc;
  r.violations = violations_;
  if (end_.reason() == RunEnd::Reason::Stuck) r.stuck = end_.why();
  r.summary = format_summary(r.document, platform_.layout);
  std::string extra;
  protocol_->summarize(stats_, extra);
  r.summary += extra;
  return r;
}

} // namespace ckptsim
