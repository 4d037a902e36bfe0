#include "sim/cli/protocol_list.hpp"

#include "sim/config/input_error.hpp"
#include "sim/protocol/protocol.hpp"

#include <fmt/format.h>

namespace ckptsim::cli {

std::vector<ProtocolChoice> parse_protocol_list(const std::string& list, const std::string& option) {
  std::vector<ProtocolChoice> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? list.size() + 1 : comma + 1;
    if (item.empty()) throw InputError("command line", option, "empty protocol in \"" + list + "\"");
    ProtocolChoice r;
    r.label = item;
    std::size_t colon = item.find(':');
    r.name = item.substr(0, colon);
    while (colon != std::string::npos) {
      const std::size_t next = item.find(':', colon + 1);
      const std::string p = item.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1);
      if (p.find('=') == std::string::npos || p.front() == '=')
        throw InputError("command line", option, fmt::format("\"{}\": expected NAME[:KEY=VALUE...]", item));
      r.params.push_back(p);
      colon = next;
    }
    ProtocolRegistry::instance().get(r.name, option); // an unknown name lists the valid ones
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace ckptsim::cli
