/* The oracle's check of the kept execution (oracle.hpp): message by message for the unfolded
 * histories, as a whole (the sums) for the folded part at the end. */
#include "sim/observe/oracle.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim {

std::vector<Violation> ConsistencyOracle::check(bool final) {
  std::vector<Violation> out = std::move(found_);
  found_.clear();
  const auto n = static_cast<NodeId>(history_.size());
  for (NodeId dst = 0; dst < n; dst++) {
    for (const Event& e : history_[dst]) {
      if (e.send || e.summed) continue;
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
      if (s == sends_[e.peer].end() && folded_[e.peer].contains(e.seq))
        out.push_back({fmt::format("message {}#{} delivered to process {} was settled with its delivery to another "
                                   "process: it is delivered twice in the kept execution",
                                   e.peer, e.seq, dst)});
      else if (s == sends_[e.peer].end())
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
        if (!e.send || e.summed) continue;
        if (!deliveries_[e.peer].count(key(src, e.seq)))
          out.push_back({fmt::format("lost message {}#{}: sent by process {} to process {} in the kept execution but "
                                     "never delivered",
                                     src, e.seq, src, e.peer)});
      }
    }
    check_sums(out);
  }
  // Duplicate reports (one per delivery event) are folded.
  std::sort(out.begin(), out.end(), [](const Violation& a, const Violation& b) { return a.what < b.what; });
  out.erase(
      std::unique(out.begin(), out.end(), [](const Violation& a, const Violation& b) { return a.what == b.what; }),
      out.end());
  return out;
}

void ConsistencyOracle::check_sums(std::vector<Violation>& out) const {
  // Every settled message added its hash once at each end; what was undone at one end since
  // (a restart from the initial state) must have been re-executed, or delivered again, alike.
  std::uint64_t balance = 0;
  for (std::size_t p = 0; p < out_.size(); p++) balance += out_[p] - in_[p];
  if (balance == 0) return;
  std::string who;
  for (NodeId p : restarted_) who += (who.empty() ? "" : ", ") + std::to_string(p);
  out.push_back({fmt::format("the folded history does not balance: a message settled behind the processes' oldest "
                             "restorable states was undone at one end only (never sent or delivered again after a "
                             "restart from the initial state), delivered twice, or re-executed with other content "
                             "(processes restarted from the initial state across folded history: {})",
                             who.empty() ? "none" : who)});
}

} // namespace ckptsim
