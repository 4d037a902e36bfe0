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

} // namespace ckptsim
