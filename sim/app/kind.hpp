/* Application kinds register themselves, like protocols: a kind is one folder under sim/app/
 * (stochastic/, scripted/, stencil/, master_worker/) holding its spec (what its part of the
 * application file says), its parser, its Workload and one static ApplicationKindRegistration.
 * parse_application reads "kind" and "deterministic", then hands the document to the kind's
 * parser; make_workload asks the kind for its Workload. Nothing else names a kind. */
#pragma once

#include "sim/app/workload.hpp"
#include "sim/config/registry.hpp"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim {

struct ApplicationKindInfo {
  std::string name;        // the application file's "kind"
  std::string description; // one line, for `ckptsim list`
  int rank = 0;            // position in listings and in the message naming the valid kinds
  // The kind's fields besides "kind" and "deterministic": name, description (with default).
  std::vector<std::pair<std::string, std::string>> fields;
  // The network model of its runs unless --network-model names one: "CM02" (the papers'
  // latency + size / bandwidth) for the papers' kinds; "SMPI" for an MPI trace, so that a
  // replay takes the time SMPI's own replay of the trace takes (docs/MODEL.md).
  std::string network_model = "CM02";
  // Its processes wait for each other's messages, so that a failure-free run takes longer than its
  // longest computation: `ckptsim run` measures the overhead against a failure-free simulation
  // of the same inputs (protocol none) instead (docs/RESULTS.md, results/failure_free_time).
  bool waits_for_messages = false;
  /** Reads the kind's fields from @p doc into app.spec (and app.scripted_failures for a kind
   *  that lists failures); @p topology gives the cluster names and, without a platform XML,
   *  the node count. */
  std::function<void(ObjectReader& doc, Application& app, const Topology& topology)> parse;
  /** The kind's Workload on the federation; an InputError naming the application file when the
   *  federation cannot run it. */
  std::function<std::unique_ptr<Workload>(const Application& app, const FederationLayout& layout)> make_workload;
};

using ApplicationKindRegistry = Registry<ApplicationKindInfo>;
using ApplicationKindRegistration = Registration<ApplicationKindInfo>;

} // namespace ckptsim
