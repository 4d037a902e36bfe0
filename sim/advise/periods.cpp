#include "sim/advise/periods.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ckptsim::advise {

double young_period(double cost, double mtbf) { return std::sqrt(2 * cost * mtbf); }

double daly_period(double cost, double mtbf) {
  if (cost >= 2 * mtbf) return mtbf;
  const double x = cost / (2 * mtbf);
  return std::sqrt(2 * cost * mtbf) * (1 + std::sqrt(x) / 3 + x / 9) - cost;
}

double daly_makespan(double work, double period, double cost, double restart, double mtbf) {
  return mtbf * std::exp(restart / mtbf) * std::expm1((period + cost) / mtbf) * work / period;
}

LevelPlan first_order_plan(const std::vector<Level>& levels) {
  LevelPlan plan;
  const double inf = std::numeric_limits<double>::infinity();
  for (const Level& l : levels) {
    plan.periods.push_back(l.rate > 0 ? std::sqrt(2 * l.cost / l.rate) : inf);
    plan.overhead += std::sqrt(2 * l.rate * l.cost);
  }
  // Nested: a deeper level's period is a whole number of the level above's (SCR's descriptors,
  // FTI's intervals). The first level keeps its own period; each next one rounds its ratio.
  double period = plan.periods.empty() ? inf : plan.periods.front();
  for (std::size_t l = 0; l < plan.periods.size(); l++) {
    int every = 1;
    if (l > 0) {
      const double ratio = plan.periods[l] / plan.periods[l - 1];
      every = std::isfinite(ratio) ? std::max(1, static_cast<int>(std::lround(ratio))) : 0; // 0: never
      period = every > 0 ? period * every : inf;
    }
    plan.every.push_back(every);
    plan.schedule.push_back(period);
  }
  return plan;
}

} // namespace ckptsim::advise
