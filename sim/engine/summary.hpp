/* The human-readable summary of a run, in tables like the papers'. */
#pragma once

#include "sim/platform/layout.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace ckptsim {

std::string format_summary(const nlohmann::ordered_json& document, const FederationLayout& layout);

} // namespace ckptsim
