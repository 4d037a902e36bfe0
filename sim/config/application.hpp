/* The application file (SPEC 2.2): what every process computes and sends. Its "kind" names an
 * application kind (sim/app/kind.hpp; docs/INPUTS.md), whose parser reads the kind's own fields
 * into Application::spec; "deterministic" is common to every kind. */
#pragma once

#include "sim/config/json_reader.hpp"
#include "sim/config/topology.hpp"

#include <any>
#include <string>
#include <vector>

namespace ckptsim {

struct Application {
  std::string source = "<embedded>";
  std::string kind;
  bool deterministic = true; // re-execution after a rollback repeats itself (PWD)
  // Failures the file lists (the "scripted" kind): they replace the topology's failure model.
  std::vector<FailureEvent> scripted_failures;
  std::any spec; // the kind's own fields, as its parser read them (StochasticSpec, StencilSpec, ...)

  /** @brief The kind's spec; std::bad_any_cast when the application is of another kind. */
  template <class Spec>
  const Spec& spec_as() const {
    return std::any_cast<const Spec&>(spec);
  }
  template <class Spec>
  Spec& spec_as() {
    return std::any_cast<Spec&>(spec);
  }
};

/** @brief Reads and validates an application document against the topology's cluster names: the
 *  kind's own fields are read by the kind's parser (sim/app/kind.hpp). */
Application parse_application(const json& doc, const std::string& file, const Topology& topology);

/** @brief The network model runs of this application use by default: its kind's
 *  (ApplicationKindInfo::network_model); "CM02" when the document names no known kind (parsing it
 *  reports that). Read before the platform exists, which parsing needs. */
std::string default_network_model(const json& doc);

} // namespace ckptsim
