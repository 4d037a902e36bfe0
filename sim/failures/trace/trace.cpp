#include "sim/failures/trace/trace.hpp"
#include "sim/config/file_errors.hpp"

#include "sim/config/input_error.hpp"
#include "sim/failures/replay.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace ckptsim {

std::vector<FailureEvent> load_failure_trace(const std::string& path, std::vector<LinkFailureSpec>* links) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", cannot_open_reason(path, "failure trace file"));
  std::vector<FailureEvent> events;
  std::string line;
  int lineno = 0;
  double previous = 0;
  while (std::getline(in, line)) {
    lineno++;
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream ss(line);
    std::string date_text;
    std::string node;
    std::string duration_text;
    std::string extra;
    if (!(ss >> date_text)) continue;
    std::string where = fmt::format("line {}", lineno);
    if (!(ss >> node) || ((ss >> duration_text) && (ss >> extra)))
      throw InputError(path, where,
                       "expected \"<date> <node>\" (a date and a host name or node index, or several joined by "
                       "commas for one failure of all of them) or \"<date> <link> <duration>\" (a link outage)");
    std::string why;
    auto date = units::parse(date_text, units::Kind::Duration, &why);
    if (!date || *date < 0 || std::isinf(*date))
      throw InputError(path, where, date ? "a failure date must be >= 0 and finite" : why);
    if (*date < previous) throw InputError(path, where, "failure dates must be in non-decreasing order");
    previous = *date;
    if (duration_text.empty()) {
      events.push_back({*date, node, path + ": " + where});
      continue;
    }
    // A third field: the line is a link's outage, the link named as `ckptsim platform` names it
    // (checked against the platform once it is built, sim/engine/link_faults.cpp).
    auto duration = units::parse(duration_text, units::Kind::Duration, &why);
    if (!duration)
      throw InputError(path, where,
                       fmt::format("a third field is a link outage's duration (\"<date> <link> <duration>\"): {} "
                                   "(nodes failing together are joined by commas, no spaces)",
                                   why));
    if (*duration <= 0 || std::isinf(*duration))
      throw InputError(path, where, "a link outage lasts > 0 and a finite time");
    if (node.find(',') != std::string::npos)
      throw InputError(path, where, "one link per outage line (\"<date> <link> <duration>\"); nodes take no duration");
    if (links == nullptr) throw InputError(path, where, "link outages are not read here");
    links->push_back(LinkFailureSpec{
        .link = node, .down = *date, .up = *date + *duration, .file = path, .path = where, .link_at = where});
  }
  return events;
}

namespace {

std::any read_trace(ObjectReader& r, bool chosen, const std::string& base_dir) {
  TraceSettings s;
  if (auto* v = r.optional("trace")) {
    if (!chosen) r.where("trace").fail("\"trace\" is only meaningful with \"model\": \"trace\"");
    std::string name = as_string(*v, r.where("trace"));
    std::string path = (!name.empty() && name[0] != '/' && !base_dir.empty()) ? base_dir + "/" + name : name;
    s.file = path;
    s.events = load_failure_trace(path, &s.links);
  } else if (chosen) {
    r.where("trace").fail("missing required field \"trace\" (the failure trace file) for \"model\": \"trace\"");
  }
  return s;
}

const FailureSourceRegistration trace_source{{
    .name = "trace",
    .description = "the failures of a file, replayed: one \"<date> <node>\" per line (a host name or a global node "
                   "index; \"<date> <node>,<node>,...\" strikes them all at once, one failure), or \"<date> <link> "
                   "<duration>\" (an outage of a link), '#' starts a comment",
    .rank = 2,
    .fields = {{"trace", "the failure trace file, relative to the topology file; required with the source"}},
    .read = read_trace,
    .make =
        [](const FailureSourceContext& context) {
          const auto& trace = context.topology.failures.settings_as<TraceSettings>();
          return std::make_unique<ReplayedFailures>(trace.events, context.layout, trace.file);
        },
    .link_outages = [](const std::any& settings) { return std::any_cast<const TraceSettings&>(settings).links; },
}};

} // namespace
} // namespace ckptsim
