#include "protocols/msglog/replay.hpp"

#include <map>
#include <set>

namespace ckptsim::msglog {

void Replay::begin(NodeContext& ctx, FailureId failure, std::uint64_t checkpoint) {
  const std::uint64_t rsn = exec_.state().rsn;
  std::set<std::uint64_t> from_logger;
  std::map<std::uint64_t, Det> all;
  for (const Det& d : logger_dets_) {
    if (d.rsn <= rsn) continue;
    all.emplace(d.rsn, d);
    from_logger.insert(d.rsn);
  }
  for (const Det& d : peer_dets_)
    if (d.owner == id_.self() && d.rsn > rsn) all.emplace(d.rsn, d);
  // The replay is the longest run of consecutive delivery numbers after the checkpoint.
  std::uint64_t next = rsn + 1, peers = 0;
  for (const auto& [r, d] : all) {
    if (r != next) break;
    queue_.push_back(d);
    peers += from_logger.count(r) ? 0 : 1;
    next++;
  }
  started_ = true;
  ctx.stats().add("msglog.replay_from_peers", static_cast<double>(peers));
  ctx.trace_event(0, "replay_begin",
                  {{"failure", failure},
                   {"checkpoint", checkpoint},
                   {"rsn", rsn},
                   {"determinants", queue_.size()},
                   {"from_logger", queue_.size() - peers},
                   {"from_peers", peers}});
  if (queue_.empty()) ctx.trace_event(0, "replay_end", {{"failure", failure}, {"rsn", rsn}, {"replayed", 0}});
}

void Replay::pop(NodeContext& ctx) {
  const Det d = queue_.front();
  queue_.pop_front();
  replayed_++;
  ctx.stats().add("msglog.replayed");
  ctx.trace_event(1, "replay_deliver", {{"src", d.src}, {"idx", d.idx}, {"rsn", d.rsn}});
}

void Replay::trace_end(NodeContext& ctx, FailureId failure) const {
  ctx.trace_event(0, "replay_end", {{"failure", failure}, {"rsn", exec_.state().rsn}, {"replayed", replayed_}});
}

void Replay::truncate(std::uint64_t target) {
  while (!queue_.empty() && queue_.back().rsn > target) queue_.pop_back();
}

void Replay::reset() {
  logger_dets_.clear();
  peer_dets_.clear();
  started_ = false;
  replayed_ = 0;
}

} // namespace ckptsim::msglog
