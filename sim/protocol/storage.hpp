/* Contract (see protocol.hpp): what a protocol may ask of the storage placement while it is set up,
 * answered from the storage models' registry (sim/storage/protocol_queries.cpp) without reaching a
 * model's folder: how many saves of a node to keep, and on which nodes a model puts a node's copies.
 * Saving and loading go through NodeContext (save_checkpoint, load_checkpoint...), which uses the
 * model each cluster actually has. */
#pragma once

#include "sim/protocol/protocol.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief How many saves of a node a protocol restoring a global line should keep: the largest
 *  depth of the storage models the clusters use (a common line needs every node's save), 1 for a
 *  model that keeps one. @p default_model is the protocol's (ProtocolModule::default_storage),
 *  used where the topology names none. */
int storage_depth(const ProtocolSetup& setup, const std::string& default_model);

/** @brief The saves a protocol restoring the newest line it can (StorageUse::NewestLine) keeps when
 *  its newest complete save is @p newest, newest first, 0 (the initial state) when reached: the
 *  last storage_depth() numbers, or what the storage models in use keep (a multi-level model: the
 *  newest save of each level). */
using KeptSaves = std::function<std::vector<std::uint64_t>(std::uint64_t newest)>;
KeptSaves storage_kept(const ProtocolSetup& setup, const std::string& default_model);

/** @brief The nodes in whose memory storage model @p model puts the remote copies of checkpoint
 *  @p number of @p node, in the model's order; empty when the model puts none on a node (a
 *  one-node cluster under "buddy", the checkpoint servers of "servers"). std::invalid_argument
 *  when no model is named @p model (a protocol naming a model that does not exist: a bug). */
std::vector<NodeId> storage_holder_nodes(const ProtocolSetup& setup, const std::string& model, NodeId node,
                                         std::uint64_t number);

} // namespace ckptsim
