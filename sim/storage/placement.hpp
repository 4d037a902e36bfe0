/* Where the stable-storage models put the remote copies of a node's checkpoint (SPEC 1). Plain
 * logic: "servers" (CCK): process i writes to server i mod s; "buddy" (HC3I): the next node of
 * the same cluster, cyclically (none in a one-node cluster); "replicated" (Bondarenko-Iakobovski):
 * DF nodes of the same cluster given by the receiver formula, which depends on the checkpoint
 * number (sim/storage/replicated.hpp). The local copy in the node's own memory always exists as
 * well. */
#pragma once

#include "sim/platform/layout.hpp"
#include "sim/storage/replicated.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief Who holds a copy: a node (>= 0, in its memory) or checkpoint server k (-(k + 1)). */
using Holder = int;
inline Holder server_holder(int k) { return -(k + 1); }
inline bool is_server(Holder h) { return h < 0; }
inline int server_index(Holder h) { return -h - 1; }

/** @brief The remote holders of checkpoint @p number of @p node under storage model @p model. */
std::vector<Holder> remote_holders(const std::string& model, NodeId node, std::uint64_t number,
                                   const FederationLayout& layout, int servers, const replicated::Scheme& scheme);

/** @brief How many saves of a node a protocol restoring a global line should keep: the largest
 *  SD of the clusters using "replicated" (a common line needs every node's save), 1 otherwise.
 *  @p default_model is the protocol's model when the topology names none. */
int storage_depth(const Topology& topology, const std::string& default_model);

} // namespace ckptsim
