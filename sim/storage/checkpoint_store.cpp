#include "sim/storage/checkpoint_store.hpp"

namespace ckptsim {

void CheckpointStore::add(NodeId node, std::uint64_t number, Snapshot snapshot, double bytes) {
  Entry& e = entries_[{node, number}];
  e.snapshot = std::move(snapshot);
  e.bytes = bytes;
  e.holders = {node};
}

void CheckpointStore::add_copy(NodeId node, std::uint64_t number, Holder holder) {
  auto it = entries_.find({node, number});
  if (it != entries_.end()) it->second.holders.insert(holder);
}

void CheckpointStore::drop(NodeId node, std::uint64_t number) { entries_.erase({node, number}); }

void CheckpointStore::holder_failed(NodeId node) {
  for (auto& [key, e] : entries_) e.holders.erase(node);
}

const CheckpointStore::Entry* CheckpointStore::find(NodeId node, std::uint64_t number) const {
  auto it = entries_.find({node, number});
  return it == entries_.end() ? nullptr : &it->second;
}

} // namespace ckptsim
