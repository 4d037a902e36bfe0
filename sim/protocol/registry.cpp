#include "sim/protocol/protocol.hpp"

#include "sim/config/input_error.hpp"
#include "sim/config/nearest.hpp"

#include <fmt/format.h>

namespace ckptsim {

void count_logged(Stats& stats, NodeId node, double entries, double bytes) {
  stats.level("log.entries", node, entries);
  stats.level("log.bytes", node, bytes);
}

bool bool_param(const ProtocolSetup& setup, const std::string& key, bool fallback) {
  auto it = setup.params.find(key);
  if (it == setup.params.end()) return fallback;
  if (it->second == "true" || it->second == "1" || it->second == "yes") return true;
  if (it->second == "false" || it->second == "0" || it->second == "no") return false;
  throw InputError("command line", "--param " + key, fmt::format("expected true or false, got \"{}\"", it->second));
}

std::string ProtocolInfo::unknown(const std::string& name, const std::vector<std::string>& valid) {
  return fmt::format("unknown protocol \"{}\" ({}valid protocols: {})", name, did_you_mean_head(name, valid),
                     fmt::join(valid, ", "));
}

} // namespace ckptsim
