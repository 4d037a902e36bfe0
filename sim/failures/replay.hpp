/* The replay of an explicit list of failures ("date node"), each striking one node, or several at
 * once ("date node,node,..."): the "trace" source's file and a scripted application's "failures"
 * both become one. */
#pragma once

#include "sim/failures/source.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace ckptsim {

class ReplayedFailures : public FailureSource {
 public:
  /** @brief Resolves every node of @p events against @p layout now: an unknown node is an
   *  InputError naming the event's file and line (FailureEvent::where). */
  ReplayedFailures(const std::vector<FailureEvent>& events, const FederationLayout& layout);
  /** @brief The same, read from failure log @p file, which the results account for. */
  ReplayedFailures(const std::vector<FailureEvent>& events, const FederationLayout& layout, std::string file);
  std::optional<FailureArrival> next() override;
  std::optional<nlohmann::ordered_json> account(std::size_t delivered) const override;

 private:
  std::string file_; // empty: a scripted application's failures, no file to account for
  std::vector<std::pair<double, std::vector<NodeId>>> events_; // date, victims (increasing order)
  std::size_t next_ = 0;
};

} // namespace ckptsim
