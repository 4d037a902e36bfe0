/* The dates at which links fail and come back, from the topology's "link_failures": scripted
 * outages of one link, and random sources where each link of a scope fails independently (gaps
 * from its repair to its next failure drawn exponentially with the source's MTBF, each outage
 * lasting a draw of its downtime). Plain bookkeeping, no SimGrid: the engine (sim/engine/
 * link_faults.hpp) turns the links off and on at these dates. A link is down while at least one
 * of its outages lasts (outages of two sources may overlap). Each random link draws from a stream
 * of its own, so that adding a source or a link leaves the other links' dates as they were, and
 * the node failures' streams are untouched. */
#pragma once

#include "sim/app/rng.hpp"
#include "sim/config/distribution.hpp"

#include <cstdint>
#include <optional>
#include <queue>
#include <vector>

namespace ckptsim {

struct LinkChange {
  double date = 0;
  int link = -1;     // the caller's index of the link
  bool down = false; // an outage starts (true) or ends
};

class LinkOutages {
 public:
  /** @brief Link @p link is down from @p down to @p up (up > down). */
  void add_outage(int link, double down, double up);
  /** @brief Link @p link fails after exponential gaps of mean @p mtbf from each repair, each
   *  outage lasting a draw of @p downtime, forever (the run ends first); @p seed its stream. */
  void add_random(int link, double mtbf, const Distribution& downtime, std::uint64_t seed);
  bool empty() const { return queue_.empty(); }
  /** @brief The next change in date order (at one date: failures first, then repairs, then by
   *  link and by order of addition), or none. */
  std::optional<LinkChange> next();

 private:
  struct Pending {
    LinkChange change;
    std::uint64_t order = 0;
    int random = -1; // index into randoms_: draw this source's next outage when its repair is taken
    bool operator>(const Pending& o) const;
  };
  struct Random {
    int link;
    double mtbf;
    Distribution downtime;
    Rng rng;
  };
  void schedule_random(int index, double from);
  void push(LinkChange change, int random);

  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> queue_;
  std::vector<Random> randoms_;
  std::uint64_t order_ = 0;
};

} // namespace ckptsim
