#include "sim/storage/replicated/scheme.hpp"

#include <fmt/format.h>

#include <limits>

namespace ckptsim::replicated {

namespace {
// DF^e mod n by repeated multiplication: e < SD is small, and every product stays below n^2.
std::uint64_t pow_mod(std::uint64_t base, std::uint64_t e, std::uint64_t n) {
  std::uint64_t r = 1 % n;
  for (std::uint64_t t = 0; t < e; t++) r = r * (base % n) % n;
  return r;
}
} // namespace

int receiver(int i, int j, std::uint64_t k, const Scheme& s, int n) {
  const auto nn = static_cast<std::uint64_t>(n);
  const std::uint64_t r = k % static_cast<std::uint64_t>(s.depth);
  const std::uint64_t v = (static_cast<std::uint64_t>(i) % nn +
                           static_cast<std::uint64_t>(j) % nn * pow_mod(s.copies, r, nn) % nn + r % nn) %
                          nn;
  return static_cast<int>(v);
}

std::vector<int> receivers(int i, std::uint64_t k, const Scheme& s, int n) {
  std::vector<int> out;
  for (int j = 1; j <= s.copies; j++) out.push_back(receiver(i, j, k, s, n));
  return out;
}

int mnf(const Scheme& s) { return (s.copies - 1) * s.depth + 1; }

std::uint64_t guarantee_nodes(const Scheme& s) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max() / 2;
  std::uint64_t p = 1;
  for (int t = 0; t < s.depth; t++) {
    if (p > kMax / static_cast<std::uint64_t>(s.copies)) return kMax;
    p *= static_cast<std::uint64_t>(s.copies);
  }
  return p + static_cast<std::uint64_t>(s.depth);
}

bool guarantee_holds(const Scheme& s, int n) { return static_cast<std::uint64_t>(n) >= guarantee_nodes(s); }

std::optional<std::string> placement_problem(const Scheme& s, int n) {
  // receiver(i, j, k) - i does not depend on i: node 0 stands for every node.
  for (int r = 0; r < s.depth; r++) {
    std::set<int> seen;
    for (int j = 1; j <= s.copies; j++) {
      const int to = receiver(0, j, static_cast<std::uint64_t>(r), s, n);
      if (to == 0)
        return fmt::format("with DF = {} copies and SD = {} on {} nodes, the saves with k mod SD = {} would put copy "
                           "j = {} on the node itself (offset j*DF^{}+{} is a multiple of {})",
                           s.copies, s.depth, n, r, j, r, r, n);
      if (!seen.insert(to).second)
        return fmt::format("with DF = {} copies and SD = {} on {} nodes, the saves with k mod SD = {} would put two "
                           "copies on the same node (copy j = {} lands where an earlier copy went)",
                           s.copies, s.depth, n, r, j);
    }
  }
  return std::nullopt;
}

bool save_survives(int i, std::uint64_t k, const std::set<int>& failed, const Scheme& s, int n) {
  return !failed.count(i) || recovery_holder(i, k, failed, s, n) >= 0;
}

int recovery_holder(int i, std::uint64_t k, const std::set<int>& failed, const Scheme& s, int n) {
  for (int j = 1; j <= s.copies; j++) {
    const int to = receiver(i, j, k, s, n);
    if (!failed.count(to)) return to;
  }
  return -1;
}

bool line_survives(std::uint64_t k, const std::set<int>& failed, const Scheme& s, int n) {
  for (int i : failed)
    if (!save_survives(i, k, failed, s, n)) return false;
  return true;
}

std::optional<std::uint64_t> rlffn(std::uint64_t k_end, const std::set<int>& failed, const Scheme& s, int n,
                                   std::uint64_t first) {
  for (std::uint64_t back = 0; back < static_cast<std::uint64_t>(s.depth) && back <= k_end; back++) {
    const std::uint64_t k = k_end - back;
    if (k < first) break;
    if (line_survives(k, failed, s, n)) return k;
  }
  return std::nullopt;
}

bool recoverable(const std::set<int>& failed, const Scheme& s, int n) {
  for (int r = 0; r < s.depth; r++)
    if (line_survives(static_cast<std::uint64_t>(r), failed, s, n)) return true;
  return false;
}

} // namespace ckptsim::replicated
