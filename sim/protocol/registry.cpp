#include "sim/protocol/protocol.hpp"

#include "sim/config/input_error.hpp"

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

ProtocolRegistry& ProtocolRegistry::instance() {
  static ProtocolRegistry registry;
  return registry;
}

void ProtocolRegistry::add(ProtocolInfo info) {
  std::string name = info.name;
  protocols_[name] = std::move(info);
}

const ProtocolInfo& ProtocolRegistry::get(const std::string& name, const std::string& where) const {
  auto it = protocols_.find(name);
  if (it == protocols_.end()) {
    std::vector<std::string> names;
    for (const auto& [n, info] : protocols_)
      if (n.rfind("test-", 0) != 0) names.push_back(n);
    throw InputError("command line", where,
                     fmt::format("unknown protocol \"{}\" (valid protocols: {})", name, fmt::join(names, ", ")));
  }
  return it->second;
}

} // namespace ckptsim
