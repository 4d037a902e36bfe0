/* The oracle's folding (oracle.hpp): settles the messages whose two ends lie behind their
 * processes' floors, and drops the settled events off the front of each history. */
#include "sim/observe/oracle.hpp"

#include <algorithm>

namespace ckptsim {

std::size_t ConsistencyOracle::floor(NodeId process) const {
  const auto& m = pins_->pinned[process];
  const std::size_t now = position(process);
  // A mark from before a restart from the initial state may stand above the current position.
  return m.empty() ? now : std::min(now, m.begin()->first);
}

void ConsistencyOracle::note_event() {
  if (++since_fold_ >= fold_after_) fold();
}

void ConsistencyOracle::next_fold_at() {
  // Amortised: a fold costs O(processes + what it drops + one blocked event per process).
  since_fold_ = 0;
  fold_after_ = fold_every_ > 0 ? fold_every_ : std::max({kMinFoldEvents, history_.size(), kept_events()});
}

void ConsistencyOracle::fold_every(std::size_t events) {
  fold_every_ = events;
  next_fold_at();
}

void ConsistencyOracle::settle(NodeId src, std::uint64_t seq, NodeId dst, std::uint64_t digest) {
  const std::uint64_t h = hash(src, seq, dst, digest);
  out_[src] += h;
  in_[dst] += h;
  folded_[src].insert(seq);
  sends_[src].erase(seq);
  deliveries_[dst].erase(key(src, seq));
}

bool ConsistencyOracle::try_settle(NodeId p, std::size_t index, const std::vector<std::size_t>& floors) {
  const Event& e = history_[p][index];
  const NodeId src = e.send ? p : e.peer;
  const NodeId dst = e.send ? e.peer : p;
  auto s = sends_[src].find(e.seq);
  auto d = deliveries_[dst].find(key(src, e.seq));
  if (s == sends_[src].end() || d == deliveries_[dst].end()) return false; // in flight, or an orphan (perhaps promised)
  const SendRecord& sent = s->second;
  const DeliveryRecord& got = d->second;
  if ((e.send ? sent.position : got.position) != base_[p] + index) return false;    // a second send or delivery of it
  if (got.count != 1 || sent.dst != dst || sent.digest != got.digest) return false; // delivered twice, or otherwise
  if (sent.position >= floors[src] || got.position >= floors[dst]) return false;    // an end may still be undone
  history_[src][sent.position - base_[src]].summed = true;
  history_[dst][got.position - base_[dst]].summed = true;
  settle(src, e.seq, dst, e.digest);
  return true;
}

void ConsistencyOracle::fold() {
  peak_events_ = std::max(peak_events_, kept_events());
  const auto n = static_cast<NodeId>(history_.size());
  std::vector<std::size_t> floors(n);
  for (NodeId p = 0; p < n; p++) floors[p] = floor(p);
  for (NodeId p = 0; p < n; p++) {
    auto& h = history_[p];
    // Indices stay relative to base_[p] until the prefix is erased at once (a vector, not a
    // deque: an empty std::deque allocates ~600 bytes, 60 MB at 100,000 processes).
    std::size_t i = 0;
    while (i < h.size() && base_[p] + i < floors[p]) {
      if (!h[i].summed && !try_settle(p, i, floors)) break;
      i++;
    }
    if (i == 0) continue;
    h.erase(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(i));
    base_[p] += i;
    folded_events_ += i;
  }
  next_fold_at();
}

std::size_t ConsistencyOracle::peak_events() const { return std::max(peak_events_, kept_events()); }

} // namespace ckptsim
