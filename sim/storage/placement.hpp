/* Who holds the copies of a node's checkpoint (SPEC 1): the node's own memory always, and the
 * remote holders its storage model chooses (sim/storage/model.hpp; the models are servers/,
 * buddy/ and replicated/): other nodes' memories or checkpoint servers. */
#pragma once

#include "sim/platform/layout.hpp"

#include <string>

namespace ckptsim {

/** @brief Who holds a copy: a node (>= 0, in its memory) or checkpoint server k (-(k + 1)). */
using Holder = int;
inline Holder server_holder(int k) { return -(k + 1); }
inline bool is_server(Holder h) { return h < 0; }
inline int server_index(Holder h) { return -h - 1; }

/** @brief An erasure-coded group (a multi-level model's "xor" or "rs" level): its members' saves of
 *  one number are restorable while `size - parity` members still hold their share of the parity. */
struct ErasureGroup {
  int id = -1;            // the model's number for the group, unique in the run
  int size = 0;           // members; 0: the save is in no group
  int parity = 0;         // lost members it survives
  double share_bytes = 0; // parity each member holds for one save
};

/** @brief How many saves of a node a protocol restoring a global line should keep: the largest
 *  depth of the models the clusters use (a common line needs every node's save), 1 for a model
 *  that keeps one. @p default_model is the protocol's model when the topology names none. */
int storage_depth(const Topology& topology, const std::string& default_model);

} // namespace ckptsim
