#include "sim/storage/checkpoint_store.hpp"

#include <algorithm>
#include <utility>

namespace ckptsim {

void CheckpointStore::add(NodeId node, std::uint64_t number, Snapshot snapshot, double bytes) {
  if (static_cast<std::size_t>(node) >= entries_.size()) entries_.resize(static_cast<std::size_t>(node) + 1);
  auto [it, fresh] = entries_[static_cast<std::size_t>(node)].try_emplace(number);
  if (fresh) held_++;
  Entry& e = it->second;
  held_bytes_ += bytes - e.bytes; // a number saved again replaces its old content
  copies_changed(bytes - e.bytes * static_cast<double>(e.holders.size()));
  e.snapshot = std::move(snapshot);
  e.bytes = bytes;
  e.holders = {node};
}

CheckpointStore::Entry* CheckpointStore::entry(NodeId node, std::uint64_t number) {
  return const_cast<Entry*>(std::as_const(*this).find(node, number));
}

void CheckpointStore::add_copy(NodeId node, std::uint64_t number, Holder holder) {
  Entry* e = entry(node, number);
  if (e && e->holders.insert(holder).second) copies_changed(e->bytes);
}

void CheckpointStore::drop(NodeId node, std::uint64_t number) {
  Entry* e = entry(node, number);
  if (!e) return;
  held_bytes_ -= e->bytes;
  copies_changed(-e->bytes * static_cast<double>(e->holders.size()));
  entries_[static_cast<std::size_t>(node)].erase(number);
  held_--;
}

void CheckpointStore::holder_failed(NodeId node) {
  for (auto& of_node : entries_)
    for (auto& [number, e] : of_node)
      if (e.holders.erase(node) > 0) copies_changed(-e.bytes);
}

void CheckpointStore::copies_changed(double delta) {
  copy_bytes_ += delta;
  copy_bytes_max_ = std::max(copy_bytes_max_, copy_bytes_);
}

const CheckpointStore::Entry* CheckpointStore::find(NodeId node, std::uint64_t number) const {
  if (node < 0 || static_cast<std::size_t>(node) >= entries_.size()) return nullptr;
  const auto& of_node = entries_[static_cast<std::size_t>(node)];
  auto it = of_node.find(number);
  return it == of_node.end() ? nullptr : &it->second;
}

} // namespace ckptsim
