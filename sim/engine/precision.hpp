/* SimGrid's max-min precision chosen for the platform (issue 34: no abort on any platform).
 *
 * SimGrid 3.32's max-min solver keeps, per link, the sum of 1/penalty over the flows crossing it
 * (the "usage"; a flow's penalty is its route's latency plus network/weight-S over each link's
 * bandwidth), and subtracts a flow's share each time it fixes one. It compares what is left with
 * an absolute precision, maxmin/precision (1e-5 by default). The subtractions round: on a link
 * that F flows cross at once, each of usage up to u, what remains once every flow is fixed is of
 * the order of eps * F * u * sqrt(F). When it exceeds the precision SimGrid aborts ("Cannot
 * saturate more a constraint that has no active element"). SimGrid's Grid'5000 file (1,528 hosts)
 * under coordinated checkpointing (every node sends to every other at once: F ~ hosts^2) met more
 * than 1e-3 at the first wave. The precision must also stay well below the usage of the slowest flow
 * (1/the largest penalty), or a link still carrying that flow would be taken for saturated.
 *
 * The plan is a pure function of the platform's figures, tested without SimGrid; Run applies it
 * as SimGrid's default once the platform exists (a user's --cfg wins) and the results document
 * says which precision ran and who chose it. docs/MODEL.md, "Max-min precision". */
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief The flows of a sample of host pairs that cross one shared link (not a FATPIPE, whose
 *  usage SimGrid takes as a maximum, not a sum). */
struct LinkLoad {
  double flows = 0; // sampled routes crossing it
  double usage = 0; // the sum of 1/penalty over them (1/s)
};

struct PrecisionRequest {
  double pairs = 0;                // ordered pairs of hosts that may exchange messages
  double sampled_pairs = 0;        // of which routed for @p links
  std::vector<LinkLoad> links;     // the shared links the sampled routes cross
  double max_route_penalty = 0;    // the largest penalty of a sampled route (s); <= 0: unknown
  std::optional<double> user;      // given with --cfg=maxmin/precision
  double aborted_at = 0;           // > 0: SimGrid aborted at this precision in an earlier attempt
  double default_precision = 1e-5; // SimGrid's default, kept when it is enough
};

struct PrecisionPlan {
  double precision = 1e-5; // the precision to run with
  bool chosen = false;     // true: ckptsim raised it above SimGrid's default
  bool retried = false;    // true: an attempt after an abort (at least ten times its precision)
  double needed = 0;       // the rounding the solver may meet, with the margin (see the .cpp)
  std::string error;       // not empty: no precision fits (the run is an input error naming the option)
};

/** @brief eps * U * sqrt(F) is a link's typical rounding (U its usage, F its flows), times this
 *  margin, which keeps the default scenario at SimGrid's default. A first guess, not a bound: on
 *  large platforms SimGrid met 10 to 40 times eps * U * sqrt(F), and the run started again
 *  (sim/cli/run_attempts.hpp; docs/MODEL.md, "Max-min precision"). */
constexpr double kRoundingMargin = 7;

/** @brief A flow's usage must stay this many times above the precision. */
constexpr double kUsageMargin = 100;

/** @brief The largest precision ckptsim chooses by itself: SimGrid also takes a link as saturated
 *  once what is left of its bandwidth is below this fraction of it, so flows may get up to this
 *  fraction less than their share. Beyond it the user must choose (--cfg=maxmin/precision). */
constexpr double kMaxChosenPrecision = 1e-2;

/** @brief The largest precision the estimate chooses (flows may get up to 0.1 % less than their
 *  share): it assumes an all-to-all exchange, which large federations seldom have. Beyond it only
 *  an abort raises the precision. */
constexpr double kMaxEstimatedPrecision = 1e-3;

/** @brief At most this many flows are assumed to cross a link at once: each costs SimGrid about
 *  3 KB, so more would not fit in the memory of a machine running ckptsim. */
constexpr double kMaxConcurrentFlows = 1e7;

/** @brief The precision for the platform of @p r: SimGrid's default unless the rounding of some
 *  link's usage, every host pair having a flow at once (an all-to-all exchange), may exceed it;
 *  then the next power of ten above that rounding, up to kMaxEstimatedPrecision and below the
 *  slowest route's limit; after an abort, at least ten times the precision it happened at, and
 *  an error when that passes kMaxChosenPrecision or the slowest route's limit. */
PrecisionPlan plan_maxmin_precision(const PrecisionRequest& r);

} // namespace ckptsim
