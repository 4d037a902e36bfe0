#include "sim/observe/oracle.hpp"

#include "sim/app/rng.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim {

HistoryMark::HistoryMark(std::shared_ptr<HistoryPins> p, NodeId process_, std::size_t position_)
    : pins(std::move(p))
    , process(process_)
    , position(position_) {
  pins->pinned[process][position]++;
}

HistoryMark::~HistoryMark() {
  auto& m = pins->pinned[process];
  auto it = m.find(position);
  if (--it->second == 0) m.erase(it);
}

void ConsistencyOracle::reset(int processes) {
  history_.assign(processes, {});
  base_.assign(processes, 0);
  sends_.assign(processes, {});
  deliveries_.assign(processes, {});
  promised_.assign(processes, {});
  folded_.assign(processes, {});
  out_.assign(processes, 0);
  in_.assign(processes, 0);
  restarted_.clear();
  pins_ = std::make_shared<HistoryPins>();
  pins_->pinned.resize(processes);
  found_.clear();
  since_fold_ = 0;
  fold_after_ = 0;
  folded_events_ = 0;
  peak_events_ = 0;
  fold_every_ = 0;
  next_fold_at();
}

std::uint64_t ConsistencyOracle::hash(NodeId src, std::uint64_t seq, NodeId dst, std::uint64_t digest) {
  // Well mixed: a sum of these is as good as a multiset's digest.
  return mix_seed(mix_seed(static_cast<std::uint64_t>(src), seq, static_cast<std::uint64_t>(dst)), digest);
}

std::shared_ptr<const HistoryMark> ConsistencyOracle::mark(NodeId process) {
  return std::make_shared<const HistoryMark>(pins_, process, position(process));
}

void ConsistencyOracle::on_send(NodeId src, std::uint64_t seq, NodeId dst, std::uint64_t digest) {
  promised_[src].erase(seq);
  // A settled number sent again re-executes it after a restart from the initial state; the
  // receiver may still hold the delivery (folded) or take it again: the sums compare. A second
  // kept send with the same number would be an engine bug (numbers are part of the application
  // state, so only a truncation can make a number available again): the first is kept.
  const bool summed = folded_[src].contains(seq);
  if (summed)
    out_[src] += hash(src, seq, dst, digest);
  else
    sends_[src].try_emplace(seq, SendRecord{dst, digest, position(src)});
  history_[src].push_back({true, summed, dst, seq, digest});
  note_event();
}

void ConsistencyOracle::on_deliver(NodeId dst, NodeId src, std::uint64_t seq, std::uint64_t digest) {
  // A settled number delivered again (a duplicate, or after the receiver restarted from its
  // initial state) or of a re-executed send: the sums compare.
  const bool summed = folded_[src].contains(seq);
  if (summed)
    in_[dst] += hash(src, seq, dst, digest);
  else
    deliveries_[dst].try_emplace(key(src, seq), DeliveryRecord{0, digest, position(dst)}).first->second.count++;
  history_[dst].push_back({false, summed, src, seq, digest});
  note_event();
}

void ConsistencyOracle::on_redeliver(NodeId dst, NodeId src, std::uint64_t seq, std::uint64_t digest) {
  auto it = deliveries_[dst].find(key(src, seq));
  if (it == deliveries_[dst].end()) {
    if (folded_[src].contains(seq)) return; // settled: its content is no longer kept to compare
    found_.push_back({fmt::format("message {}#{} is received again by process {}, which has no kept delivery of it",
                                  src, seq, dst)});
  } else if (it->second.digest != digest)
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

void ConsistencyOracle::truncate(NodeId process, std::size_t position) {
  promised_[process].clear(); // a rolled-back sender's promises are made again by its new restore
  if (position == 0 || position < base_[process]) {
    if (position != 0)
      found_.push_back({fmt::format("process {} was restored to position {} of its history, behind the part folded "
                                    "as beyond any rollback ({} events): a snapshot without its mark",
                                    process, position, base_[process])});
    restart_from_initial(process);
    return;
  }
  auto& h = history_[process];
  while (this->position(process) > position) {
    const Event& e = h.back();
    if (e.summed) {
      if (e.send)
        out_[process] -= hash(process, e.seq, e.peer, e.digest);
      else
        in_[process] -= hash(e.peer, e.seq, process, e.digest);
    } else if (e.send) {
      auto it = sends_[process].find(e.seq);
      if (it != sends_[process].end() && it->second.position == this->position(process) - 1) sends_[process].erase(it);
    } else {
      auto it = deliveries_[process].find(key(e.peer, e.seq));
      if (it != deliveries_[process].end() && --it->second.count == 0) deliveries_[process].erase(it);
    }
    h.pop_back();
  }
}

void ConsistencyOracle::restart_from_initial(NodeId process) {
  // Everything the process did goes, the folded part too: its sums held its own events only.
  if ((out_[process] != 0 || in_[process] != 0 || base_[process] != 0) && restarted_.size() < kRestartsNamed)
    restarted_.push_back(process);
  history_[process].clear();
  base_[process] = 0;
  sends_[process].clear();
  deliveries_[process].clear();
  out_[process] = 0;
  in_[process] = 0;
}

std::size_t ConsistencyOracle::kept_events() const {
  std::size_t total = 0;
  for (const auto& h : history_) total += h.size();
  return total;
}

} // namespace ckptsim
