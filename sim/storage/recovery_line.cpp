#include "sim/storage/recovery_line.hpp"

#include <algorithm>
#include <functional>

namespace ckptsim {

LineSearch search_recovery_line(const CheckpointStore& store, int nodes, std::vector<std::uint64_t> numbers) {
  std::sort(numbers.begin(), numbers.end(), std::greater<>());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  LineSearch out;
  for (std::uint64_t k : numbers) {
    NodeId lost = -1;
    if (k != 0)
      for (NodeId n = 0; n < nodes && lost < 0; n++) {
        if (!store.restorable(n, k)) lost = n;
      }
    if (lost < 0) {
      out.line = k;
      return out;
    }
    out.skipped.push_back(k);
    out.lost_at.push_back(lost);
  }
  return out;
}

} // namespace ckptsim
