#include "protocols/independent/line.hpp"

#include <algorithm>
#include <stdexcept>

namespace ckptsim::independent {

bool holds_orphan(const Deps& deps, const Line& restored) {
  for (std::size_t w = 0; w < deps.size() && w < restored.size(); w++)
    if (restored[w] && deps[w] >= 0 && deps[w] >= *restored[w]) return true;
  return false;
}

namespace {
// A unit's candidate: an index into its checkpoints (-1 = the implicit checkpoint 0), or
// kCurrent for its current state.
constexpr std::ptrdiff_t kCurrent = -2;

const Deps kNone{};

const Deps& deps_of(const UnitView& u, std::ptrdiff_t cand) {
  if (cand == kCurrent) return u.current;
  if (cand < 0) return kNone;
  return u.checkpoints[static_cast<std::size_t>(cand)].deps;
}

std::optional<std::int64_t> number_of(const UnitView& u, std::ptrdiff_t cand) {
  if (cand == kCurrent) return std::nullopt;
  if (cand < 0) return 0;
  return u.checkpoints[static_cast<std::size_t>(cand)].number;
}
} // namespace

LineResult recovery_line(const std::vector<UnitView>& units) {
  const std::size_t n = units.size();
  std::vector<std::ptrdiff_t> cand(n);
  LineResult r;
  r.restored.resize(n);
  for (std::size_t u = 0; u < n; u++) {
    for (std::size_t k = 1; k < units[u].checkpoints.size(); k++)
      if (units[u].checkpoints[k].number <= units[u].checkpoints[k - 1].number)
        throw std::logic_error("recovery_line: checkpoints must be listed oldest first");
    cand[u] = units[u].failed ? static_cast<std::ptrdiff_t>(units[u].checkpoints.size()) - 1 : kCurrent;
    r.restored[u] = number_of(units[u], cand[u]);
  }
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t u = 0; u < n; u++) {
      if (!holds_orphan(deps_of(units[u], cand[u]), r.restored)) continue;
      std::ptrdiff_t k =
          cand[u] == kCurrent ? static_cast<std::ptrdiff_t>(units[u].checkpoints.size()) - 1 : cand[u] - 1;
      while (k >= 0 && holds_orphan(deps_of(units[u], k), r.restored)) k--;
      cand[u] = std::max<std::ptrdiff_t>(k, -1);
      r.restored[u] = number_of(units[u], cand[u]);
      moved = true;
    }
  }
  r.rolled_over.assign(n, 0);
  r.to_initial.assign(n, false);
  for (std::size_t u = 0; u < n; u++) {
    if (!r.restored[u]) continue;
    for (const auto& c : units[u].checkpoints) r.rolled_over[u] += c.number > *r.restored[u] ? 1 : 0;
    r.to_initial[u] = *r.restored[u] == 0;
  }
  return r;
}

LineResult gc_line(std::vector<UnitView> units) {
  for (auto& u : units) u.failed = true;
  return recovery_line(units);
}

int LineResult::units_rolled_back() const {
  return static_cast<int>(std::count_if(restored.begin(), restored.end(), [](const auto& r) { return r.has_value(); }));
}

int LineResult::total_rolled_over() const {
  int s = 0;
  for (int v : rolled_over) s += v;
  return s;
}

int LineResult::max_depth() const {
  return rolled_over.empty() ? 0 : *std::max_element(rolled_over.begin(), rolled_over.end());
}

int LineResult::units_to_initial() const {
  return static_cast<int>(std::count(to_initial.begin(), to_initial.end(), true));
}

} // namespace ckptsim::independent
