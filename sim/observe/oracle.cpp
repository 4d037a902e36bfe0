#include "sim/observe/oracle.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim {

void ConsistencyOracle::reset(int processes) {
  history_.assign(processes, {});
  sends_.assign(processes, {});
  deliveries_.assign(processes, {});
  promised_.assign(processes, {});
  found_.clear();
}

void ConsistencyOracle::on_send(NodeId src, std::uint64_t seq, NodeId dst, std::uint64_t digest) {
  history_[src].push_back({true, dst, seq, digest});
  // A second kept send with the same number would be an engine bug (numbers are part of the
  // application state, so only a truncation can make a number available again): keep the first.
  sends_[src].try_emplace(seq, SendRecord{dst, digest});
  promised_[src].erase(seq);
}

void ConsistencyOracle::on_redeliver(NodeId dst, NodeId src, std::uint64_t seq, std::uint64_t digest) {
  auto it = deliveries_[dst].find(key(src, seq));
  if (it == deliveries_[dst].end())
    found_.push_back({fmt::format("message {}#{} is received again by process {}, which has no kept delivery of it",
                                  src, seq, dst)});
  else if (it->second.digest != digest)
    found_.push_back({fmt::format("message {}#{} received again by process {} differs from its kept delivery (content "
                                  "{:016x} vs {:016x}): the re-execution was not deterministic",
                                  src, seq, dst, digest, it->second.digest)});
}

void ConsistencyOracle::promise(NodeId src, std::uint64_t seq, NodeId dst) { promised_[src][seq] = dst; }

std::size_t ConsistencyOracle::open_promises() const {
  std::size_t n = 0;
  for (const auto& p : promised_) n += p.size();
  return n;
}

void ConsistencyOracle::on_deliver(NodeId dst, NodeId src, std::uint64_t seq, std::uint64_t digest) {
  history_[dst].push_back({false, src, seq, digest});
  auto [it, inserted] = deliveries_[dst].try_emplace(key(src, seq), DeliveryRecord{0, digest});
  it->second.count++;
}

void ConsistencyOracle::truncate(NodeId process, std::size_t position) {
  auto& h = history_[process];
  while (h.size() > position) {
    const Event& e = h.back();
    if (e.send) {
      sends_[process].erase(e.seq);
    } else {
      auto it = deliveries_[process].find(key(e.peer, e.seq));
      if (it != deliveries_[process].end() && --it->second.count == 0) deliveries_[process].erase(it);
    }
    h.pop_back();
  }
  promised_[process].clear(); // a rolled-back sender's promises are made again by its new restore
}

std::vector<Violation> ConsistencyOracle::check(bool final) {
  std::vector<Violation> out = std::move(found_);
  found_.clear();
  const auto n = static_cast<NodeId>(history_.size());
  for (NodeId dst = 0; dst < n; dst++) {
    for (const Event& e : history_[dst]) {
      if (e.send) continue;
      auto d = deliveries_[dst].find(key(e.peer, e.seq));
      if (d != deliveries_[dst].end() && d->second.count > 1)
        out.push_back({fmt::format("message {}#{} (from process {} to process {}) is delivered {} times in the kept "
                                   "execution",
                                   e.peer, e.seq, e.peer, dst, d->second.count)});
      auto s = sends_[e.peer].find(e.seq);
      if (s == sends_[e.peer].end()) {
        auto p = promised_[e.peer].find(e.seq);
        if (p != promised_[e.peer].end() && p->second == dst) continue; // its sender will send it again
      }
      if (s == sends_[e.peer].end())
        out.push_back({fmt::format("orphan message {}#{}: delivered to process {} but its send by process {} is not "
                                   "in the kept execution (undone by a rollback)",
                                   e.peer, e.seq, dst, e.peer)});
      else if (s->second.dst != dst || s->second.digest != e.digest)
        out.push_back({fmt::format("message {}#{} delivered to process {} differs from the kept send (to process {}, "
                                   "content {:016x} vs {:016x}): the re-execution was not deterministic",
                                   e.peer, e.seq, dst, s->second.dst, s->second.digest, e.digest)});
    }
  }
  if (final) {
    for (NodeId src = 0; src < n; src++)
      for (const auto& [seq, dst] : promised_[src])
        out.push_back({fmt::format("message {}#{} to process {}: its sender promised to execute the send again after a "
                                   "partial restart and never did",
                                   src, seq, dst)});
    for (NodeId src = 0; src < n; src++) {
      for (const Event& e : history_[src]) {
        if (!e.send) continue;
        if (!deliveries_[e.peer].count(key(src, e.seq)))
          out.push_back({fmt::format("lost message {}#{}: sent by process {} to process {} in the kept execution but "
                                     "never delivered",
                                     src, e.seq, src, e.peer)});
      }
    }
  }
  // Duplicate reports (one per delivery event) are folded.
  std::sort(out.begin(), out.end(), [](const Violation& a, const Violation& b) { return a.what < b.what; });
  out.erase(
      std::unique(out.begin(), out.end(), [](const Violation& a, const Violation& b) { return a.what == b.what; }),
      out.end());
  return out;
}

std::size_t ConsistencyOracle::kept_events() const {
  std::size_t total = 0;
  for (const auto& h : history_) total += h.size();
  return total;
}

} // namespace ckptsim
