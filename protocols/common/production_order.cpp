#include "protocols/common/production_order.hpp"

#include "sim/app/workload.hpp"
#include "sim/config/input_error.hpp"

#include <fmt/format.h>

namespace ckptsim {

void refuse_rendezvous_sends(const ProtocolSetup& setup, const std::string& protocol, const std::string& why) {
  if (!setup.workload || !setup.workload->rendezvous()) return;
  throw InputError(setup.application_file, "/sends",
                   fmt::format("{} {}, and rendezvous sends leave in the order their receives are posted (a message "
                               "of another tag may overtake): set \"sends\": \"eager\" for {} (issue 17)",
                               protocol, why, protocol));
}

} // namespace ckptsim
