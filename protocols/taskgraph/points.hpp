/* What the program-order points of a stencil tell every process about the others, without a
 * message (Lion, "Tolérance aux pannes dans l'exécution distribuée de graphes de tâches", 3.3:
 * "chaque nœud sait quand a lieu le checkpoint dans le code"). Plain logic over the task graph.
 *
 * Point k of a process (StencilWorkload::next_point, kind "iteration") is reached when it has
 * executed every compute task of iterations < k (iterations are 1..I; point 1 is the start, point
 * I + 1 the end). A message carries version v of a cell: the sender's compute task of iteration v
 * writes it (v = 0: an input), the receiver's compute tasks of iteration v + 1 read it. So at
 * point k, for every communication of version v <= k - 2 (said "covered by point k"):
 *   - the receiver has received it (a compute task of iteration v + 1 < k read it);
 *   - the sender has sent it (the send runs at the first advance() after the compute of
 *     iteration v ends, which precedes the start of the last compute of iteration k - 1).
 * Nothing is said of versions >= k - 1: the data-flow scheduler (in order or with local
 * reordering) may have run them before the point or not. The protocol relies on the covered
 * ones only: a sender drops from its log what the receiver's committed checkpoint k covers, and
 * after a failure it replays what it does not cover (the receiver drops what its restored state
 * already received). tests/unit/test_taskgraph_points.cpp checks both claims on executions in
 * random delivery orders, with both schedules. */
#pragma once

#include "sim/protocol/dataflow.hpp"

#include <cstdint>
#include <vector>

namespace ckptsim::taskgraph {

using dataflow::Tag;

/** @brief Whether checkpoint number @p point is taken at point @p point: after every @p interval
 *  iterations, i.e. at points interval + 1, 2 interval + 1, ... (point 1, the start, is the
 *  initial state, never saved). */
bool checkpoint_point(std::uint64_t point, std::uint64_t interval);

class Points {
 public:
  explicit Points(const dataflow::TaskGraph& g);

  /** @brief The version (iteration) of the datum communication @p t carries. */
  int version(Tag t) const { return version_.at(t); }
  /** @brief At point @p point its sender has sent @p t and its receiver has received it. */
  bool covered(Tag t, std::uint64_t point) const { return static_cast<std::uint64_t>(version(t)) + 2 <= point; }
  /** @brief The processes with a communication to or from @p p that point @p point (of @p p) does
   *  not cover, ascending: those a restart of @p p from checkpoint @p point involves (3.3: "les
   *  nœuds communicants potentiellement avec le substitut", deduced from the graph). */
  std::vector<int> peers_after(int p, std::uint64_t point) const;
  /** @brief The communications received by @p p, ascending (their versions do not decrease). */
  const std::vector<Tag>& incoming(int p) const { return in_.at(static_cast<std::size_t>(p)); }
  const std::vector<Tag>& outgoing(int p) const { return out_.at(static_cast<std::size_t>(p)); }
  const dataflow::TaskGraph& graph() const { return g_; }

 private:
  /** @brief The first position of @p tags (ascending) not covered by @p point. */
  std::size_t first_uncovered(const std::vector<Tag>& tags, std::uint64_t point) const;

  const dataflow::TaskGraph& g_;
  std::vector<int> version_;
  std::vector<std::vector<Tag>> in_, out_; // per process
};

} // namespace ckptsim::taskgraph
