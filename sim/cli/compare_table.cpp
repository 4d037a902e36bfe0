#include "sim/cli/compare_table.hpp"

#include "sim/cli/sweep/aggregate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace ckptsim::cli {

namespace {

using Doc = nlohmann::ordered_json;

double counter(const Doc& doc, const char* name) {
  const auto& c = doc["stats"]["counters"];
  return c.contains(name) ? c[name].get<double>() : 0.0;
}

double result(const Doc& doc, const char* name) {
  const auto& r = doc["results"];
  return r.contains(name) && r[name].is_number() ? r[name].get<double>() : 0.0;
}

std::optional<double> number_at(const Doc& doc, const char* name) {
  const auto& r = doc["results"];
  if (!r.contains(name) || !r[name].is_number()) return std::nullopt;
  return r[name].get<double>();
}

double network(const Doc& doc, const char* name) {
  if (!doc["results"].contains("network")) return 0;
  const auto& n = doc["results"]["network"];
  if (std::string(name) == "clusters_cut_off") { // over every pair of clusters
    double cut = 0;
    for (const auto& pair : n["clusters_cut_off"]) cut += pair["seconds"].get<double>();
    return cut;
  }
  return n[name].get<double>();
}

/** One column of the table: its header, its decimals, a run's value (none: the run has no such
 *  figure, e.g. no makespan when it was stopped at its end date). */
struct Metric {
  std::string name;
  int decimals;
  std::function<std::optional<double>(const Doc&)> value;
  bool summed = false; // over seeds, the sum rather than the mean (violations: any is a bug)
};

std::vector<Metric> metrics(bool with_network, bool seeds) {
  std::vector<Metric> m{
      {"makespan (s)", 1, [](const Doc& d) { return number_at(d, "makespan"); }},
      {"lost work (s)", 0, [](const Doc& d) { return result(d, "lost_work"); }},
      {"ckpt saves", 0, [](const Doc& d) { return counter(d, "storage.saves"); }},
      {"held max MB", 1, [](const Doc& d) { return result(d, "storage_held_max_bytes") / 1e6; }},
      {"ctrl msgs", 0, [](const Doc& d) { return counter(d, "ctrl.total"); }},
      {"ctrl WAN", 0, [](const Doc& d) { return counter(d, "ctrl.wan"); }},
      {"log max", 0, [](const Doc& d) { return counter(d, "log.entries_max"); }},
      {"log max MB", 2, [](const Doc& d) { return counter(d, "log.bytes_max") / 1e6; }},
  };
  if (seeds) { // a mean of "1/0" is no number: struck and deferred apart
    m.push_back({"failures", 1, [](const Doc& d) { return result(d, "failures"); }});
    m.push_back({"deferred", 1, [](const Doc& d) { return result(d, "failures_deferred"); }});
  }
  m.push_back({"rolled back/f", 1, [](const Doc& d) { return number_at(d, "rolled_back_per_failure"); }});
  m.push_back({"energy MJ", 1, [](const Doc& d) -> std::optional<double> {
                 const auto& r = d["results"];
                 if (!r.contains("energy")) return std::nullopt;
                 return r["energy"]["total_j"].get<double>() / 1e6;
               }});
  m.push_back(
      {"violations", 0, [](const Doc& d) { return d["results"]["consistency"]["violations"].get<double>(); }, true});
  if (with_network) {
    m.push_back({"cut off (s)", 0, [](const Doc& d) { return network(d, "clusters_cut_off"); }});
    m.push_back({"msgs delayed", 0, [](const Doc& d) { return network(d, "messages_delayed"); }});
    m.push_back({"delay (s)", 0, [](const Doc& d) { return network(d, "message_delay_total"); }});
    m.push_back({"resent", 0, [](const Doc& d) { return network(d, "transfers_resent"); }});
  }
  return m;
}

std::string fixed(double v, int decimals) { return fmt::format("{:.{}f}", v, decimals); }

} // namespace

bool any_network(const std::vector<ProtocolRuns>& protocols) {
  for (const auto& p : protocols)
    for (const auto& d : p.docs)
      if (!d.is_null() && d["results"].contains("network")) return true;
  return false;
}

