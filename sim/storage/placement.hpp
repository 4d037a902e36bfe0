/* Where the stable-storage models put the remote copies of a node's checkpoint (SPEC 1). Plain
 * logic: "servers" (CCK): process i writes to server i mod s; "buddy" (HC3I): the next node of
 * the same cluster, cyclically (none in a one-node cluster). The local copy in the node's own
 * memory always exists as well. */
#pragma once

#include "sim/platform/layout.hpp"

#include <string>
#include <vector>

namespace ckptsim {

/** @brief Who holds a copy: a node (>= 0, in its memory) or checkpoint server k (-(k + 1)). */
using Holder = int;
inline Holder server_holder(int k) { return -(k + 1); }
inline bool is_server(Holder h) { return h < 0; }
inline int server_index(Holder h) { return -h - 1; }

std::vector<Holder> remote_holders(const std::string& model, NodeId node, const FederationLayout& layout, int servers);

} // namespace ckptsim
