#include "sim/cli/sweep/records.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace ckptsim::sweep {

using ojson = nlohmann::ordered_json;

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

namespace {
std::string cell(const ojson& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  // 12 rather than 12.0 (counters are doubles in the results); other numbers keep every digit.
  if (v.is_number_float()) {
    const double x = v.get<double>();
    if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 1e15) return fmt::format("{:.0f}", x);
  }
  return v.dump();
}
} // namespace

ojson to_json(const Record& r) {
  ojson values = ojson::object();
  for (const auto& [k, v] : r.values) values[k] = v;
  ojson j{{"index", r.index},   {"key", r.key},   {"values", values},
          {"status", r.status}, {"exit", r.exit}, {"wall_s", r.wall}};
  if (!r.error.empty()) j["error"] = r.error;
  j["stats"] = r.stats;
  j["sweep"] = r.sweep;
  return j;
}

Record record_from_json(const ojson& j) {
  Record r;
  try {
    r.index = j.at("index").get<std::size_t>();
    r.key = j.at("key").get<std::string>();
    for (const auto& [k, v] : j.at("values").items()) r.values.emplace_back(k, v.get<std::string>());
    r.status = j.at("status").get<std::string>();
    r.exit = j.at("exit").get<int>();
    r.wall = j.value("wall_s", 0.0);
    r.error = j.value("error", std::string());
    r.stats = j.at("stats");
    r.sweep = j.at("sweep").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(e.what());
  }
  return r;
}

std::vector<Record> read_records(const std::string& path) {
  std::vector<Record> out;
  std::ifstream in(path);
  if (!in) return out;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  for (std::size_t i = 0; i < lines.size(); i++) {
    try {
      out.push_back(record_from_json(ojson::parse(lines[i])));
    } catch (const std::exception& e) {
      if (i + 1 == lines.size()) { // the sweep was stopped while writing it: that run is redone
        std::fprintf(stderr, "ckptsim: %s: line %zu is incomplete (an interrupted write): ignored\n", path.c_str(),
                     i + 1);
        break;
      }
      throw InputError(path, fmt::format("line {}", i + 1), fmt::format("not a sweep record: {}", e.what()));
    }
  }
  return out;
}

void append_record(const std::string& path, const Record& r) {
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) throw InputError(path, "", "cannot append to the results file (does its folder exist?)");
  const std::string line = to_json(r).dump() + "\n";
  const bool ok = std::fwrite(line.data(), 1, line.size(), f) == line.size();
  if (std::fclose(f) != 0 || !ok) throw InputError(path, "", "writing the results file failed");
}

std::vector<std::string> stat_columns(const std::vector<Record>& records) {
  std::vector<const Record*> sorted;
  for (const auto& r : records) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](const Record* a, const Record* b) { return a->index < b->index; });
  std::vector<std::string> cols;
  std::set<std::string> seen;
  for (const Record* r : sorted)
    for (const auto& [k, v] : r->stats.items())
      if (seen.insert(k).second) cols.push_back(k);
  return cols;
}

std::string csv_header(const Record& any, const std::vector<std::string>& stats) {
  std::vector<std::string> header{"index"};
  for (const auto& [k, v] : any.values) header.push_back(k);
  header.insert(header.end(), {"status", "exit"});
  header.insert(header.end(), stats.begin(), stats.end());
  std::string text;
  for (std::size_t i = 0; i < header.size(); i++) text += (i ? "," : "") + csv_field(header[i]);
  return text + "\n";
}

std::string csv_row(const Record& r, const std::vector<std::string>& stats) {
  std::string row = std::to_string(r.index);
  for (const auto& [k, v] : r.values) row += "," + csv_field(v);
  row += "," + csv_field(r.status) + "," + std::to_string(r.exit);
  for (const auto& s : stats) row += "," + csv_field(r.stats.contains(s) ? cell(r.stats[s]) : std::string());
  return row + "\n";
}

std::string csv_table(std::vector<Record> records, const std::vector<std::string>& comments) {
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.index < b.index; });
  std::string text;
  for (const auto& c : comments) text += "# " + c + "\n";
  if (records.empty()) return text;
  const auto stats = stat_columns(records);
  text += csv_header(records.front(), stats);
  for (const auto& r : records) text += csv_row(r, stats);
  return text;
}

std::string tail_of_file(const std::string& path, std::size_t max) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  if (s.size() > max) s = "..." + s.substr(s.size() - max);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

} // namespace ckptsim::sweep
