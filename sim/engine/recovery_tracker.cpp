#include "sim/engine/recovery_tracker.hpp"

#include <algorithm>

namespace ckptsim {

bool Recovery::struck(NodeId n) const { return std::find(victims.begin(), victims.end(), n) != victims.end(); }

bool node_back_due(const Recovery& rec, bool victims_up) {
  return !rec.back_sent && rec.restarted() && rec.detected && rec.notices.empty() && victims_up;
}

bool recovery_over(const Recovery& rec, const RecoveryRules& rules, bool quiescent) {
  return !rec.done && rec.back_sent && rec.to_report.empty() && (!rules.needs_quiescence || quiescent);
}

std::vector<FailureId> RecoveryTracker::open_ids() const {
  std::vector<FailureId> out;
  for (const auto& [id, rec] : recoveries_)
    if (!rec.done) out.push_back(id);
  return out;
}

std::optional<FailureId> RecoveryTracker::open_after(FailureId id) const {
  for (auto it = recoveries_.upper_bound(id); it != recoveries_.end(); ++it)
    if (!it->second.done) return it->first;
  return std::nullopt;
}

bool RecoveryTracker::awaiting_detection() const { return undetected_ > 0; }

FailureId RecoveryTracker::strike(const std::vector<NodeId>& victims, double date,
                                  const std::vector<NodeId>& reporters) {
  const FailureId id = next_++;
  undetected_++;
  Recovery& rec = recoveries_[id] = Recovery{.victims = victims, .date = date};
  rec.down.insert(victims.begin(), victims.end());
  if (rules_.nodes_report) rec.to_report.insert(reporters.begin(), reporters.end());
  open_++;
  for (auto& [rid, other] : recoveries_)
    for (NodeId victim : victims) {
      other.notices.erase(victim); // it will never process the notices sent to it
      if (rid == id) continue;
      // It failed again before everybody could be told it was back: its part of that older
      // failure is settled by the restart of its next incarnation (restart_complete).
      if (other.struck(victim) && !other.back_sent) other.down.insert(victim);
      other.to_report.erase(victim); // its restart reports for it
    }
  if (rules_.nodes_report) rec.to_report.insert(victims.begin(), victims.end());
  return id;
}

void RecoveryTracker::detect(FailureId id) {
  Recovery& rec = recoveries_.at(id);
  if (!rec.detected && !rec.done) undetected_--;
  rec.detected = true;
  latest_detected_ = std::max(latest_detected_, id);
}

void RecoveryTracker::restarting(FailureId id, NodeId victim) {
  // Failures that struck while it was down: it rolls back for them too once restarted (the
  // coordinator's answer to its RESTARTED), so their recoveries wait for its report as well.
  if (!rules_.nodes_report) return;
  for (auto& [rid, other] : recoveries_)
    if (rid > id && !other.done) other.to_report.insert(victim);
}

std::vector<FailureId> RecoveryTracker::not_back(FailureId except) const {
  std::vector<FailureId> out;
  for (const auto& [id, rec] : recoveries_)
    if (id != except && rec.detected && !rec.back_sent) out.push_back(id);
  return out;
}

bool RecoveryTracker::notice_processed(FailureId id, NodeId node) {
  auto it = recoveries_.find(id);
  if (it == recoveries_.end()) return false;
  it->second.notices.erase(node);
  return true;
}

std::vector<FailureId> RecoveryTracker::restart_complete(FailureId id, NodeId node) {
  std::vector<FailureId> touched;
  for (auto& [rid, rec] : recoveries_)
    if (rid <= id && rec.down.erase(node)) touched.push_back(rid);
  return touched;
}

std::vector<FailureId> RecoveryTracker::node_recovered(FailureId up_to, NodeId node) {
  std::vector<FailureId> touched;
  for (auto& [rid, rec] : recoveries_)
    if (rid <= up_to && !rec.done && rec.to_report.erase(node)) touched.push_back(rid);
  return touched;
}

void RecoveryTracker::node_rolled_back(NodeId node) {
  for (auto& [id, rec] : recoveries_)
    if (!rec.done) rec.rolled_back.insert(node);
}

bool RecoveryTracker::send_back_now(FailureId id, bool victims_up) {
  Recovery& rec = recoveries_.at(id);
  if (!node_back_due(rec, victims_up)) return false;
  rec.back_sent = true;
  return true;
}

bool RecoveryTracker::end_now(FailureId id, bool quiescent) {
  Recovery& rec = recoveries_.at(id);
  if (!recovery_over(rec, rules_, quiescent)) return false;
  if (!rec.detected) undetected_--;
  rec.done = true;
  open_--;
  return true;
}

} // namespace ckptsim
