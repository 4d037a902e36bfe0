/* The "lanl" failure source: the failure log Los Alamos National Laboratory published for 22 of
 * its systems, 1996-2005 (LA-UR-05-7318), read as distributed: a CSV file whose header names the
 * columns (System, ..., nodenumz, ..., Prob Started, Prob Fixed, Down Time, the six cause columns
 * Facilities, Hardware, Human Error, Network, Undetermined, Software, and Same Event), dates
 * written m/d/yyyy h:mm. One system is replayed (its "System" number); each record strikes log
 * node nodenumz at Prob Started and keeps it down until Prob Fixed. docs/INPUTS.md, "Failure logs". */
#include "sim/failures/lanl/lanl.hpp"
#include "sim/config/file_errors.hpp"
#include "sim/config/input_error.hpp"
#include "sim/failures/log_source.hpp"

#include <array>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <set>

namespace ckptsim {

namespace {

constexpr std::array<const char*, 6> kCauses = {"Facilities", "Hardware",     "Human Error",
                                                "Network",    "Undetermined", "Software"};

// The fields of one CSV line: commas separate, double quotes protect commas ("" is a quote).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); i++) {
    const char ch = line[i];
    if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      i++;
    } else if (ch == '"') {
      quoted = !quoted;
    } else if (ch == ',' && !quoted) {
      out.emplace_back();
    } else if (ch != '\r') {
      out.back() += ch;
    }
  }
  for (auto& f : out) { // surrounding blanks are not part of a value
    const auto b = f.find_first_not_of(" \t");
    f = b == std::string::npos ? "" : f.substr(b, f.find_last_not_of(" \t") - b + 1);
  }
  return out;
}

} // namespace

std::optional<double> parse_lanl_date(const std::string& text) {
  unsigned month = 0, day = 0, hour = 0, minute = 0, second = 0;
  int year = 0;
  int used = 0;
  const int n =
      std::sscanf(text.c_str(), "%u/%u/%d %u:%u%n:%u%n", &month, &day, &year, &hour, &minute, &used, &second, &used);
  if (n < 5 || static_cast<std::size_t>(used) != text.size()) return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1900 || hour > 23 || minute > 59 || second > 59)
    return std::nullopt;
  // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
  const int y = year - (month <= 2 ? 1 : 0);
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const long long days = static_cast<long long>(era) * 146097 + static_cast<long long>(doe) - 719468;
  return static_cast<double>(days) * 86400.0 + hour * 3600.0 + minute * 60.0 + second;
}