CompareTable single_run_table(const std::vector<ProtocolRuns>& protocols, bool with_network) {
  CompareTable t;
  const auto ms = metrics(with_network, false);
  t.header = {"protocol"};
  for (const auto& m : ms) t.header.push_back(m.name);
  // "failures/def" sits before "rolled back/f", as the table always had it.
  const auto rolled = std::find(t.header.begin(), t.header.end(), "rolled back/f") - t.header.begin();
  t.header.insert(t.header.begin() + rolled, "failures/def");
  for (const auto& p : protocols) {
    const Doc& d = p.docs.front();
    const int status = p.status.front();
    std::vector<std::string> row{p.label};
    if (status != 0 && d.is_null()) {
      row.push_back(fmt::format("failed (exit {})", status));
    } else {
      for (const auto& m : ms) {
        if (m.name == "rolled back/f")
          row.push_back(fmt::format("{:.0f}/{:.0f}", result(d, "failures"), result(d, "failures_deferred")));
        const auto v = m.value(d);
        if (m.name == "makespan (s)" && !v)
          row.push_back(d["results"]["status"].get<std::string>()); // why there is none
        else
          row.push_back(v ? fixed(*v, m.decimals) : "-");
      }
      if (with_network && !d["results"].contains("network")) std::fill(row.end() - 4, row.end(), std::string("-"));
    }
    t.rows.push_back(row);
  }
  t.csv_header = t.header;
  t.csv_rows = t.rows;
  return t;
}

CompareTable seeds_table(const std::vector<ProtocolRuns>& protocols, bool with_network) {
  CompareTable t;
  const auto ms = metrics(with_network, true);
  t.header = {"protocol", "runs", "failed"};
  t.csv_header = t.header;
  for (const auto& m : ms) {
    t.header.push_back(m.name);
    t.csv_header.push_back(m.name);
    if (!m.summed) t.csv_header.push_back(m.name + " ci95");
  }
  for (const auto& p : protocols) {
    // A run is used when it ended by itself with its results (exit 0); the others are counted,
    // never averaged in (a failed run's figures are those of a run cut short).
    std::vector<const Doc*> used;
    for (std::size_t i = 0; i < p.docs.size(); i++)
      if (p.status[i] == 0 && !p.docs[i].is_null()) used.push_back(&p.docs[i]);
    const std::size_t failed = p.docs.size() - used.size();
    std::vector<std::string> row{p.label, std::to_string(used.size()), std::to_string(failed)};
    std::vector<std::string> csv = row;
    for (const auto& m : ms) {
      std::vector<double> xs;
      for (const Doc* d : used)
        if (auto v = m.value(*d)) xs.push_back(*v);
      if (m.summed) {
        double sum = 0;
        for (double x : xs) sum += x;
        row.push_back(fixed(sum, m.decimals));
        csv.push_back(fixed(sum, m.decimals));
        continue;
      }
      if (xs.empty()) {
        row.push_back("-");
        csv.insert(csv.end(), {"-", "-"});
        continue;
      }
      const sweep::Summary s = sweep::summarize(xs);
      const bool interval = std::isfinite(s.ci95);
      // Fewer values than runs used: runs without this figure (no makespan when stopped at --end).
      const std::string count = xs.size() < used.size() ? fmt::format(" [{}]", xs.size()) : "";
      row.push_back(fixed(s.mean, m.decimals) + (interval ? " ± " + fixed(s.ci95, m.decimals) : "") + count);
      csv.push_back(fixed(s.mean, m.decimals + 2));
      csv.push_back(interval ? fixed(s.ci95, m.decimals + 2) : "-");
    }
    t.rows.push_back(row);
    t.csv_rows.push_back(csv);
  }
  return t;
}

std::string aligned(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  // Widths in characters, not bytes: "±" is two bytes of UTF-8.
  const auto width_of = [](const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
  };
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); c++) {
    width[c] = width_of(header[c]);
    for (const auto& r : rows)
      if (c < r.size()) width[c] = std::max(width[c], width_of(r[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t c = 0; c < cells.size(); c++) {
      const std::string pad(width[c] - width_of(cells[c]), ' ');
      s += (c ? "  " : "") + (c == 0 ? cells[c] + pad : pad + cells[c]);
    }
    return s + "\n";
  };
  std::string table = line(header);
  for (const auto& r : rows) table += line(r);
  return table;
}

std::string failures_line(const Doc& doc) {
  if (doc.is_null()) return "";
  std::string s;
  const auto& series = doc["stats"]["series"];
  if (!series.contains("failures")) return "none";
  for (const auto& f : series["failures"]) {
    if (!s.empty()) s += ", ";
    s += fmt::format("{:.0f} s {}", f["date"].get<double>(), f["host"].get<std::string>());
  }
  return s;
}

} // namespace ckptsim::cli
