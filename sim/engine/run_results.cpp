/* The results document of a run: what ran (protocol, parameters, seed, files, models), the
 * inputs as given, the figures every protocol shares (status, makespan, overhead, failures, lost
 * work, storage, messages, consistency checks) and the full statistics; with the human-readable
 * summary. Built once, after the simulation. */
#include "sim/engine/run.hpp"

#include "sim/engine/summary.hpp"
#include "sim/units/units.hpp"
#include "sim/version.hpp"

#include <simgrid/version.h>

#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ckptsim {

void Run::warn_of_empty_log(const nlohmann::ordered_json& log) {
  std::vector<std::string> skipped;
  for (const auto& [why, n] : log["skipped"].items()) skipped.push_back(fmt::format("{} {}", n.dump(), why));
  std::string hint;
  // A year of simulated time before the first failure: most likely a log of absolute dates.
  // What the source advises then (its "hint") is its own: the engine names no source.
  if (log["first_at"].is_number() && log["first_at"].get<double>() > 365 * 86400.0)
    hint = fmt::format("; its first failure comes {} after the start of the run: are its dates Unix epoch seconds?{}",
                       units::format_duration(log["first_at"].get<double>()),
                       log.contains("hint") ? " (" + log["hint"].get<std::string>() + ")" : "");
  observe_.warn(fmt::format("the failure log {} gave no failure to the run: {} record(s) read, skipped: {}{}",
                            log["file"].get<std::string>(), log["records_read"].dump(),
                            skipped.empty() ? "none" : fmt::format("{}", fmt::join(skipped, ", ")), hint));
}

nlohmann::ordered_json Run::energy_json() const {
  // Every process from date 0 to the end of the run, at its cluster's power in each state.
  static constexpr const char* kNames[kPowerStates] = {"computing", "checkpointing", "idle", "down"};
  std::array<double, kPowerStates> seconds{}, joules{};
  const double end = ending_.end.date();
  for (NodeId n = 0; n < num_nodes(); n++) {
    const auto c = static_cast<std::size_t>(platform_.layout.cluster_of(n));
    const PowerSpec p = c < inputs_.topology.clusters.size() ? inputs_.topology.clusters[c].power : PowerSpec{};
    const std::array<double, kPowerStates> watts{p.computing, p.checkpointing, p.idle, p.down};
    const auto s = observe_.power.seconds(n, end);
    for (std::size_t k = 0; k < kPowerStates; k++) {
      seconds[k] += s[k];
      joules[k] += s[k] * watts[k];
    }
  }
  // The storage servers, always on from date 0 (the nodes' own levels are in their power).
  const double storage = static_cast<double>(platform_.servers.size()) * inputs_.topology.storage.power * end;
  nlohmann::ordered_json e;
  double total = storage;
  for (double j : joules) total += j;
  e["total_j"] = total;
  for (std::size_t k = 0; k < kPowerStates; k++) e[std::string(kNames[k]) + "_j"] = joules[k];
  e["storage_j"] = storage;
  for (std::size_t k = 0; k < kPowerStates; k++) e["seconds"][kNames[k]] = seconds[k];
  return e;
}

