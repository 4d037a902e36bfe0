#include "protocols/msglog/catchup.hpp"

namespace ckptsim::msglog {

const IndexSet* CatchUp::delivered(NodeId peer) const {
  auto it = delivered_.find(peer);
  return it == delivered_.end() ? nullptr : &it->second;
}

bool CatchUp::covered_by(const std::map<NodeId, IndexSet>& sent) const {
  static const IndexSet nothing;
  for (const auto& [q, delivered] : delivered_) {
    auto it = sent.find(q);
    if (!(it == sent.end() ? nothing : it->second).covers(delivered)) return false;
  }
  return true;
}

void CatchUp::record(NodeId peer, IndexSet delivered, std::uint64_t resent) {
  if (auto cap = caps_.find(peer); cap != caps_.end()) delivered = delivered.intersection(cap->second);
  delivered_[peer] = std::move(delivered);
  resent_ += resent;
}

void CatchUp::cap(NodeId peer, const IndexSet& kept) {
  auto [cap, fresh] = caps_.emplace(peer, kept);
  if (!fresh) cap->second = cap->second.intersection(kept);
  if (auto c = delivered_.find(peer); c != delivered_.end()) c->second = c->second.intersection(kept);
}

void CatchUp::reset() {
  delivered_.clear();
  caps_.clear();
  resent_ = 0;
}

} // namespace ckptsim::msglog
