/* The centralized garbage collector of HC3I (report section 3.5): the leader of cluster 0 runs
 * rounds, every leader answers them, and every node applies their result to its CLCs and its
 * inter-cluster log (gc.cpp says how a round goes). */
#pragma once

#include "protocols/hc3i/dependencies.hpp"
#include "protocols/hc3i/log.hpp"
#include "protocols/hc3i/membership.hpp"
#include "protocols/hc3i/messages.hpp"

#include <map>
#include <string>
#include <vector>

namespace ckptsim::hc3i {

class GarbageCollector {
 public:
  GarbageCollector(const Membership& place, Dependencies& deps, InterClusterLog& log)
      : place_(place)
      , deps_(deps)
      , log_(log) {}

  /** @brief A round is under way (on the collector). */
  bool active() const { return active_; }
  /** @brief What the round under way waits for ("" when none). */
  std::string pending() const;
  /** @brief Arms the collector's timer (on the leader of cluster 0 only). */
  void arm_timer(NodeContext& ctx) const;
  /** @brief The timer fired: a round starts, unless one is under way, a failure is open or
   *  @p recovery_under_way (this node's cluster recovers or holds alerts). */
  void start(NodeContext& ctx, bool recovery_under_way);
  /** @brief Ends the round under way without collecting (a failure overlaps it). */
  void abandon(NodeContext& ctx);
  /** @brief GC_REQ (a leader): answers with its cluster's CLCs and the epochs it knows. */
  void on_req(NodeContext& ctx, NodeId from, const Body& b) const;
  /** @brief GC_RESP (the collector); @p from == self: its own list, gathered at the start. */
  void on_resp(NodeContext& ctx, NodeId from, const Body& b);
  /** @brief GC_COLLECT (a leader): broadcasts the worst SNs in its cluster and applies them. */
  void on_collect(NodeContext& ctx, const Body& b);
  /** @brief GC_APPLY: drops the CLCs and log entries no rollback can need any more. */
  void apply(NodeContext& ctx, const Body& b);

 private:
  const Membership& place_;
  Dependencies& deps_;
  InterClusterLog& log_;
  std::uint64_t round_ = 0;
  bool active_ = false;
  FailureId base_ = 0;                              // the newest failure known at the start
  std::map<int, ClcList> lists_;                    // each cluster's CLCs, as its leader answered
  std::vector<std::uint64_t> epochs_;               // each cluster's epoch when its list was gathered
  std::map<int, std::vector<std::uint64_t>> views_; // per cluster: the epochs its leader knows
};

} // namespace ckptsim::hc3i
