#include "protocols/common/control.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace ckptsim {

void unexpected_control(const char* protocol, const ControlMessage& msg) {
  throw std::logic_error(fmt::format("{}: unexpected control message {} (kind {})", protocol, msg.type, msg.kind));
}

} // namespace ckptsim
