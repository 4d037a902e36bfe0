/* The "fta" failure source: an event_trace table of the Failure Trace Archive (Kondo et al., CCGrid
 * 2010), tab-separated, columns event_id, component_id, node_id, platform_id, node_name,
 * event_type, event_start_time, event_end_time, event_end_reason (a header line naming them is
 * optional), times in Unix epoch seconds. Each event of type 0 (unavailable) strikes log node
 * node_id at its start and keeps it down until its end; type 1 (available) is no failure.
 * docs/INPUTS.md, "Failure logs". */
#include "sim/config/file_errors.hpp"
#include "sim/config/input_error.hpp"
#include "sim/failures/log_source.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <sstream>

namespace ckptsim {

namespace {

constexpr std::array<const char*, 9> kColumns = {"event_id",         "component_id",   "node_id",
                                                 "platform_id",      "node_name",      "event_type",
                                                 "event_start_time", "event_end_time", "event_end_reason"};

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, '\t')) {
    if (!field.empty() && field.back() == '\r') field.pop_back();
    out.push_back(field);
  }
  return out;
}

struct FtaFields {
  std::optional<long long> platform;
  std::optional<double> from, to;
};

LogSelection read_fta(const std::string& path, const FtaFields& f) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", cannot_open_reason(path, "FTA event trace"));
  LogSelection s;
  s.file = path;
  std::array<std::size_t, kColumns.size()> at{};
  for (std::size_t i = 0; i < at.size(); i++) at[i] = i; // the archive's order, unless a header says otherwise
  std::string line;
  int lineno = 0;
  bool first = true;
  while (std::getline(in, line)) {
    lineno++;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    const auto row = split_tabs(line);
    const std::string where = fmt::format("line {}", lineno);
    if (first && !row.empty() && row[0] == "event_id") { // the header: columns by name
      for (std::size_t c = 0; c < kColumns.size(); c++) {
        const auto it = std::find(row.begin(), row.end(), kColumns[c]);
        if (it == row.end())
          throw InputError(path, where,
                           fmt::format("no column \"{}\" in the header of an FTA event_trace", kColumns[c]));
        at[c] = static_cast<std::size_t>(it - row.begin());
      }
      first = false;
      continue;
    }
    first = false;
    const auto cell = [&](std::size_t c) -> const std::string& {
      if (at[c] >= row.size())
        throw InputError(path, where,
                         fmt::format("{} tab-separated field(s): no {} (an FTA event_trace has {})", row.size(),
                                     kColumns[c], kColumns.size()));
      return row[at[c]];
    };
    const auto number = [&](std::size_t c) {
      try {
        std::size_t used = 0;
        const double v = std::stod(cell(c), &used);
        if (used == cell(c).size() && std::isfinite(v)) return v;
      } catch (const std::exception&) {
      }
      throw InputError(path, where, fmt::format("{} \"{}\" is not a number", kColumns[c], cell(c)));
    };
    s.read++;
    if (f.platform && static_cast<long long>(number(3)) != *f.platform) {
      s.skipped["other platform"]++;
      continue;
    }
    if (number(5) != 0) {
      s.skipped["not a failure (event_type 1: available)"]++;
      continue;
    }
    const double start = number(6);
    const double end = number(7);
    if ((f.from && start < *f.from) || (f.to && start > *f.to)) {
      s.skipped["outside the window"]++;
      continue;
    }
    if (end < start) {
      s.skipped["ends before it starts"]++;
      continue;
    }
    s.records.push_back({start, static_cast<long long>(number(2)), cell(4), end - start, cell(6)});
  }
  settle_selection(s, f.from, f.from ? fmt::format("{:.0f}", *f.from) : "");
  return s;
}

std::any read_fta_settings(ObjectReader& r, bool chosen, const std::string& base_dir) {
  const auto shared = read_log_fields(r, chosen, base_dir, "fta");
  if (!shared) {
    if (r.optional("platform_id") != nullptr)
      r.where("platform_id").fail("\"platform_id\" is only meaningful with \"model\": \"fta\"");
    return {};
  }
  FtaFields f;
  if (const json* v = r.optional("platform_id"))
    f.platform = as_integer(*v, r.where("platform_id"), 0, std::numeric_limits<std::int64_t>::max());
  if (shared->from) f.from = as_number(*shared->from, r.where("from"));
  if (shared->to) f.to = as_number(*shared->to, r.where("to"));
  if (f.from && f.to && *f.to < *f.from) r.where("to").fail("the window ends before it starts (\"to\" < \"from\")");
  return log_settings(read_fta(shared->file, f), shared->nodes, shared->nodes_at);
}

const FailureSourceRegistration fta_source{{
    .name = "fta",
    .description = "the unavailability events of a Failure Trace Archive event_trace table (tab-separated, epoch "
                   "seconds), replayed with their durations as repair times",
    .rank = 4,
    .fields = {{"file", "the event_trace file, relative to the topology file; required"},
               {"platform_id", "keep the events of this platform only; default: all"},
               {"from", "start of the window, epoch seconds, simulated time 0; default: the first selected failure"},
               {"to", "end of the window, epoch seconds; default: none"},
               {"nodes", "\"modulo\" (node_id mod the node count, default), \"by-name\" (node_name equals a host "
                         "name) or {\"node_id\": \"host\" or {\"link\": id}} (a link's outages)"}},
    .read = read_fta_settings,
    .make = make_log_failures,
    .link_outages = log_link_outages,
}};

} // namespace
} // namespace ckptsim
