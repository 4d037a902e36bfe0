#include "sim/config/nearest.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace ckptsim {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  // Optimal string alignment: Levenshtein plus the swap of two neighbours ("sede" for "seed"), the
  // commonest typing slip, over three rows.
  std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); i++) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); j++) {
      const bool same = lower(a[i - 1]) == lower(b[j - 1]);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::optional<std::string> nearest_name(std::string_view typed, const std::vector<std::string>& known) {
  const std::size_t allowed = typed.size() <= 4 ? 1 : typed.size() <= 8 ? 2 : 3;
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  for (const auto& name : known) {
    const std::size_t d = edit_distance(typed, name);
    if (d < best_distance && d < std::max(typed.size(), name.size())) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean_head(std::string_view typed, const std::vector<std::string>& known) {
  auto n = nearest_name(typed, known);
  return n ? "did you mean \"" + *n + "\"? " : "";
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known, std::string_view prefix) {
  auto n = nearest_name(typed, known);
  return n ? " (did you mean \"" + std::string(prefix) + *n + "\"?)" : "";
}

} // namespace ckptsim
