#include "protocols/hc3i/ddv.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace ckptsim::hc3i {

SharedDdv::SharedDdv() {
  static const auto empty = std::make_shared<const Ddv>();
  v_ = empty;
}

SharedDdv::SharedDdv(Ddv v)
    : v_(std::make_shared<const Ddv>(std::move(v))) {}

void to_json(nlohmann::ordered_json& j, const SharedDdv& d) { j = d.get(); }

SharedDdv DdvPool::intern(Ddv v) {
  std::size_t h = v.size();
  for (Sn x : v) h ^= std::hash<Sn>{}(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  auto& bucket = by_hash_[h];
  std::erase_if(bucket, [](const auto& w) { return w.expired(); });
  for (const auto& w : bucket)
    if (auto p = w.lock(); *p == v) return SharedDdv(std::move(p));
  auto p = std::make_shared<const Ddv>(std::move(v));
  bucket.push_back(p);
  // Buckets of values nobody interns again keep their expired entries: swept now and then.
  if (++since_sweep_ >= 4 * by_hash_.size() + 1024) {
    since_sweep_ = 0;
    for (auto it = by_hash_.begin(); it != by_hash_.end();) {
      std::erase_if(it->second, [](const auto& w) { return w.expired(); });
      it = it->second.empty() ? by_hash_.erase(it) : std::next(it);
    }
  }
  return SharedDdv(std::move(p));
}

bool needs_forced_clc(const Ddv& ddv, int from, Sn s) { return s > ddv.at(static_cast<std::size_t>(from)); }

std::optional<Sn> rollback_target(const ClcList& clcs, const Ddv& current, int f, Sn s) {
  const auto fi = static_cast<std::size_t>(f);
  if (current.at(fi) < s) return std::nullopt;
  for (const auto& clc : clcs)
    if (clc.ddv.at(fi) >= s) return clc.sn;
  // The current DDV is the last CLC's, so a CLC qualifies whenever it does; a garbage collector
  // that removed it would have broken its own invariant.
  throw std::logic_error(fmt::format("hc3i: no stored CLC has DDV[{}] >= {} although the DDV says so", f, s));
}

Ddv restored_dependencies(const ClcList& clcs, Sn sn, std::size_t clusters) {
  for (std::size_t i = 0; i < clcs.size(); i++) {
    if (clcs[i].sn != sn) continue;
    if (!clcs[i].base.empty()) return clcs[i].base;
    return i > 0 ? clcs[i - 1].ddv.get() : Ddv(clusters, 0);
  }
  return Ddv(clusters, 0); // the initial state
}

RecoveryLine recovery_line(std::vector<ClcList> lists, int failed) {
  const int n = static_cast<int>(lists.size());
  RecoveryLine line;
  line.rolled_to.assign(lists.size(), std::nullopt);
  std::vector<Ddv> current;
  for (const auto& l : lists) current.push_back(l.empty() ? Ddv(lists.size(), 0) : l.back().ddv.get());
  auto roll = [&](int c, Sn to) {
    auto& l = lists[static_cast<std::size_t>(c)];
    current[static_cast<std::size_t>(c)] = restored_dependencies(l, to, lists.size());
    std::erase_if(l, [to](const StoredClc& clc) { return clc.sn > to; });
    auto& r = line.rolled_to[static_cast<std::size_t>(c)];
    r = r ? std::min(*r, to) : to;
  };
  struct Alert {
    int from;
    Sn s;
  };
  std::deque<Alert> alerts;
  const auto& fl = lists[static_cast<std::size_t>(failed)];
  const Sn last = fl.empty() ? 0 : fl.back().sn;
  roll(failed, last);
  alerts.push_back({failed, alert_value(last)});
  while (!alerts.empty()) {
    const Alert a = alerts.front();
    alerts.pop_front();
    for (int c = 0; c < n; c++) {
      if (c == a.from) continue;
      const auto target =
          rollback_target(lists[static_cast<std::size_t>(c)], current[static_cast<std::size_t>(c)], a.from, a.s);
      line.steps.push_back({c, a.from, a.s, target});
      if (!target) continue;
      roll(c, *target);
      alerts.push_back({c, alert_value(*target)});
    }
  }
  return line;
}

std::vector<Sn> worst_sns(const std::vector<ClcList>& lists) {
  std::vector<Sn> worst;
  for (const auto& l : lists) worst.push_back(l.empty() ? 0 : l.back().sn);
  for (int f = 0; f < static_cast<int>(lists.size()); f++) {
    const auto line = recovery_line(lists, f);
    for (std::size_t c = 0; c < lists.size(); c++)
      if (line.rolled_to[c]) worst[c] = std::min(worst[c], *line.rolled_to[c]);
  }
  return worst;
}

std::string to_string(const Ddv& ddv) { return fmt::format("[{}]", fmt::join(ddv, ",")); }

} // namespace ckptsim::hc3i
