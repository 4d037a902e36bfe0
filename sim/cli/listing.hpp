/* What `ckptsim protocols` and `ckptsim list` print: every registered protocol, application kind,
 * storage model, failure source and timer with its description and its parameters or fields, in
 * registry order (test registrations, named "test-...", left out). Plain text, one section per
 * function. */
#pragma once

#include <string>

namespace ckptsim::cli {

/** @brief The protocols and their --param parameters. */
std::string protocols_listing();
/** @brief The timers of the timer file. */
std::string timers_listing();
/** @brief The application kinds and their fields of the application file. */
std::string application_kinds_listing();
/** @brief The storage models and their fields of the topology's "storage" object. */
std::string storage_models_listing();
/** @brief The failure sources and their fields of the topology's "failures" object. */
std::string failure_sources_listing();
/** @brief What `ckptsim list` prints: every section above, a blank line between two. */
std::string full_listing();
/** @brief The protocol a run uses when none is named: the registration that says so
 *  (ProtocolInfo::runs_by_default); std::logic_error unless exactly one does. */
std::string default_protocol();
/** @brief What `ckptsim compare` runs without --protocols: NAME[:KEY=VALUE...] of every protocol
 *  registered with compared_by_default, in the registry's order, comma-separated. */
std::string default_compare_list();

} // namespace ckptsim::cli
