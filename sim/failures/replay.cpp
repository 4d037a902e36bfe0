#include "sim/failures/replay.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim {

ReplayedFailures::ReplayedFailures(const std::vector<FailureEvent>& events, const FederationLayout& layout) {
  for (const auto& ev : events) {
    const auto colon = ev.where.find(": ");
    const auto fail = [&](const std::string& why) {
      throw InputError(ev.where.substr(0, colon), colon == std::string::npos ? "" : ev.where.substr(colon + 2), why);
    };
    // "c0-1,c0-2": one event striking every node listed at once (a rack, a cluster), one recovery.
    std::vector<NodeId> victims;
    std::size_t start = 0;
    while (start <= ev.node.size()) {
      const std::size_t comma = std::min(ev.node.find(',', start), ev.node.size());
      const std::string name = ev.node.substr(start, comma - start);
      const NodeId v = layout.resolve(name);
      if (v < 0)
        fail(fmt::format("no node \"{}\" in the federation (host name or index below {})", name, layout.num_nodes()));
      if (std::find(victims.begin(), victims.end(), v) != victims.end())
        fail(fmt::format("node \"{}\" is listed twice in one failure", name));
      victims.push_back(v);
      start = comma + 1;
    }
    std::sort(victims.begin(), victims.end());
    events_.emplace_back(ev.date, std::move(victims));
  }
}

ReplayedFailures::ReplayedFailures(const std::vector<FailureEvent>& events, const FederationLayout& layout,
                                   std::string file)
    : ReplayedFailures(events, layout) {
  file_ = std::move(file);
}

std::optional<nlohmann::ordered_json> ReplayedFailures::account(std::size_t delivered) const {
  if (file_.empty()) return std::nullopt;
  nlohmann::ordered_json skipped = nlohmann::ordered_json::object();
  if (delivered < events_.size()) skipped["after the end of the run"] = events_.size() - delivered;
  nlohmann::ordered_json a{
      {"file", file_},
      {"records_read", events_.size()},
      {"used", delivered},
      {"skipped", skipped},
      {"origin", "0"},
      {"first_at", events_.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(events_.front().first)},
      {"first_used", delivered > 0 ? nlohmann::ordered_json(events_.front().first) : nullptr},
      {"last_used", delivered > 0 ? nlohmann::ordered_json(events_[delivered - 1].first) : nullptr}};
  // For the warning of a log that gave the run nothing (absent otherwise).
  if (delivered == 0 && !events_.empty())
    a["hint"] = "the \"trace\" format takes dates from the start of the run; the \"fta\" source reads epoch seconds";
  return a;
}

std::optional<FailureArrival> ReplayedFailures::next() {
  if (next_ >= events_.size()) return std::nullopt;
  const auto& [date, victims] = events_[next_++];
  return FailureArrival{date, victims, std::nullopt};
}

} // namespace ckptsim
