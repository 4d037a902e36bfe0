#include "sim/storage/checkpoint_store.hpp"

#include <algorithm>

namespace ckptsim {

void CheckpointStore::add(NodeId node, std::uint64_t number, Snapshot snapshot, double bytes) {
  Entry& e = entries_[{node, number}];
  held_bytes_ += bytes - e.bytes; // a number saved again replaces its old content
  copies_changed(bytes - e.bytes * static_cast<double>(e.holders.size()));
  e.snapshot = std::move(snapshot);
  e.bytes = bytes;
  e.holders = {node};
}

void CheckpointStore::add_copy(NodeId node, std::uint64_t number, Holder holder) {
  auto it = entries_.find({node, number});
  if (it != entries_.end() && it->second.holders.insert(holder).second) copies_changed(it->second.bytes);
}

void CheckpointStore::drop(NodeId node, std::uint64_t number) {
  auto it = entries_.find({node, number});
  if (it == entries_.end()) return;
  held_bytes_ -= it->second.bytes;
  copies_changed(-it->second.bytes * static_cast<double>(it->second.holders.size()));
  entries_.erase(it);
}

void CheckpointStore::holder_failed(NodeId node) {
  for (auto& [key, e] : entries_)
    if (e.holders.erase(node) > 0) copies_changed(-e.bytes);
}

void CheckpointStore::copies_changed(double delta) {
  copy_bytes_ += delta;
  copy_bytes_max_ = std::max(copy_bytes_max_, copy_bytes_);
}

const CheckpointStore::Entry* CheckpointStore::find(NodeId node, std::uint64_t number) const {
  auto it = entries_.find({node, number});
  return it == entries_.end() ? nullptr : &it->second;
}

} // namespace ckptsim
