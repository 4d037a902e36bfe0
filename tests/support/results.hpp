/* Readers of results documents and trace events that several simulation tests share. */
#pragma once

#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim::test_support {

/** @brief A results document without its wall-clock time, the one field two identical runs
 *  may differ in. */
inline nlohmann::json without_wall_clock(nlohmann::json doc) {
  doc["results"].erase("wall_time_s");
  return doc;
}

/** @brief The wave number a rollback event's reason names ("global rollback to wave 2 (failure
 *  3)"), 0 for the initial state. */
inline std::uint64_t restored_wave(const nlohmann::json& rollback) {
  const std::string reason = rollback["reason"];
  const auto at = reason.find("wave ");
  return at == std::string::npos ? 0 : std::stoull(reason.substr(at + 5));
}

/** @brief A counter of a results document's statistics, 0 when the run never counted it. */
inline double counter(const nlohmann::json& doc, const std::string& name) {
  return doc["stats"]["counters"].value(name, 0.0);
}
inline double counter(const ChildResult& r, const std::string& name) { return counter(r.document, name); }

/** @brief The events of type @p ev of the trace file @p trace, in order. */
inline std::vector<nlohmann::json> trace_events(const std::string& trace, const std::string& ev) {
  std::vector<nlohmann::json> out;
  for (const auto& e : read_trace(trace))
    if (e["ev"] == ev) out.push_back(e);
  return out;
}

/** @brief Per label of the scripted application's messages in the trace file @p trace: the date
 *  of its (last) send and of its (last) delivery. */
inline std::map<std::string, std::pair<double, double>> send_deliver_dates(const std::string& trace) {
  std::map<std::string, std::pair<double, double>> out;
  for (const auto& ev : read_trace(trace)) {
    if (!ev.contains("label")) continue;
    if (ev["ev"] == "app_send") out[ev["label"]].first = ev["t"];
    if (ev["ev"] == "app_deliver") out[ev["label"]].second = ev["t"];
  }
  return out;
}

/** @brief "" when run @p r exited 0 and completed with no consistency violation; else what went
 *  wrong (for ASSERT_EQ(clean_completion(r), "")). */
inline std::string clean_completion(const ChildResult& r) {
  if (r.exit_status != 0) return "exit status " + std::to_string(r.exit_status) + ": " + r.error;
  const auto& res = r.document["results"];
  if (res.value("status", "") != "completed") return "status: " + res.value("status", "");
  if (res["consistency"]["violations"] != 0) return "consistency violations: " + res["consistency"].dump();
  return "";
}

/** @brief The mean makespan and its standard error over seeds 1..@p runs of these documents under
 *  coordinated checkpointing; every run must complete with no consistency violation. */
struct MeanSe {
  double mean = 0, se = 0;
};
inline MeanSe coordinated_makespans(const nlohmann::json& topology, const nlohmann::json& application,
                                    const nlohmann::json& timers, int runs) {
  double sum = 0, sum2 = 0;
  for (int seed = 1; seed <= runs; seed++) {
    RunConfig c = make_config(topology, application, timers);
    c.options.protocol = "coordinated";
    c.options.seed = static_cast<std::uint64_t>(seed);
    auto r = run_in_child(c);
    EXPECT_EQ(r.exit_status, 0) << r.error;
    const auto& res = r.document["results"];
    EXPECT_EQ(res["consistency"]["violations"], 0) << "seed " << seed;
    EXPECT_EQ(res["status"], "completed") << "seed " << seed;
    const double t = res["makespan"].is_number() ? res["makespan"].get<double>() : 0;
    sum += t;
    sum2 += t * t;
  }
  const double mean = sum / runs;
  return {mean, runs > 1 ? std::sqrt((sum2 / runs - mean * mean) / (runs - 1)) : 0.0};
}

} // namespace ckptsim::test_support
