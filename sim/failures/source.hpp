/* Failure sources register themselves, like protocols: a source is one folder under sim/failures/
 * (exponential/, weibull/, trace/, none/) with one static FailureSourceRegistration saying which
 * fields of the topology's "failures" object it reads and how, and making the generator of its
 * failure events. The topology reader and the engine ask the registry; nothing else names a
 * source. An event has its victims and may carry its own repair time, so that sources striking
 * several nodes at once or drawing repair times need no engine change to be added. */
#pragma once

#include "sim/config/registry.hpp"
#include "sim/config/topology.hpp"
#include "sim/net/ids.hpp"
#include "sim/platform/layout.hpp"

#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim {

/** @brief One failure event: when it strikes, whom, and for how long. */
struct FailureArrival {
  double date = 0;
  std::vector<NodeId> victims;  // nodes (hosts under "restart": "shrink"), struck at the same date
  std::optional<double> repair; // how long the victims stay down; nullopt: the topology's "downtime"
  std::string scope{};          // what failed: "" a node (the topology's source), else a domain's scope or "cascade"
};

/** @brief The generator of a run's failure events, in non-decreasing date order. Seeded and
 *  deterministic: the same topology and seed give the same events. */
class FailureSource {
 public:
  virtual ~FailureSource() = default;
  /** @brief The next failure event, or nullopt when there is none. */
  virtual std::optional<FailureArrival> next() = 0;
  /** @brief For a source that replays a file: what it read, used and skipped, and why (the
   *  results' "failure_log": "file", "records_read", "used", "skipped" {reason: count}, "first_at",
   *  and "hint", advice for a log that gave the run nothing, ...),
   *  given the @p delivered events the run took before it ended. nullopt: a synthetic source. */
  virtual std::optional<nlohmann::ordered_json> account(std::size_t /*delivered*/) const { return std::nullopt; }
};

/** @brief What a failure source sees of a run once its platform exists. */
struct FailureSourceContext {
  const Topology& topology;       // "mtbf", the "failures" object (topology.failures, its settings)
  const FederationLayout& layout; // the nodes, to draw or resolve victims
  std::uint64_t seed = 0;         // the run's seed
};

// Members default-initialized ({}): a source lists only the ones it sets, without a warning.
struct FailureSourceInfo {
  std::string name;        // the topology's "failures": {"model": name}
  std::string description; // one line, for `ckptsim list`
  int rank = 0;            // position in listings and in the message naming the valid sources
  // The source's fields of the topology's "failures" object: name, description (with default).
  std::vector<std::pair<std::string, std::string>> fields{};
  /** Optional: reads the source's fields from the "failures" object (relative file names against
   *  @p base_dir). Every source reads its own, @p chosen or not: each field of the object is known
   *  everywhere and refused where meaningless. Returns the settings, kept when @p chosen
   *  (FailureSpec::settings). */
  std::function<std::any(ObjectReader& failures, bool chosen, const std::string& base_dir)> read{};
  /** The run's generator of failure events (an InputError when the settings do not fit the
   *  platform, e.g. a node the federation does not have). */
  std::function<std::unique_ptr<FailureSource>(const FailureSourceContext& context)> make{};
  /** Optional: the mean time between the source's failure events (its federation MTBF), for the
   *  warning when failures would, on average, come before a recovery can end. */
  std::function<double(const Topology& topology)> mean_gap{};
  /** Optional: the link outages the source's settings name (a failure log's records of links),
   *  added to the topology's scripted link failures (Topology::link_failures). */
  std::function<std::vector<LinkFailureSpec>(const std::any& settings)> link_outages{};
};

using FailureSourceRegistry = Registry<FailureSourceInfo>;
using FailureSourceRegistration = Registration<FailureSourceInfo>;

/** @brief The run's failure source: the topology's, or the replay of @p scripted (a scripted
 *  application's failures), which replaces it when not empty. */
std::unique_ptr<FailureSource> make_failure_source(const FailureSourceContext& context,
                                                   const std::vector<FailureEvent>& scripted = {});

} // namespace ckptsim
