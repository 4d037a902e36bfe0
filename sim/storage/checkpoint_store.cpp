#include "sim/storage/checkpoint_store.hpp"

namespace ckptsim {

void CheckpointStore::add(NodeId node, std::uint64_t number, Snapshot snapshot, double bytes) {
  Entry& e = entries_[{node, number}];
  held_bytes_ += bytes - e.bytes; // a number saved again replaces its old content
  e.snapshot = std::move(snapshot);
  e.bytes = bytes;
  e.holders = {node};
}

void CheckpointStore::add_copy(NodeId node, std::uint64_t number, Holder holder) {
  auto it = entries_.find({node, number});
  if (it != entries_.end()) it->second.holders.insert(holder);
}

void CheckpointStore::drop(NodeId node, std::uint64_t number) {
  auto it = entries_.find({node, number});
  if (it == entries_.end()) return;
  held_bytes_ -= it->second.bytes;
  entries_.erase(it);
}

void CheckpointStore::holder_failed(NodeId node) {
  for (auto& [key, e] : entries_) e.holders.erase(node);
}

const CheckpointStore::Entry* CheckpointStore::find(NodeId node, std::uint64_t number) const {
  auto it = entries_.find({node, number});
  return it == entries_.end() ? nullptr : &it->second;
}

} // namespace ckptsim
