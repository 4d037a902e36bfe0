/* advise --verify: the sweep around the suggested plan (its period x 0.5, 0.7, 1, 1.4, 2 and, for
 * several levels, the deepest level's every -1, 0, +1), N seeds a point and protocol, in parallel;
 * per protocol the table of mean makespans with their 95 % intervals, the simulated optimum and
 * whether the suggestion agrees with it (their intervals overlap); with several protocols a ranking
 * by the best mean makespan; --plot draws it (plots/advise.py). */
#include "sim/cli/advise/plan.hpp"
#include "sim/cli/compare_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace ckptsim::cli::advise {

namespace {

constexpr double kFactors[] = {0.5, 0.7, 1.0, 1.4, 2.0};

std::string interval(const SweepPoint& p) {
  if (p.makespans.empty()) return "-";
  return fmt::format("{:.1f} +- {:.1f}", p.mean(), std::isfinite(p.half_width()) ? p.half_width() : 0.0);
}

} // namespace

int verify(const AdvicePlan& plan, const AdviseOptions& o, const std::string& program, const std::string& dir,
           double& chosen) {
  if (!std::isfinite(plan.period)) {
    std::printf("\nverify: no plan to verify\n");
    return 0;
  }
  std::vector<int> everys{0};
  if (plan.varied >= 0) {
    const int e = plan.everys[static_cast<std::size_t>(plan.varied)].second;
    everys = {e};
    if (e > 1) everys.insert(everys.begin(), e - 1);
    everys.push_back(e + 1);
  }
  std::vector<SweepPoint> points;
  for (const auto& protocol : o.protocols)
    for (int every : everys)
      for (double f : kFactors)
        points.push_back(
            {protocol.label, plan.period * f, every,
             f == 1.0 && (plan.varied < 0 || every == plan.everys[static_cast<std::size_t>(plan.varied)].second)});
  std::vector<ChildRun> runs;
  std::vector<std::size_t> point_of;
  for (std::size_t i = 0; i < points.size(); i++) {
    const SweepPoint& pt = points[i];
    const auto& protocol = *std::find_if(o.protocols.begin(), o.protocols.end(),
                                         [&](const ProtocolChoice& c) { return c.label == pt.protocol; });
    for (int s = 0; s < o.verify; s++) {
      ChildRun r;
      r.args = o.run_args;
      for (const auto& a : protocol_args(protocol)) r.args.push_back(a);
      r.args.insert(r.args.end(), {"--seed", std::to_string(o.seed + static_cast<std::uint64_t>(s)), "--set",
                                   fmt::format("timers/default/checkpoint_period={:.6g}", pt.period)});
      for (std::size_t k = 0; k < plan.everys.size(); k++) {
        const int every = static_cast<int>(k) == plan.varied ? pt.every : plan.everys[k].second;
        r.args.insert(r.args.end(), {"--set", fmt::format("topology/{}={}", plan.everys[k].first, every)});
      }
      runs.push_back(std::move(r));
      point_of.push_back(i);
    }
  }
  run_all(runs, o.jobs, program, dir, "advise --verify");
  for (std::size_t i = 0; i < runs.size(); i++) {
    SweepPoint& pt = points[point_of[i]];
    const auto& d = runs[i].doc;
    if (runs[i].status == 2) {
      std::fprintf(stderr, "advise --verify: a run rejected its input: %s\n", runs[i].error.c_str());
      return 2;
    }
    if (!d.is_null() && d["results"]["status"] == "completed" && d["results"]["makespan"].is_number())
      pt.makespans.push_back(d["results"]["makespan"].get<double>());
    else
      pt.incomplete++;
  }

  std::string csv = "protocol,period,every,runs,mean,half_width,incomplete,suggested\n";
  struct Best {
    std::string protocol;
    const SweepPoint* best = nullptr;
    const SweepPoint* suggested = nullptr;
  };
  std::vector<Best> bests;
  for (const auto& protocol : o.protocols) {
    Best b{protocol.label};
    std::printf("\nverify %s: %d seeds a point (from seed %llu)\n", protocol.label.c_str(), o.verify,
                static_cast<unsigned long long>(o.seed));
    std::printf("  %12s %6s %26s %11s\n", "period (s)", "every", "mean makespan +- 95 % (s)", "incomplete");
    for (const SweepPoint& pt : points) {
      if (pt.protocol != protocol.label) continue;
      std::printf("  %12.1f %6s %26s %11d%s\n", pt.period, pt.every > 0 ? std::to_string(pt.every).c_str() : "-",
                  interval(pt).c_str(), pt.incomplete, pt.suggested ? "   <- suggested" : "");
      csv += fmt::format("{},{},{},{},{},{},{},{}\n", pt.protocol, pt.period, pt.every, pt.makespans.size(),
                         pt.makespans.empty() ? 0.0 : pt.mean(), std::isfinite(pt.half_width()) ? pt.half_width() : 0.0,
                         pt.incomplete, pt.suggested ? 1 : 0);
      if (pt.suggested) b.suggested = &pt;
      // The optimum among points whose every run completed: a plan that loses runs is no optimum.
      if (pt.incomplete == 0 && !pt.makespans.empty() && (!b.best || pt.mean() < b.best->mean())) b.best = &pt;
    }
    if (!b.best) {
      std::printf("  no point completed every run\n");
    } else {
      std::printf("  simulated optimum: period %.1f s%s, %s s\n", b.best->period,
                  b.best->every > 0 ? fmt::format(", every {}", b.best->every).c_str() : "", interval(*b.best).c_str());
      if (b.suggested && !b.suggested->makespans.empty()) {
        const double gap = b.suggested->mean() - b.best->mean();
        const bool agree = b.best == b.suggested || gap <= b.suggested->half_width() + b.best->half_width();
        std::printf(
            "  suggestion: %s s: %s\n", interval(*b.suggested).c_str(),
            agree
                ? "agrees with the simulated optimum (their 95 % intervals overlap)"
                : fmt::format("{:.1f} s slower than the simulated optimum (beyond their 95 % intervals)", gap).c_str());
      }
    }
    bests.push_back(b);
  }
  if (!bests.empty() && bests.front().best) chosen = bests.front().best->period;
  if (o.protocols.size() > 1) {
    std::stable_sort(bests.begin(), bests.end(), [](const Best& a, const Best& b) {
      if (!a.best || !b.best) return a.best != nullptr;
      return a.best->mean() < b.best->mean();
    });
    std::printf("\nprotocols ranked by their best mean makespan\n");
    for (std::size_t i = 0; i < bests.size(); i++) {
      const Best& b = bests[i];
      if (!b.best) {
        std::printf("  %zu. %-24s no point completed every run\n", i + 1, b.protocol.c_str());
        continue;
      }
      std::printf("  %zu. %-24s %s s at period %.1f s%s\n", i + 1, b.protocol.c_str(), interval(*b.best).c_str(),
                  b.best->period, b.best->every > 0 ? fmt::format(", every {}", b.best->every).c_str() : "");
    }
  }
  if (!o.plot.empty()) {
    std::string given;
    for (const auto& a : o.run_args) given += " " + a;
    const int drawn = draw_csv("advise.py", csv, o.plot, "ckptsim advise --verify", "ckptsim advise" + given);
    if (drawn != 0) return drawn;
  }
  return 0;
}

} // namespace ckptsim::cli::advise
