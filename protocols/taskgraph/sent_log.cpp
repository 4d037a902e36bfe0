#include "protocols/taskgraph/sent_log.hpp"

namespace ckptsim::taskgraph {

void SentLog::add(const AppMessage& m) {
  auto& msgs = by_dst_[m.dst];
  auto it = msgs.find(m.seq);
  if (it == msgs.end()) {
    entries_ += 1;
  } else {
    bytes_ -= it->second.size;
  }
  bytes_ += m.size;
  msgs.insert_or_assign(m.seq, m);
}

std::size_t SentLog::collect(NodeId dst, std::uint64_t point, const Points& points) {
  auto it = by_dst_.find(dst);
  if (it == by_dst_.end()) return 0;
  auto& msgs = it->second;
  std::size_t dropped = 0;
  // Tags ascend with versions: the covered messages are a prefix.
  while (!msgs.empty() && points.covered(static_cast<Tag>(msgs.begin()->first), point)) {
    bytes_ -= msgs.begin()->second.size;
    entries_ -= 1;
    msgs.erase(msgs.begin());
    dropped++;
  }
  return dropped;
}

std::vector<AppMessage> SentLog::uncovered(NodeId dst, std::uint64_t point, const Points& points) const {
  std::vector<AppMessage> out;
  auto it = by_dst_.find(dst);
  if (it == by_dst_.end()) return out;
  for (const auto& [tag, m] : it->second)
    if (!points.covered(static_cast<Tag>(tag), point)) out.push_back(m);
  return out;
}

std::vector<AppMessage> SentLog::all() const {
  std::vector<AppMessage> out;
  for (const auto& [dst, msgs] : by_dst_)
    for (const auto& [tag, m] : msgs) out.push_back(m);
  return out;
}

std::size_t SentLog::entries_to(NodeId dst) const {
  auto it = by_dst_.find(dst);
  return it == by_dst_.end() ? 0 : it->second.size();
}

} // namespace ckptsim::taskgraph
