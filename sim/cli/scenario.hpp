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
};

/** @brief Loads the documents (files or embedded defaults) and applies @p overrides. */
RunConfig load_scenario(const ScenarioFiles& files, const std::vector<std::string>& overrides);

/** @brief Applies one "PATH=VALUE" override (PATH: topology/..., application/..., timers/...). */
void apply_override(RunConfig& config, const std::string& assignment);

} // namespace ckptsim
