#include "sim/storage/checkpoint_store.hpp"

#include <algorithm>
#include <utility>

namespace ckptsim {

void CheckpointStore::add(NodeId node, std::uint64_t number, Snapshot snapshot, double bytes, int level,
                          ErasureGroup group) {
  if (static_cast<std::size_t>(node) >= entries_.size()) entries_.resize(static_cast<std::size_t>(node) + 1);
  auto [it, fresh] = entries_[static_cast<std::size_t>(node)].try_emplace(number);
  if (fresh) held_++;
  Entry& e = it->second;
  share_lost(e, number); // a number saved again replaces its old content, and its old parity
  held_bytes_ += bytes - e.bytes;
  if (e.level == level) { // one sum, as before levels existed: the same rounding
    copies_changed(bytes - e.bytes * static_cast<double>(e.holders.size()), level);
  } else {
    copies_changed(-e.bytes * static_cast<double>(e.holders.size()), e.level);
    copies_changed(bytes, level);
  }
  e.snapshot = std::move(snapshot);
  e.bytes = bytes;
  e.holders = {node};
  e.level = level;
  e.group = group;
  e.encoded = false;
}

CheckpointStore::Entry* CheckpointStore::entry(NodeId node, std::uint64_t number) {
  return const_cast<Entry*>(std::as_const(*this).find(node, number));
}

void CheckpointStore::add_copy(NodeId node, std::uint64_t number, Holder holder) {
  Entry* e = entry(node, number);
  if (e && e->holders.insert(holder).second) copies_changed(e->bytes, e->level);
}

void CheckpointStore::encoded(NodeId node, std::uint64_t number) {
  Entry* e = entry(node, number);
  if (!e || e->group.size == 0 || e->share_alive) return;
  e->encoded = e->share_alive = true;
  shares_[{e->group.id, number}]++;
  copies_changed(e->group.share_bytes, e->level);
}

void CheckpointStore::reencoded(NodeId node, std::uint64_t number) {
  Entry* e = entry(node, number);
  if (e && e->encoded) encoded(node, number);
}

void CheckpointStore::share_lost(Entry& e, std::uint64_t number) {
  if (!e.share_alive) return;
  e.share_alive = false;
  auto it = shares_.find({e.group.id, number});
  if (--it->second == 0) shares_.erase(it);
  copies_changed(-e.group.share_bytes, e.level);
}

void CheckpointStore::drop(NodeId node, std::uint64_t number) {
  Entry* e = entry(node, number);
  if (!e) return;
  share_lost(*e, number);
  held_bytes_ -= e->bytes;
  copies_changed(-e->bytes * static_cast<double>(e->holders.size()), e->level);
  entries_[static_cast<std::size_t>(node)].erase(number);
  held_--;
}

void CheckpointStore::holder_failed(NodeId node) {
  for (auto& of_node : entries_)
    for (auto& [number, e] : of_node)
      if (e.holders.erase(node) > 0) copies_changed(-e.bytes, e.level);
  if (static_cast<std::size_t>(node) < entries_.size())
    for (auto& [number, e] : entries_[static_cast<std::size_t>(node)]) share_lost(e, number);
}

int CheckpointStore::shares_alive(int group, std::uint64_t number) const {
  auto it = shares_.find({group, number});
  return it == shares_.end() ? 0 : it->second;
}

bool CheckpointStore::restorable(NodeId node, std::uint64_t number) const {
  const Entry* e = find(node, number);
  if (!e) return false;
  if (!e->holders.empty()) return true;
  return e->encoded && shares_alive(e->group.id, number) >= e->group.size - e->group.parity;
}

void CheckpointStore::copies_changed(double delta, int level) {
  copy_bytes_ += delta;
  copy_bytes_max_ = std::max(copy_bytes_max_, copy_bytes_);
  if (level < 0) return;
  const auto l = static_cast<std::size_t>(level);
  if (l >= level_bytes_.size()) {
    level_bytes_.resize(l + 1, 0.0);
    level_bytes_max_.resize(l + 1, 0.0);
  }
  level_bytes_[l] += delta;
  level_bytes_max_[l] = std::max(level_bytes_max_[l], level_bytes_[l]);
}

const CheckpointStore::Entry* CheckpointStore::find(NodeId node, std::uint64_t number) const {
  if (node < 0 || static_cast<std::size_t>(node) >= entries_.size()) return nullptr;
  const auto& of_node = entries_[static_cast<std::size_t>(node)];
  auto it = of_node.find(number);
  return it == of_node.end() ? nullptr : &it->second;
}

} // namespace ckptsim
