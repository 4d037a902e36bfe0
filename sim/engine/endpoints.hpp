/* The directory of the run's endpoints: which incarnation of each runs and whether it is up, the
 * actor (NodeRuntime) running it, and per computing process the host it runs on (placement.cpp:
 * shrink moves processes), whether a host is off for good, the work a process had done when it
 * last died and the digest of what it computed. The engine's single source for "who is where". */
#pragma once

#include "sim/net/ids.hpp"

#include <cstdint>
#include <vector>

namespace ckptsim {

class NodeRuntime;

struct Endpoints {
  /** @brief @p endpoints endpoints, the first @p nodes of them computing processes, each on its
   *  own host, all up, incarnation 0. */
  void reset(int endpoints, int nodes) {
    incarnation.assign(static_cast<std::size_t>(endpoints), 0);
    up.assign(static_cast<std::size_t>(endpoints), true);
    runtimes.assign(static_cast<std::size_t>(endpoints), nullptr);
    digests.assign(static_cast<std::size_t>(nodes), 0);
    death_work.assign(static_cast<std::size_t>(nodes), 0.0);
    host_index.resize(static_cast<std::size_t>(nodes));
    for (NodeId n = 0; n < nodes; n++) host_index[n] = n;
    host_dead.assign(static_cast<std::size_t>(nodes), false);
  }
  /** @brief Incarnation @p inc of @p endpoint still runs. */
  bool alive(NodeId endpoint, Incarnation inc) const { return up[endpoint] && incarnation[endpoint] == inc; }

  // Per endpoint.
  std::vector<Incarnation> incarnation;
  std::vector<bool> up;
  std::vector<NodeRuntime*> runtimes; // null between two incarnations
  // Per computing process.
  std::vector<int> host_index;        // index of its host in the platform's hosts
  std::vector<bool> host_dead;        // per host: off for good (shrink)
  std::vector<double> death_work;     // work done when it last died
  std::vector<std::uint64_t> digests; // Workload::result_digest when it last finished
};

} // namespace ckptsim
