#include "sim/failures/link_outages.hpp"

#include <tuple>

namespace ckptsim {

bool LinkOutages::Pending::operator>(const Pending& o) const {
  // Failures before repairs at one date: two overlapping outages that meet at a date never flap
  // the link up and down again.
  return std::tuple(change.date, !change.down, change.link, order) >
         std::tuple(o.change.date, !o.change.down, o.change.link, o.order);
}

void LinkOutages::push(LinkChange change, int random) { queue_.push({change, order_++, random}); }

void LinkOutages::add_outage(int link, double down, double up) {
  push({down, link, true}, -1);
  push({up, link, false}, -1);
}

void LinkOutages::add_random(int link, double mtbf, const Distribution& downtime, std::uint64_t seed) {
  randoms_.push_back({link, mtbf, downtime, Rng(seed)});
  schedule_random(static_cast<int>(randoms_.size()) - 1, 0.0);
}

void LinkOutages::schedule_random(int index, double from) {
  Random& r = randoms_[static_cast<std::size_t>(index)];
  const double down = from + r.rng.exponential(r.mtbf);
  const double up = down + r.rng.draw(r.downtime);
  push({down, r.link, true}, -1);
  push({up, r.link, false}, index); // its next outage is drawn once this one is over
}

std::optional<LinkChange> LinkOutages::next() {
  if (queue_.empty()) return std::nullopt;
  const Pending p = queue_.top();
  queue_.pop();
  if (p.random >= 0) schedule_random(p.random, p.change.date);
  return p.change;
}

} // namespace ckptsim
