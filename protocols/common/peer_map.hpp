/* Per-peer values in a sorted vector (Boost's flat_map): the same interface and the same key
 * order as std::map, but one block instead of a tree node per peer. Protocol states keep per-peer
 * counters that every checkpoint copies and every control message carrying them builds: with
 * std::map each copy cost one allocation per peer met, which made a run's cost per checkpoint
 * grow with the peers a node had met (issue 19). Inserting a new peer moves the ones above it:
 * rare, since a node meets each peer once. */
#pragma once

#include "sim/protocol/ids.hpp"

#include <boost/container/flat_map.hpp>

namespace ckptsim {

template <class V>
using PeerMap = boost::container::flat_map<NodeId, V>;

} // namespace ckptsim