RunResult Run::collect(double wall_seconds) {
  RunResult r;
  double failure_free = 0;
  for (NodeId n = 0; n < num_nodes(); n++)
    failure_free = std::max(failure_free, workload_->failure_free_work(n) / (platform_.layout.speed(n) / 1e9));
  // The processes' computation is the failure-free duration only when they never wait for each
  // other; otherwise the CLI measured it by a failure-free simulation (RunOptions).
  const bool simulated = inputs_.config.options.failure_free_makespan > 0;
  if (simulated) failure_free = inputs_.config.options.failure_free_makespan;
  const bool cut = ending_.end.cut();
  const double makespan = cut ? ending_.end.date() : ending_.termination.all_finished_date();
  nlohmann::ordered_json res;
  res["status"] = ending_.end.status();
  res["makespan"] = cut ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(makespan);
  res["end_date"] = ending_.end.date();
  res["failure_free_time"] = failure_free;
  res["failure_free_from"] = simulated ? "simulation" : "computation";
  res["overhead_pct"] = cut || failure_free <= 0
                            ? nlohmann::ordered_json(nullptr)
                            : nlohmann::ordered_json(100.0 * (makespan - failure_free) / failure_free);
  res["failures"] = observe_.stats.get("failures");
  res["failures_ignored_node_down"] = observe_.stats.get("failures.ignored_down");
  res["failures_deferred"] = observe_.stats.get("failures.deferred");
  // Failure events still held when the run ended (absent when none): more than a handful means
  // they arrived faster than the recoveries ended, the model's overload.
  if (!failures_.deferred.empty()) res["failures_deferred_at_end"] = failures_.deferred.size();
  res["lost_work"] = observe_.stats.get("lost_work");
  res["rollbacks"] = observe_.stats.get("rollbacks");
  res["storage_held_max_bytes"] = observe_.stats.get("storage.held_bytes_max");
  res["storage_held_end_bytes"] = storage_.store().held_bytes();
  res["storage_held_max_copy_bytes"] = storage_.store().held_copy_bytes_max(); // every copy counted
  storage_.add_results(res);
  res["recovery_time"] = observe_.stats.get("recovery_time");
  // Mean over the recoveries that ended (null when none did).
  res["rolled_back_per_failure"] =
      observe_.stats.get("recoveries_done") > 0
          ? nlohmann::ordered_json(observe_.stats.get("rolled_back_processes") / observe_.stats.get("recoveries_done"))
          : nlohmann::ordered_json(nullptr);
  res["app_messages_sent"] = observe_.stats.get("app.sent");
  std::uint64_t digest = 0; // 48-bit digests: their xor stays exact as a JSON number
  for (std::uint64_t d : endpoints_.digests) digest ^= d;
  if (digest != 0) res["result_checksum"] = digest;
  res["app_messages_delivered"] = observe_.stats.get("app.delivered");
  res["control_messages"] = observe_.stats.get("ctrl.total");
  res["consistency"] = {{"checks", observe_.checks()},
                        {"violations", observe_.violations()},
                        {"events_held_at_most", observe_.oracle.peak_events()},
                        {"events_folded", observe_.oracle.folded_events()}};
  if (auto log = failures_.source->account(failures_.delivered)) {
    if (failures_.delivered == 0) warn_of_empty_log(*log);
    res["failure_log"] = *log; // absent for synthetic sources
  }
  const auto& f = inputs_.topology.failures;
  if (!f.correlated.empty() || f.cascade) { // absent otherwise: every event is one node's
    nlohmann::ordered_json scopes = nlohmann::ordered_json::object();
    for (const auto& [scope, n] : failures_.scopes) scopes[scope] = {{"events", n.events}, {"victims", n.victims}};
    res["failure_events"] = scopes;
  }
  if (auto network = links_.results(sg4::Engine::get_clock()); !network.is_null()) { // absent when no link can fail
    network["messages_delayed"] = observe_.stats.get("network.messages_delayed");
    network["message_delay_total"] = observe_.stats.get("network.message_delay");
    network["transfers_resent"] = observe_.stats.get("network.transfers_resent");
    network["checkpoint_transfers_held"] = observe_.stats.get("network.checkpoint_transfers_held");
    if (failures_.suspicions) { // heartbeat detection: partitioned nodes suspected and fenced
      network["suspicions"] = observe_.stats.get("network.suspicions");
      network["nodes_suspected"] = observe_.stats.get("network.nodes_suspected");
    }
    res["network"] = network;
  }
  res["energy"] = energy_json();
  if (!observe_.warnings().empty()) res["warnings"] = observe_.warnings(); // absent when none
  res["wall_time_s"] = wall_seconds;
  res["events"] = ending_.events;

  nlohmann::ordered_json doc;
  doc["ckptsim"] = {{"version", version()}, {"simgrid", SIMGRID_VERSION_STRING}};
  const auto& o = inputs_.config.options;
  doc["run"] = {
      {"protocol", o.protocol},
      {"params", o.params},
      {"seed", o.seed},
      {"network_model", o.network_model},
      {"end_date", std::isfinite(o.end_date) ? nlohmann::ordered_json(o.end_date) : nullptr},
      {"stall_limit", std::isfinite(ending_.stall_limit) ? nlohmann::ordered_json(ending_.stall_limit) : nullptr},
      {"overrides", o.overrides},
      {"simgrid_args", o.simgrid_args},
      {"contexts", contexts_json()},
      {"maxmin_precision", precision_json()},
      {"files",
       {{"topology", inputs_.config.topology_file},
        {"application", inputs_.config.application_file},
        {"timers", inputs_.config.timers_file},
        {"platform", inputs_.topology.platform_xml}}},
      {"nodes", num_nodes()},
      {"clusters", platform_.layout.num_clusters()},
      {"failure_model", inputs_.topology.failures.model},
      {"overlapping_failures", overlapping_allowed() ? "allowed" : "deferred"},
      {"restart_placement", to_string(inputs_.topology.failures.restart)},
      {"storage",
       inputs_.topology.storage.model.empty() ? protocol_.module->default_storage() : inputs_.topology.storage.model},
      {"checkpoint_servers", platform_.servers.size()}};
  if (o.oracle_fold_every > 0) doc["run"]["oracle_fold_every"] = o.oracle_fold_every; // --self-test fold-often
  doc["inputs"] = {{"topology", inputs_.config.topology_doc},
                   {"application", inputs_.config.application_doc},
                   {"timers", inputs_.config.timers_doc}};
  doc["results"] = res;
  doc["stats"] = observe_.stats.to_json();
  r.document = doc;
  r.violations = observe_.violations();
  if (ending_.end.reason() == RunEnd::Reason::Stuck) r.stuck = ending_.end.why();
  r.summary = format_summary(r.document, platform_.layout);
  std::string extra;
  protocol_.module->summarize(observe_.stats, extra);
  r.summary += extra;
  return r;
}

} // namespace ckptsim
