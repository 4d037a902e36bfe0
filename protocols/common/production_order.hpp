/* A guard for protocols that expect a sender's messages to a node to arrive in the order the
 * application produced them (hc3i dedupes re-sends by the highest sequence number delivered per
 * sender; msglog numbers a channel's messages as they leave). A rendezvous application
 * (Workload::rendezvous: an mpi-trace with SMPI's semantics) lets a message leave when its
 * receive is posted, so another tag's later message may leave first, which such a protocol takes
 * for a duplicate (a hang) or replays in another order (lost or doubled deliveries). Until they
 * accept that order, they refuse the combination with an input error. */
#pragma once

#include "sim/protocol/protocol.hpp"

namespace ckptsim {

/** @brief InputError at the application's "/sends" when its workload has rendezvous sends. */
void refuse_rendezvous_sends(const ProtocolSetup& setup, const std::string& protocol, const std::string& why);

} // namespace ckptsim
