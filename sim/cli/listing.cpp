#include "sim/cli/listing.hpp"

#include "sim/app/kind.hpp"
#include "sim/config/timers.hpp"
#include "sim/protocol/protocol.hpp"
#include "sim/storage/model.hpp"

#include <fmt/format.h>

namespace ckptsim::cli {

namespace {
// One module and its fields, the fields indented under its description.
template <class Info>
std::string module_lines(const Info& info) {
  std::string out = fmt::format("  {:<14} {}\n", info.name, info.description);
  for (const auto& [field, description] : info.fields)
    out += fmt::format("  {:<14}   {}  {}\n", "", field, description);
  return out;
}
} // namespace

std::string protocols_listing() {
  std::string out = "Protocols (--protocol NAME, parameters with --param KEY=VALUE):\n";
  for (const auto& [name, info] : ProtocolRegistry::instance().all()) {
    if (name.rfind("test-", 0) == 0) continue;
    out += fmt::format("  {:<12} {}\n", name, info.description);
    for (const auto& [p, desc] : info.params) out += fmt::format("  {:<12}   --param {}=...  {}\n", "", p, desc);
  }
  return out;
}

std::string timers_listing() {
  std::string out = "Timers (timer file):\n";
  for (const auto& [name, desc] : declared_timers()) out += fmt::format("  {:<18} {}\n", name, desc);
  return out;
}

std::string application_kinds_listing() {
  std::string out = "Application kinds (application file: \"kind\": NAME and its fields; every kind also takes "
                    "\"deterministic\", default true):\n";
  for (const ApplicationKindInfo& kind : ApplicationKindRegistry::instance().all())
    if (ApplicationKindRegistry::listed(kind)) out += module_lines(kind);
  return out;
}

std::string storage_models_listing() {
  std::string out = "Storage models (topology: \"storage\": {\"model\": NAME and the fields}, or a cluster's "
                    "\"storage\": NAME; default: the protocol's):\n";
  for (const StorageModelInfo& model : StorageModelRegistry::instance().all())
    if (StorageModelRegistry::listed(model)) out += module_lines(model);
  return out;
}

} // namespace ckptsim::cli
