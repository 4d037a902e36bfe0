/* `ckptsim compare`: the same inputs and seed under several protocols, one table. Each protocol
 * runs in a child process (SimGrid's engine is process-global, and a run that aborts must not
 * take the others down); the children are forked before any engine exists in the parent. With
 * the same seed the failure process draws the same failure dates and victims for every protocol
 * (a protocol that handles one failure at a time may defer some: the table says how many). */
#include "sim/cli/commands.hpp"
#include "sim/cli/compare_plot.hpp"
#include "sim/cli/listing.hpp"
#include "sim/cli/protocol_list.hpp"

#include "sim/cli/output.hpp"
#include "sim/config/input_error.hpp"
#include "sim/protocol/protocol.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace ckptsim::cli {

namespace {

struct ProtocolRun : ProtocolChoice {
  int status = -1;
  nlohmann::ordered_json doc{};
};

std::vector<ProtocolRun> parse_protocols(const std::string& list) {
  std::vector<ProtocolRun> out;
  for (auto& c : parse_protocol_list(list, "--protocols")) out.push_back({std::move(c)});
  return out;
}

/** Runs `ckptsim run` in a child with the protocol's options added; the results land in @p output. */
int run_child(const std::vector<std::string>& args, const ProtocolRun& p, const std::string& output,
              const std::string& program) {
  std::vector<std::string> child_args = args;
  child_args.insert(child_args.end(), {"--protocol", p.name, "--quiet", "--progress", "false", "--output", output});
  for (const auto& kv : p.params) child_args.insert(child_args.end(), {"--param", kv});
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("compare: fork failed");
  if (pid == 0) {
    int status = 3;
    try {
      status = run_command(child_args, program);
    } catch (const InputError& e) {
      std::fprintf(stderr, "ckptsim: %s: %s\n", p.label.c_str(), e.what());
      status = 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ckptsim: %s: error: %s\n", p.label.c_str(), e.what());
    }
    std::fflush(stderr);
    _exit(status);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

double counter(const nlohmann::ordered_json& doc, const char* name) {
  const auto& c = doc["stats"]["counters"];
  return c.contains(name) ? c[name].get<double>() : 0.0;
}

double result(const nlohmann::ordered_json& doc, const char* name) {
  const auto& r = doc["results"];
  return r.contains(name) && r[name].is_number() ? r[name].get<double>() : 0.0;
}

std::vector<std::string> row(const ProtocolRun& p) {
  if (p.status != 0 && p.doc.is_null()) return {p.label, fmt::format("failed (exit {})", p.status)};
  const auto& d = p.doc;
  const auto& res = d["results"];
  const std::string makespan = res["makespan"].is_number() ? fmt::format("{:.1f}", res["makespan"].get<double>())
                                                           : res["status"].get<std::string>();
  const std::string per_failure = res["rolled_back_per_failure"].is_number()
                                      ? fmt::format("{:.1f}", res["rolled_back_per_failure"].get<double>())
                                      : "-";
  return {p.label,
          makespan,
          fmt::format("{:.0f}", result(d, "lost_work")),
          fmt::format("{:.0f}", counter(d, "storage.saves")),
          fmt::format("{:.1f}", result(d, "storage_held_max_bytes") / 1e6),
          fmt::format("{:.0f}", counter(d, "ctrl.total")),
          fmt::format("{:.0f}", counter(d, "ctrl.wan")),
          fmt::format("{:.0f}", counter(d, "log.entries_max")),
          fmt::format("{:.2f}", counter(d, "log.bytes_max") / 1e6),
          fmt::format("{:.0f}/{:.0f}", result(d, "failures"), result(d, "failures_deferred")),
          per_failure,
          fmt::format("{}", res["consistency"]["violations"].get<int>())};
}

// The network faults' columns (issue 32), shown when a run had link failures in its inputs.
const std::vector<std::string> kNetworkHeader{"cut off (s)", "msgs delayed", "delay (s)", "resent"};

std::vector<std::string> network_cells(const ProtocolRun& p) {
  if (p.doc.is_null() || !p.doc["results"].contains("network")) return {"-", "-", "-", "-"};
  const auto& n = p.doc["results"]["network"];
  double cut = 0; // over every pair of clusters
  for (const auto& pair : n["clusters_cut_off"]) cut += pair["seconds"].get<double>();
  return {fmt::format("{:.0f}", cut), fmt::format("{:.0f}", n["messages_delayed"].get<double>()),
          fmt::format("{:.0f}", n["message_delay_total"].get<double>()),
          fmt::format("{:.0f}", n["transfers_resent"].get<double>())};
}

std::string failures_line(const ProtocolRun& p) {
  if (p.doc.is_null()) return "";
  std::string s;
  const auto& series = p.doc["stats"]["series"];
  if (!series.contains("failures")) return "none";
  for (const auto& f : series["failures"]) {
    if (!s.empty()) s += ", ";
    s += fmt::format("{:.0f} s {}", f["date"].get<double>(), f["host"].get<std::string>());
  }
  return s;
}

} // namespace

int compare_command(const std::vector<std::string>& raw_args, const std::string& program) {
  std::vector<std::string> args;
  const std::string default_list = default_compare_list();
  std::string list = default_list;
  std::string csv, plot;
  for (std::size_t i = 0; i < raw_args.size(); i++) {
    const std::string& a = raw_args[i];
    if (a == "--help" || a == "-h") {
      std::printf("usage: ckptsim compare [--protocols LIST] [--csv FILE] [--plot FILE] [ckptsim run options...]\n\n"
                  "Runs each protocol on the same inputs and seed, each in its own process, and prints one table.\n"
                  "  --protocols LIST  comma-separated NAME[:KEY=VALUE...] (default %s)\n"
                  "  --csv FILE        also write the table as CSV\n"
                  "  --plot FILE       also draw it as bar charts (.png, .svg or .pdf; plots/compare.py)\n"
                  "Every other option goes to `ckptsim run` (see `ckptsim run --help`); --protocol, --param,\n"
                  "--output and --quiet are set per protocol.\n",
                  default_list.c_str());
      return 0;
    }
    if ((a == "--protocols" || a == "--csv" || a == "--plot") && i + 1 >= raw_args.size())
      throw InputError("command line", a, "expects a value");
    if (a == "--protocols")
      list = raw_args[++i];
    else if (a == "--csv")
      csv = raw_args[++i];
    else if (a == "--plot")
      plot = raw_args[++i];
    else if (a == "--protocol" || a == "--param" || a == "--output" || a == "-o")
      throw InputError("command line", a, "set per protocol by compare: use --protocols NAME:KEY=VALUE");
    else
      args.push_back(a);
  }
  auto runs = parse_protocols(list);
  if (!plot.empty()) check_plot_output(plot);

  const auto dir = std::filesystem::temp_directory_path() / fmt::format("ckptsim-compare-{}", getpid());
  std::filesystem::create_directories(dir);
  int worst = 0;
  for (std::size_t i = 0; i < runs.size(); i++) {
    const std::string out = (dir / fmt::format("{}.json", i)).string();
    runs[i].status = run_child(args, runs[i], out, program);
    std::ifstream in(out);
    if (in) runs[i].doc = nlohmann::ordered_json::parse(in, nullptr, false);
    if (runs[i].doc.is_discarded()) runs[i].doc = nullptr;
    worst = std::max(worst, runs[i].status == 0 ? 0 : 3);
  }
  std::filesystem::remove_all(dir);
  // Every run rejected its input: the input is bad (the children said why), not a protocol.
  if (std::all_of(runs.begin(), runs.end(), [](const ProtocolRun& r) { return r.status == 2; })) return 2;

  std::vector<std::string> header{"protocol",    "makespan (s)", "lost work (s)", "ckpt saves",
                                  "held max MB", "ctrl msgs",    "ctrl WAN",      "log max",
                                  "log max MB",  "failures/def", "rolled back/f", "violations"};
  const bool network = std::any_of(runs.begin(), runs.end(), [](const ProtocolRun& r) {
    return !r.doc.is_null() && r.doc["results"].contains("network");
  });
  if (network) header.insert(header.end(), kNetworkHeader.begin(), kNetworkHeader.end());
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : runs) {
    rows.push_back(row(r));
    if (network && rows.back().size() > 2) {
      const auto cells = network_cells(r);
      rows.back().insert(rows.back().end(), cells.begin(), cells.end());
    }
  }
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); c++) {
    width[c] = header[c].size();
    for (const auto& r : rows)
      if (c < r.size()) width[c] = std::max(width[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t c = 0; c < cells.size(); c++)
      s += (c ? "  " : "") +
           (c == 0 ? fmt::format("{:<{}}", cells[c], width[c]) : fmt::format("{:>{}}", cells[c], width[c]));
    return s + "\n";
  };
  std::string table = line(header);
  for (const auto& r : rows) table += line(r);
  std::fputs(table.c_str(), stdout);
  std::printf("\nfailures (date, victim) of each run:\n");
  for (const auto& r : runs) std::printf("  %-24s %s\n", r.label.c_str(), failures_line(r).c_str());
  std::printf(
      "\ncolumns: checkpoint saves = node states saved; held max = checkpoint bytes kept at once (one copy each);\n"
      "ctrl = protocol messages; WAN = those between nodes of different clusters (messages to a service on the\n"
      "controller host, such as a coordinator or an event logger, cross its own link: not counted as WAN);\n"
      "log max = logged messages held at once (entries, MB); failures/def = failures struck / deferred (one at\n"
      "a time); rolled back/f = processes rolled back per failure (mean).\n");
  if (network)
    std::printf("network faults: cut off = seconds a pair of clusters could not reach each other (summed over the\n"
                "pairs); msgs delayed = messages that waited for a route, delay = their waits summed; resent =\n"
                "transfers a link failure cut and that were sent again (docs/MODEL.md, \"Network faults\").\n");

  std::string text;
  auto csv_line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); c++) text += (c ? "," : "") + cells[c];
    text += "\n";
  };
  csv_line(header);
  for (const auto& r : rows) csv_line(r);
  if (!csv.empty()) write_file_atomically(csv, text);
  if (!plot.empty()) {
    std::string given;
    for (const auto& a : raw_args) given += " " + a;
    const int drawn = draw_csv("compare.py", text, plot, "ckptsim compare: " + list, "ckptsim compare" + given);
    if (drawn != 0) return std::max(worst, drawn == 2 ? 2 : 1);
  }
  return worst;
}

} // namespace ckptsim::cli
