/* A list of protocols with their parameters on the command line, "NAME[:KEY=VALUE...],..."
 * (`ckptsim compare --protocols`, `ckptsim advise --protocols`). */
#pragma once

#include <string>
#include <vector>

namespace ckptsim::cli {

struct ProtocolChoice {
  std::string label; // as given: name[:key=value...]
  std::string name;
  std::vector<std::string> params; // key=value
};

/** @brief Parses @p list; InputError naming @p option for an empty item, a parameter without
 *  "=", or an unknown protocol (the message lists the valid ones). */
std::vector<ProtocolChoice> parse_protocol_list(const std::string& list, const std::string& option);

} // namespace ckptsim::cli