namespace {

struct LanlFields {
  long long system = 0;
  std::optional<double> from, to;
  std::string from_text;
  std::set<std::string> causes; // empty: every cause
};

double window_date(const json& j, const Where& at) {
  const std::string text = as_string(j, at);
  const auto d = parse_lanl_date(text);
  if (!d) at.fail(fmt::format("\"{}\" is not a date of the LANL log (m/d/yyyy h:mm)", text));
  return *d;
}

LogSelection read_lanl(const std::string& path, const LanlFields& f) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", cannot_open_reason(path, "LANL failure log"));
  LogSelection s;
  s.file = path;
  std::string line;
  if (!std::getline(in, line)) throw InputError(path, "line 1", "empty file: expected the LANL log's CSV header");
  const auto header = split_csv(line);
  const auto column = [&](const char* name) {
    for (std::size_t i = 0; i < header.size(); i++)
      if (header[i] == name) return i;
    throw InputError(
        path, "line 1",
        fmt::format("no column \"{}\" in the header: not the LANL failure log's CSV (LA-UR-05-7318)", name));
  };
  const std::size_t system = column("System"), node = column("nodenumz"), started = column("Prob Started"),
                    fixed = column("Prob Fixed");
  std::vector<std::size_t> causes;
  for (const char* c : kCauses)
    if (f.causes.empty() || f.causes.count(c)) causes.push_back(column(c));
  int lineno = 1;
  while (std::getline(in, line)) {
    lineno++;
    if (line.find_first_not_of(" \t\r,") == std::string::npos) continue;
    const auto row = split_csv(line);
    const std::string where = fmt::format("line {}", lineno);
    const auto cell = [&](std::size_t i) -> const std::string& {
      if (i >= row.size())
        throw InputError(path, where, fmt::format("{} field(s), the header has {}", row.size(), header.size()));
      return row[i];
    };
    s.read++;
    const auto integer = [&](std::size_t i, const char* what) {
      try {
        std::size_t used = 0;
        const long long v = std::stoll(cell(i), &used);
        if (used == cell(i).size()) return v;
      } catch (const std::exception&) {
      }
      throw InputError(path, where, fmt::format("{} \"{}\" is not an integer", what, cell(i)));
    };
    if (integer(system, "System") != f.system) {
      s.skipped["other system"]++;
      continue;
    }
    bool cause = false;
    for (std::size_t c : causes) cause = cause || !cell(c).empty();
    if (!cause) {
      s.skipped["other cause"]++;
      continue;
    }
    const auto start = parse_lanl_date(cell(started));
    const auto end = parse_lanl_date(cell(fixed));
    if (!start || !end)
      throw InputError(path, where,
                       fmt::format("\"{}\" is not a date (m/d/yyyy h:mm)", !start ? cell(started) : cell(fixed)));
    if ((f.from && *start < *f.from) || (f.to && *start > *f.to)) {
      s.skipped["outside the window"]++;
      continue;
    }
    if (*end < *start) {
      s.skipped["fixed before it started"]++;
      continue;
    }
    const long long n = integer(node, "nodenumz");
    s.records.push_back({*start, n, std::to_string(n), *end - *start, cell(started)});
  }
  settle_selection(s, f.from, f.from_text);
  return s;
}

std::any read_lanl_settings(ObjectReader& r, bool chosen, const std::string& base_dir) {
  const auto shared = read_log_fields(r, chosen, base_dir, "lanl");
  if (!shared) {
    for (const char* field : {"system", "causes"})
      if (r.optional(field) != nullptr)
        r.where(field).fail(fmt::format("\"{}\" is only meaningful with \"model\": \"lanl\"", field));
    return {};
  }
  LanlFields f;
  f.system = as_integer(r.required("system"), r.where("system"), 0, 1'000'000);
  if (shared->from) {
    f.from = window_date(*shared->from, r.where("from"));
    f.from_text = shared->from->get<std::string>();
  }
  if (shared->to) f.to = window_date(*shared->to, r.where("to"));
  if (f.from && f.to && *f.to < *f.from) r.where("to").fail("the window ends before it starts (\"to\" < \"from\")");
  if (const json* v = r.optional("causes")) {
    if (!v->is_array() || v->empty()) r.where("causes").fail("expected a non-empty list of cause columns");
    std::vector<std::string> names(kCauses.begin(), kCauses.end());
    for (std::size_t i = 0; i < v->size(); i++) f.causes.insert(as_choice((*v)[i], r.where("causes") / i, names));
  }
  return log_settings(read_lanl(shared->file, f), shared->nodes, shared->nodes_at);
}

const FailureSourceRegistration lanl_source{{
    .name = "lanl",
    .description = "the failures of one system of the LANL failure log (LA-UR-05-7318, CSV as published), "
                   "replayed with their repair times (Prob Fixed - Prob Started)",
    .rank = 3,
    .fields = {{"file", "the LANL CSV file, relative to the topology file; required"},
               {"system", "the \"System\" number to replay; required"},
               {"from", "start of the window, a date of the log (m/d/yyyy h:mm), simulated time 0; default: the first "
                        "selected failure"},
               {"to", "end of the window, a date of the log; default: none"},
               {"causes", "the cause columns to keep (Facilities, Hardware, Human Error, Network, Undetermined, "
                          "Software); default: all"},
               {"nodes", "\"modulo\" (nodenumz mod the node count, default), \"by-name\" (nodenumz as text equals a "
                         "host name) or {\"nodenumz\": \"host\" or {\"link\": id}} (a link's outages)"}},
    .read = read_lanl_settings,
    .make = make_log_failures,
    .link_outages = log_link_outages,
}};

} // namespace
} // namespace ckptsim
