/* The "buddy" storage model (HC3I): a node's remote copy goes to the memory of the next node of
 * its cluster, cyclically (c0-3 keeps c0-2's copy, the first node the last's); a one-node cluster
 * has none. */
#pragma once

#include "sim/platform/layout.hpp"
#include "sim/storage/placement.hpp"

#include <vector>

namespace ckptsim {

/** @brief The buddy of @p node (the next node of its cluster), or none in a one-node cluster. */
std::vector<Holder> buddy_holders(NodeId node, const FederationLayout& layout);

} // namespace ckptsim
