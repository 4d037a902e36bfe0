#include "sim/cli/listing.hpp"

#include "sim/app/kind.hpp"
#include "sim/config/timers.hpp"
#include "sim/failures/source.hpp"
#include "sim/protocol/protocol.hpp"
#include "sim/storage/model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>
#include <string>
#include <vector>

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
  for (const ProtocolInfo& info : ProtocolRegistry::instance().all()) {
    if (!ProtocolRegistry::listed(info)) continue;
    out += fmt::format("  {:<12} {}\n", info.name, info.description);
    for (const auto& [p, desc] : info.params) out += fmt::format("  {:<12}   --param {}=...  {}\n", "", p, desc);
  }
  return out;
}

std::string timers_listing() {
  std::string out = "Timers (timer file):\n";
  for (const TimerInfo& timer : TimerRegistry::instance().all())
    if (TimerRegistry::listed(timer)) out += fmt::format("  {:<18} {}\n", timer.name, timer.description);
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

std::string failure_sources_listing() {
  std::string out = fmt::format("Failure sources (topology: \"failures\": {{\"model\": NAME and the fields}}; "
                                "default: {}):\n",
                                FailureSpec{}.model);
  for (const FailureSourceInfo& source : FailureSourceRegistry::instance().all())
    if (FailureSourceRegistry::listed(source)) out += module_lines(source);
  return out;
}

std::string full_listing() {
  return protocols_listing() + "\n" + application_kinds_listing() + "\n" + storage_models_listing() + "\n" +
         failure_sources_listing() + "\n" + timers_listing();
}

std::string default_protocol() {
  std::vector<std::string> found;
  for (const ProtocolInfo& p : ProtocolRegistry::instance().all())
    if (p.runs_by_default) found.push_back(p.name);
  if (found.size() != 1)
    throw std::logic_error(fmt::format("exactly one protocol must run by default, not {}", found.size()));
  return found.front();
}

std::string default_compare_list() {
  std::vector<std::string> items;
  for (const ProtocolInfo& p : ProtocolRegistry::instance().all())
    if (p.compared_by_default)
      items.push_back(p.compared_by_default->empty() ? p.name : p.name + ":" + *p.compared_by_default);
  return fmt::format("{}", fmt::join(items, ","));
}

} // namespace ckptsim::cli
