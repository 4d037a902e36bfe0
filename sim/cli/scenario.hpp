/* Assembles a RunConfig from the command line's file names (or the embedded default scenario)
 * and applies the --set PATH=VALUE overrides to the documents before they are parsed. */
#pragma once

#include "sim/engine/run_config.hpp"

#include <string>
#include <vector>

namespace ckptsim {

struct ScenarioFiles {
  std::string topology;
  std::string platform;
  std::string application;
  std::string timers;
  // With a platform XML: an existing host as controller, and the level of its zones that are the
  // clusters; both set the topology's field ("controller": {"host": ...}, "clusters_at").
  std::string controller{};
  std::string clusters_at{};
};

/** @brief Loads the documents (files or embedded defaults) and applies @p overrides. */
RunConfig load_scenario(const ScenarioFiles& files, const std::vector<std::string>& overrides);

/** @brief Sets the topology's fields that --controller and --clusters-at give (InputError without
 *  a platform XML, or with an unknown level). */
void set_platform_options(json& topology, const ScenarioFiles& files);

/** @brief The overrides ("PATH=VALUE") that make @p topology's run failure-free: no node failure
 *  (its restart and detection settings kept), no link failure. */
std::vector<std::string> failure_free_assignments(const json& topology);

/** @brief Applies one "PATH=VALUE" override (PATH: topology/..., application/..., timers/...). */
void apply_override(RunConfig& config, const std::string& assignment);

} // namespace ckptsim
