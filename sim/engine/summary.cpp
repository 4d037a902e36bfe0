#include "sim/engine/summary.hpp"

#include "sim/units/units.hpp"

#include <fmt/format.h>

namespace ckptsim {

namespace {
double num(const nlohmann::ordered_json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}
} // namespace

std::string format_summary(const nlohmann::ordered_json& doc, const FederationLayout& layout) {
  const auto& run = doc["run"];
  const auto& res = doc["results"];
  const auto& stats = doc["stats"];
  std::string out;
  out += fmt::format("ckptsim {} — protocol {}, seed {}, {} nodes in {} clusters, network {}\n",
                     doc["ckptsim"]["version"].get<std::string>(), run["protocol"].get<std::string>(),
                     run["seed"].get<std::uint64_t>(), run["nodes"].get<int>(), run["clusters"].get<int>(),
                     run["network_model"].get<std::string>());
  out += fmt::format("  status             {}\n", res["status"].get<std::string>());
  if (res["makespan"].is_number())
    out += fmt::format("  makespan           {}\n", units::format_duration(num(res, "makespan")));
  out += fmt::format("  failure-free time  {} ({})\n", units::format_duration(num(res, "failure_free_time")),
                     res.value("failure_free_from", "") == "simulation"
                         ? "a failure-free simulation of the same inputs under protocol none"
                         : "the longest computation");
  if (res["overhead_pct"].is_number()) out += fmt::format("  overhead           {:.2f} %\n", num(res, "overhead_pct"));
  out += fmt::format("  failures           {:.0f} (ignored, node down: {:.0f}; deferred: {:.0f}{})\n",
                     num(res, "failures"), num(res, "failures_ignored_node_down"), num(res, "failures_deferred"),
                     res.contains("failures_deferred_at_end")
                         ? fmt::format(", {:.0f} still deferred at the end", num(res, "failures_deferred_at_end"))
                         : "");
  out += fmt::format("  rollbacks          {:.0f} process rollbacks, lost work {} (process-seconds)\n",
                     num(res, "rollbacks"), units::format_duration(num(res, "lost_work")));
  // The recovery time is a sum over the recoveries: said with their number and mean.
  if (const double done = num(doc["stats"]["counters"], "recoveries_done"); done > 0)
    out += fmt::format("  recoveries         {:.0f}, {} each on average ({} in all)\n", done,
                       units::format_duration(num(res, "recovery_time") / done),
                       units::format_duration(num(res, "recovery_time")));
  if (res["rolled_back_per_failure"].is_number())
    out += fmt::format("  rolled back        {:.1f} processes per failure (mean over the recoveries)\n",
                       num(res, "rolled_back_per_failure"));
  out += fmt::format("  control messages   {:.0f}\n", num(res, "control_messages"));
  if (res.contains("network")) { // link failures (docs/MODEL.md, "Network faults")
    const auto& n = res["network"];
    double cut = 0;
    for (const auto& pair : n["clusters_cut_off"]) cut += pair["seconds"].get<double>();
    out += fmt::format("  network faults     {} link failures, clusters cut off {} (pairs summed), {:.0f} messages "
                       "delayed ({} in all), {:.0f} transfers resumed\n",
                       n["link_failures"].get<std::uint64_t>(), units::format_duration(cut), num(n, "messages_delayed"),
                       units::format_duration(num(n, "message_delay_total")), num(n, "transfers_resent"));
  }
  if (res.contains("storage_held_max_bytes"))
    out +=
        fmt::format("  storage held       {:.4g} MB at most, {:.4g} MB at the end (checkpoints kept, one copy each)\n",
                    num(res, "storage_held_max_bytes") / 1e6, num(res, "storage_held_end_bytes") / 1e6);
  if (res.contains("energy") && num(res["energy"], "total_j") > 0) {
    const auto& e = res["energy"];
    const double total = num(e, "total_j");
    out +=
        fmt::format("  energy             {:.4g} MJ (computing {:.1f} %, checkpointing {:.1f} %, idle {:.1f} %, down "
                    "{:.1f} %)\n",
                    total / 1e6, 100 * num(e, "computing_j") / total, 100 * num(e, "checkpointing_j") / total,
                    100 * num(e, "idle_j") / total, 100 * num(e, "down_j") / total);
  }
  out += fmt::format("  consistency        {} checks, {} violations\n", res["consistency"]["checks"].get<int>(),
                     res["consistency"]["violations"].get<int>());
  if (res.contains("result_checksum"))
    out += fmt::format("  result checksum    {:012x}\n", res["result_checksum"].get<std::uint64_t>());
  out += fmt::format("  run                {:.3f} s wall clock, {} events\n", num(res, "wall_time_s"),
                     res["events"].get<std::uint64_t>());

  // The application message matrix, as in the HC3I report's table (sender x receiver cluster).
  if (stats["matrices"].contains("app.messages")) {
    const auto& m = stats["matrices"]["app.messages"];
    const nlohmann::ordered_json* replays =
        stats["matrices"].contains("app.replays") ? &stats["matrices"]["app.replays"] : nullptr;
    out += "\n  Application messages (sends, re-executions included)\n";
    out += fmt::format("  {:<16} {:<16} {:>14}{}\n", "Sender cluster", "Receiver cluster", "Message count",
                       replays ? "   Replays" : "");
    for (std::size_t i = 0; i < m.size(); i++)
      for (std::size_t j = 0; j < m[i].size(); j++) {
        std::string rep = replays && i < replays->size() && j < (*replays)[i].size()
                              ? fmt::format("   {:>7.0f}", (*replays)[i][j].get<double>())
                              : "";
        out += fmt::format("  {:<16} {:<16} {:>14.0f}{}\n", layout.cluster(static_cast<ClusterId>(i)).name,
                           layout.cluster(static_cast<ClusterId>(j)).name, m[i][j].get<double>(), rep);
      }
  }
  // Protocol messages by type.
  std::string ctrl;
  for (const auto& [key, value] : stats["counters"].items())
    if (key.rfind("ctrl.", 0) == 0 && key != "ctrl.total" && key != "ctrl.wan")
      ctrl += fmt::format("  {:<24} {:>10.0f}\n", key.substr(5), value.get<double>());
  if (!ctrl.empty()) out += "\n  Protocol messages by type\n" + ctrl;
  return out;
}

} // namespace ckptsim
