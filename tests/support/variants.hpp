/* A protocol variant (a protocol, its parameters, a storage model) as the parameter of the tests
 * that run every variant through a hundred seeded runs (tests/sim/test_domain_outages.cpp,
 * tests/sim/test_partitions.cpp), and the run configuration they share. */
#pragma once

#include "tests/support/sim_child.hpp"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ckptsim::test_support {

struct ProtocolVariant {
  std::string protocol;
  std::map<std::string, std::string> params;
  std::string storage; // "" for the protocol's default
  std::string name() const {
    std::string n = protocol;
    for (const auto& [k, v] : params) n += "_" + v;
    if (!storage.empty()) n += "_" + storage;
    return n;
  }
  /** @brief A run that redoes, again and again, work the next failure undoes is a livelock the
   *  protocol's model allows (docs/MODEL.md, "A run always ends"): the watchdog ends it. */
  bool may_livelock() const { return protocol == "none" || protocol == "independent" || protocol == "cck"; }
};
inline void PrintTo(const ProtocolVariant& v, std::ostream* os) { *os << v.name(); }

/** @brief Every protocol and variant with its default storage (the hundred-runs tests' list). */
inline std::vector<ProtocolVariant> every_protocol_variant() {
  return {{"none", {}, ""},
          {"coordinated", {}, ""},
          {"hc3i", {}, ""},
          {"hc3i", {{"transitive", "true"}}, ""},
          {"independent", {{"unit", "process"}}, ""},
          {"independent", {{"unit", "cluster"}}, ""},
          {"msglog", {{"variant", "pessimistic"}}, ""},
          {"msglog", {{"variant", "causal"}}, ""},
          {"msglog", {{"variant", "optimistic"}}, ""},
          {"cck", {}, ""},
          {"taskgraph", {}, ""}};
}

/** @brief Seed @p seed of variant @p v on these documents, a checkpoint every 5 s and a garbage
 *  collection every 20 s, and an end date far enough that every run must end by itself first. */
inline RunConfig variant_config(json topology, json application, const ProtocolVariant& v, int seed) {
  RunConfig c = make_config(std::move(topology), std::move(application),
                            {{"default", {{"checkpoint_period", 5}, {"gc_period", 20}}}});
  c.options.protocol = v.protocol;
  c.options.params = v.params;
  c.options.seed = static_cast<std::uint64_t>(seed);
  c.options.end_date = 1e6;
  return c;
}

} // namespace ckptsim::test_support
