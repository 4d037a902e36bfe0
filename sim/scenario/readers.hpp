/* The readers of the scenario's input files that hand parts of them to the registered plug-ins
 * (storage models, failure sources, application kinds). They sit above the plug-in folders: the
 * data they fill (Topology, Application) and the generic reading tools stay in sim/config, which
 * every plug-in builds on. The timer file's reader needs no plug-in: sim/config/timers.hpp. */
#pragma once

#include "sim/config/application.hpp"
#include "sim/config/topology.hpp"

#include <string>

namespace ckptsim {

/** @brief Reads and validates a topology document. @p base_dir resolves relative file names. */
Topology parse_topology(const json& doc, const std::string& file, const std::string& base_dir);

/** @brief Reads and validates an application document against the topology's cluster names: the
 *  kind's own fields are read by the kind's parser (sim/app/kind.hpp). */
Application parse_application(const json& doc, const std::string& file, const Topology& topology);

/** @brief The network model runs of this application use by default: its kind's
 *  (ApplicationKindInfo::network_model); "CM02" when the document names no known kind (parsing it
 *  reports that). Read before the platform exists, which parsing needs. */
std::string default_network_model(const json& doc);

} // namespace ckptsim
