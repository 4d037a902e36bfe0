/* Heartbeat suspicion of the nodes a partition cuts off (docs/MODEL.md, "Network faults"). With
 * heartbeat detection, the monitor (on the controller host) hears a node only while the node's
 * route to it is up: the heartbeats sent at each multiple of the period while the route is down
 * are lost, and a node silent for the timeout since its last heartbeat that got through is
 * suspected. This class keeps, per node, since when its heartbeats stop getting through, and says
 * which nodes are suspected when; the Run turns a suspicion into a failure (fencing). Plain
 * bookkeeping, no SimGrid. */
#pragma once

#include "sim/net/ids.hpp"

#include <optional>
#include <vector>

namespace ckptsim {

class Suspicions {
 public:
  /** @brief Heartbeats every @p period, a node silent for @p timeout is suspected; @p nodes nodes.
   *  A period of 0: no heartbeat detection, nobody is ever suspected. */
  Suspicions(double period, double timeout, int nodes);

  bool active() const { return period_ > 0; }
  /** @brief At @p now the route of node @p n to the monitor is @p up. When the route is newly
   *  down: the date at which @p n is suspected if it stays down (its last beat that got through,
   *  at or before the cut and not before its (re)start, plus the timeout). */
  std::optional<double> route(NodeId n, bool up, double now);
  /** @brief Node @p n (re)started at @p date: the monitor expects no beat of it before. */
  void started(NodeId n, double date) { alive_since_[static_cast<std::size_t>(n)] = date; }
  /** @brief The nodes silent for the timeout at @p now (increasing order): suspected, they are
   *  not again until they fail (forget) or their route comes back. */
  std::vector<NodeId> due(double now);
  /** @brief Node @p n failed (crashed or fenced): the monitor stops waiting for its beats. */
  void forget(NodeId n);
  /** @brief Node @p n's heartbeats do not get through now. */
  bool silent(NodeId n) const { return since_[static_cast<std::size_t>(n)] >= 0; }

 private:
  double period_;
  double timeout_;
  std::vector<double> since_;       // last beat that got through before the cut; < 0: beats get through
  std::vector<double> alive_since_; // the node's (re)start
  std::vector<char> suspected_;     // handed over by due(): its fencing is under way (or deferred)
};

} // namespace ckptsim
