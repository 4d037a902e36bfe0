#include "sim/cli/advise/plan.hpp"

#include "sim/advise/two_level.hpp"
#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ckptsim::cli::advise {

void make_plan(AdvicePlan& p, const std::string& protocol) {
  p.rates.assign(p.levels.size(), 0.0);
  double total = 0;
  for (const FailureKind& k : p.kinds) {
    if (k.level < 0) {
      p.warnings.push_back(fmt::format("no level survives {} failures ({:.3g} per hour): such a failure ends a run "
                                       "as unrecoverable; add a pfs level",
                                       k.scope, k.rate * 3600));
      continue;
    }
    p.rates[static_cast<std::size_t>(k.level)] += k.rate;
    total += k.rate;
  }
  for (std::size_t l = 0; l < p.levels.size(); l++)
    if (p.rates[l] > 0) p.needed.push_back(static_cast<int>(l));
  if (p.needed.empty()) {
    p.warnings.push_back("no failure: checkpoints only cost time here");
    return;
  }
  for (int l : p.needed)
    if (!std::isfinite(p.costs[static_cast<std::size_t>(l)]))
      throw InputError("command line", "advise",
                       fmt::format("the cost of level {} could not be measured with {} (its probe run failed)",
                                   p.levels[static_cast<std::size_t>(l)].name, protocol));
  p.single = p.needed.back();
  const double c = p.costs[static_cast<std::size_t>(p.single)], mtbf = 1 / total;
  p.young = ::ckptsim::advise::young_period(c, mtbf);
  p.daly = ::ckptsim::advise::daly_period(c, mtbf);
  p.daly_overhead = ::ckptsim::advise::daly_makespan(p.work, p.daly, c, p.restart + c, mtbf) / p.work - 1;
  p.multi = p.needed.size() >= 2;
  if (!p.multi) {
    p.period = p.daly;
    p.overhead = p.daly_overhead;
    if (!p.levels[static_cast<std::size_t>(p.single)].every_field.empty())
      p.everys.emplace_back(p.levels[static_cast<std::size_t>(p.single)].every_field, 1);
  } else {
    std::vector<::ckptsim::advise::Level> in;
    for (int l : p.needed) in.push_back({p.costs[static_cast<std::size_t>(l)], p.rates[static_cast<std::size_t>(l)]});
    const ::ckptsim::advise::LevelPlan first_order = ::ckptsim::advise::first_order_plan(in);
    p.period = first_order.periods[0];
    p.overhead = first_order.overhead;
    int every = 1;
    for (std::size_t i = 0; i < p.needed.size(); i++) {
      every *= i == 0 ? 1 : std::max(1, first_order.every[i]);
      const std::string& field = p.levels[static_cast<std::size_t>(p.needed[i])].every_field;
      if (!field.empty()) p.everys.emplace_back(field, every);
    }
    p.varied = p.everys.empty() ? -1 : static_cast<int>(p.everys.size()) - 1;
    if (p.needed.size() == 2) {
      const auto l1 = static_cast<std::size_t>(p.needed[0]), l2 = static_cast<std::size_t>(p.needed[1]);
      const ::ckptsim::advise::TwoLevelModel m{.work = p.work,
                                               .period = p.period,
                                               .every = every,
                                               .cost1 = p.costs[l1],
                                               .cost2 = p.costs[l2],
                                               .rate1 = p.rates[l1],
                                               .rate2 = p.rates[l2],
                                               .restart0 = p.restart,
                                               .restart1 = p.restart + p.costs[l1],
                                               .restart2 = p.restart + p.costs[l2]};
      p.exact_overhead = ::ckptsim::advise::two_level_makespan(m) / p.work - 1;
    }
  }
  for (std::size_t l = 1; l < p.levels.size(); l++)
    if (p.rates[l] == 0 && std::find(p.needed.begin(), p.needed.end(), static_cast<int>(l)) == p.needed.end() &&
        static_cast<int>(l) < p.needed.back())
      p.warnings.push_back(fmt::format(
          "level {} is the cheapest to survive no failure here: its every is left as given", p.levels[l].name));
  for (const auto& [field, every] : p.everys)
    p.set_options += fmt::format("{}--set topology/{}={}", p.set_options.empty() ? "" : " ", field, every);
}

std::string report(const AdvicePlan& p, const std::string& protocol) {
  std::string s = fmt::format("ckptsim advise: {}, failure-free time {:.1f} s\n\nfailures\n", protocol, p.work);
  for (const FailureKind& k : p.kinds)
    s += fmt::format("  {:<10} {:>9.3g} per hour  recovered from {:<14} ({})\n", k.scope, k.rate * 3600,
                     k.level < 0 ? "nothing" : p.levels[static_cast<std::size_t>(k.level)].name, k.source);
  if (p.kinds.empty()) s += "  none\n";
  s += fmt::format("\nlevels (checkpoint cost C measured failure-free; a recovery costs {:.1f} s (detection, "
                   "downtime, restart overhead) plus a read as long as C)\n",
                   p.restart);
  for (std::size_t l = 0; l < p.levels.size(); l++)
    s += fmt::format("  {:<14} C = {:>9} s   failures {:>9.3g} per hour\n", p.levels[l].name,
                     std::isfinite(p.costs[l]) ? fmt::format("{:.2f}", p.costs[l]) : "-", p.rates[l] * 3600);
  if (p.single >= 0) {
    const auto& name = p.levels[static_cast<std::size_t>(p.single)].name;
    s += fmt::format("\none level ({} alone, every failure recovered from it)\n", name);
    s += fmt::format("  Young  period {:.1f} s\n  Daly   period {:.1f} s, expected overhead {:.2f} %\n", p.young,
                     p.daly, 100 * p.daly_overhead);
  }
  if (p.multi) {
    s += "\nmulti-level first-order plan (Benoit, Cavelan, Le Fevre, Robert, Sun 2017)\n";
    s += fmt::format("  checkpoint_period {:.1f} s", p.period);
    for (const auto& [field, every] : p.everys) s += fmt::format(", {} = {}", field, every);
    s += fmt::format("\n  expected overhead {:.2f} % (first order: sum of sqrt(2 lambda C))", 100 * p.overhead);
    if (std::isfinite(p.exact_overhead))
      s += fmt::format(", {:.2f} % (two-level renewal model, docs/MODEL.md)", 100 * p.exact_overhead);
    s += "\n";
  }
  if (std::isfinite(p.period)) {
    s += fmt::format("\nsuggested plan: --set timers/default/checkpoint_period={:.6g}s", p.period);
    if (!p.set_options.empty()) s += " " + p.set_options;
    s += "\n";
  }
  for (const auto& w : p.warnings) s += "warning: " + w + "\n";
  return s;
}

} // namespace ckptsim::cli::advise
