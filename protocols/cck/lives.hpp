/* Which failures a CCK process knows of: the newest one (every wave and restart message carries
 * it, and one of an older execution is void), the one that last restarted this process (its
 * application messages carry it), and each process' last death, so that a message an incarnation
 * sent before it died is recognised and dropped. */
#pragma once

#include "sim/protocol/protocol.hpp"

#include <map>
#include <vector>

namespace ckptsim::cck {

class Lives {
 public:
  /** @brief The newest failure this process knows of (0: none). */
  FailureId epoch() const { return epoch_; }
  /** @brief The failure that last restarted this process (0: never). */
  FailureId life() const { return life_; }
  /** @brief Failure @p id of @p victims: the messages of their older lives are void from now on. */
  void failure(FailureId id, const std::vector<NodeId>& victims) {
    epoch_ = id;
    for (NodeId v : victims) dead_[v] = id;
  }
  /** @brief This process restarted after failure @p id. */
  void restarted(FailureId id) {
    epoch_ = id;
    life_ = id;
  }
  /** @brief A message @p src sent in its life @p life, which has ended since. */
  bool stale(NodeId src, FailureId life) const {
    const auto d = dead_.find(src);
    return d != dead_.end() && life < d->second;
  }

 private:
  FailureId epoch_ = 0;
  FailureId life_ = 0;
  std::map<NodeId, FailureId> dead_; // process -> its newest failure
};

} // namespace ckptsim::cck
