#include "sim/cli/sweep/aggregate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace ckptsim::sweep {

double student_t95(std::size_t df) {
  // Two-sided 95 % quantiles, df 1..30 (standard tables); beyond, interpolation in 1/df towards
  // the normal 1.960 (within 0.001 of the exact value at df 40, 60 and 120).
  static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                             2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                             2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) return std::numeric_limits<double>::quiet_NaN();
  if (df <= 30) return t[df - 1];
  return 1.960 + (2.042 - 1.960) * 30.0 / static_cast<double>(df);
}

Summary summarize(const std::vector<double>& xs) {
  Summary s;
  s.n = xs.size();
  s.sd = s.ci95 = std::numeric_limits<double>::quiet_NaN();
  if (xs.empty()) {
    s.mean = std::numeric_limits<double>::quiet_NaN();
    return s;
  }
  double sum = 0;
  for (double x : xs) sum += x;
  s.mean = sum / static_cast<double>(s.n);
  if (s.n < 2) return s;
  double sq = 0;
  for (double x : xs) sq += (x - s.mean) * (x - s.mean);
  s.sd = std::sqrt(sq / static_cast<double>(s.n - 1));
  s.ci95 = student_t95(s.n - 1) * s.sd / std::sqrt(static_cast<double>(s.n));
  return s;
}

namespace {
bool numeric(const nlohmann::ordered_json& v, double& out) {
  if (v.is_number()) {
    out = v.get<double>();
    return true;
  }
  return false;
}

std::string num(double x) { return std::isnan(x) ? std::string() : fmt::format("{:.10g}", x); }
} // namespace

std::string points_table(const std::vector<Record>& records_in, const std::vector<std::string>& comments) {
  std::vector<Record> records = records_in;
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.index < b.index; });
  std::string text;
  for (const auto& c : comments) text += "# " + c + "\n";
  if (records.empty()) return text;
  // A column is numeric when every successful run that has it gives a number.
  std::vector<std::string> columns;
  for (const auto& c : stat_columns(records)) {
    bool all = true, any = false;
    for (const auto& r : records) {
      if (r.status != "ok" || !r.stats.contains(c)) continue;
      double x;
      any = true;
      all = all && numeric(r.stats[c], x);
    }
    if (any && all) columns.push_back(c);
  }
  struct Point {
    std::vector<std::pair<std::string, std::string>> values;
    std::size_t runs = 0, failed = 0;
    std::map<std::string, std::vector<double>> xs;
  };
  std::vector<Point> points;
  std::map<std::string, std::size_t> by_key;
  for (const auto& r : records) {
    std::vector<std::pair<std::string, std::string>> values;
    std::string key;
    for (const auto& kv : r.values)
      if (kv.first != "seed") {
        values.push_back(kv);
        key += kv.first + "=" + kv.second + ";";
      }
    auto [it, fresh] = by_key.emplace(key, points.size());
    if (fresh) points.push_back(Point{values, 0, 0, {}});
    Point& p = points[it->second];
    p.runs++;
    if (r.status != "ok") {
      p.failed++;
      continue;
    }
    for (const auto& c : columns) {
      double x;
      if (r.stats.contains(c) && numeric(r.stats[c], x)) p.xs[c].push_back(x);
    }
  }
  std::string header;
  for (const auto& kv : points.front().values) header += kv.first + ",";
  header += "runs,failed";
  for (const auto& c : columns) header += fmt::format(",{0}.mean,{0}.sd,{0}.ci95", c);
  text += header + "\n";
  for (const auto& p : points) {
    std::string row;
    for (const auto& kv : p.values) row += csv_field(kv.second) + ",";
    row += fmt::format("{},{}", p.runs, p.failed);
    for (const auto& c : columns) {
      auto it = p.xs.find(c);
      const Summary s = summarize(it == p.xs.end() ? std::vector<double>{} : it->second);
      row += "," + num(s.mean) + "," + num(s.sd) + "," + num(s.ci95);
    }
    text += row + "\n";
  }
  return text;
}

} // namespace ckptsim::sweep
