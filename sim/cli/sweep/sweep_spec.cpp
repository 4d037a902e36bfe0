#include "sim/cli/sweep/sweep_spec.hpp"

#include "sim/config/topology.hpp"
#include "sim/protocol/protocol.hpp"
#include "sim/storage/model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace ckptsim::sweep {

namespace fs = std::filesystem;

namespace {

// Columns every results row has besides the axes: an axis must not take their names.
const std::set<std::string> kReserved{"index", "key", "protocol", "storage", "seed", "status", "exit", "error"};

// Options a sweep sets per run itself: a sweep file giving them would make every run write the
// same file or contradict the sweep's own lists.
const std::set<std::string> kRunOwned{"--protocol", "--seed",     "--output",   "-o",         "--quiet",
                                      "-q",         "--progress", "--topology", "--platform", "--application",
                                      "--timers"};
// Options that name one file for a run's event trace or Paje trace: every run would write it, in
// turn or at once (the old name --trace kept as an alias of --event-trace).
const std::set<std::string> kOneFileForEveryRun{"--event-trace", "--trace", "--paje"};

/** @brief Refuses a `ckptsim run` option of a sweep file (run_options or an axis) that the sweep
 *  sets itself or that would make every run write one file. */
void check_run_option(const std::string& option, const Where& at, const char* instead) {
  if (kRunOwned.count(option)) at.fail(fmt::format("{} is set by the sweep itself (use {})", option, instead));
  if (kOneFileForEveryRun.count(option))
    at.fail(fmt::format("{} names one file, which every run of the sweep would overwrite (`ckptsim sweep "
                        "--dry-run` prints each run's `ckptsim run` command line, to trace one run)",
                        option));
}

std::string label_of(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string resolve(const std::string& base_dir, const std::string& name) {
  if (name.empty() || fs::path(name).is_absolute()) return name;
  return (fs::path(base_dir) / name).lexically_normal().string();
}

void check_set_path(const std::string& path, const Where& at) {
  const auto slash = path.find('/');
  const std::string doc = path.substr(0, slash);
  if ((doc != "topology" && doc != "application" && doc != "timers") || slash == std::string::npos ||
      slash + 1 == path.size())
    at.fail(fmt::format("\"{}\": a field path starts with topology/, application/ or timers/ and names a field "
                        "(the syntax of `ckptsim run --set`), e.g. timers/clusters/0/checkpoint_period",
                        path));
}

Axis parse_axis(const json& j, const Where& at) {
  ObjectReader r(j, at);
  Axis a;
  const json* set = r.optional("set");
  const json* option = r.optional("option");
  if ((set != nullptr) == (option != nullptr))
    at.fail("an axis has either \"set\" (input fields) or \"option\" (a `ckptsim run` option)");
  if (set) {
    if (set->is_string()) {
      a.paths.push_back(set->get<std::string>());
    } else if (set->is_array() && !set->empty()) {
      for (std::size_t i = 0; i < set->size(); i++) a.paths.push_back(as_string((*set)[i], r.where("set") / i));
    } else {
      r.where("set").fail("expected a field path or a non-empty list of field paths");
    }
    for (std::size_t i = 0; i < a.paths.size(); i++) check_set_path(a.paths[i], r.where("set"));
  } else {
    a.option = as_string(*option, r.where("option"));
    if (a.option.rfind("--", 0) != 0) r.where("option").fail("expected a `ckptsim run` option such as --param");
    check_run_option(a.option, r.where("option"), "the protocols, seeds or inputs lists");
  }
  if (auto* v = r.optional("name"))
    a.name = as_string(*v, r.where("name"));
  else
    a.name = set ? a.paths.front() : a.option.substr(2);
  if (a.name.empty() || kReserved.count(a.name))
    r.where("name").fail(fmt::format("\"{}\" cannot name an axis (reserved: index, key, protocol, storage, seed, "
                                     "status, exit, error)",
                                     a.name));
  const json& values = r.required("values");
  if (!values.is_array() || values.empty()) r.where("values").fail("expected a non-empty list of values");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < values.size(); i++) {
    const Where vat = r.where("values") / i;
    std::vector<json> one;
    if (a.paths.size() > 1) {
      if (!values[i].is_array() || values[i].size() != a.paths.size())
        vat.fail(fmt::format("expected a list of {} values, one per field of \"set\"", a.paths.size()));
      one.assign(values[i].begin(), values[i].end());
    } else {
      one.push_back(values[i]);
    }
    if (!set && !one.front().is_string() && !one.front().is_number()) vat.fail("an option's value is text or a number");
    std::string label;
    for (const auto& v : one) label += (label.empty() ? "" : "/") + label_of(v);
    if (!seen.insert(label).second) vat.fail(fmt::format("value {} appears twice", label));
    a.values.push_back(std::move(one));
    a.labels.push_back(label);
  }
  r.finish();
  return a;
}

std::vector<std::string> string_list(const json& j, const Where& at) {
  if (!j.is_array() || j.empty()) at.fail("expected a non-empty list of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < j.size(); i++) out.push_back(as_string(j[i], at / i));
  return out;
}

void check_protocol(const std::string& spec, const Where& at) {
  const std::string name = spec.substr(0, spec.find(':'));
  try {
    ProtocolRegistry::instance().get(name, at.path());
  } catch (const InputError& e) {
    at.fail(e.problem());
  }
  std::size_t colon = spec.find(':');
  while (colon != std::string::npos) {
    const std::size_t next = spec.find(':', colon + 1);
    const std::string p = spec.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1);
    if (p.find('=') == std::string::npos || p.front() == '=')
      at.fail(fmt::format("\"{}\": expected NAME[:KEY=VALUE...]", spec));
    colon = next;
  }
}

} // namespace

const std::vector<std::string>& default_keep() {
  static const std::vector<std::string> keep{"results.status",
                                             "results.makespan",
                                             "results.failure_free_time",
                                             "results.overhead_pct",
                                             "results.failures",
                                             "results.failures_deferred",
                                             "results.lost_work",
                                             "results.recovery_time",
                                             "results.control_messages",
                                             "stats.counters.storage.saves",
                                             "results.storage_held_max_bytes",
                                             "results.energy.total_j",
                                             "results.consistency.violations"};
  return keep;
}

SweepSpec parse_sweep(const json& doc, const std::string& file) {
  SweepSpec s;
  s.file = file;
  s.document = doc;
  s.base_dir = fs::path(file).parent_path().string();
  ObjectReader r(doc, Where(file));
  if (auto* v = r.optional("description")) s.description = as_string(*v, r.where("description"));
  if (auto* v = r.optional("inputs")) {
    ObjectReader in(*v, r.where("inputs"));
    auto file_of = [&](const char* key) {
      const json* f = in.optional(key);
      if (!f) return std::string();
      const std::string path = resolve(s.base_dir, as_string(*f, in.where(key)));
      if (!fs::exists(path)) in.where(key).fail(fmt::format("no such file: {}", path));
      return path;
    };
    s.topology = file_of("topology");
    s.platform = file_of("platform");
    s.application = file_of("application");
    s.timers = file_of("timers");
    in.finish();
  }
  if (auto* v = r.optional("run_options")) {
    s.run_options = string_list(*v, r.where("run_options"));
    for (std::size_t i = 0; i < s.run_options.size(); i++)
      check_run_option(s.run_options[i], r.where("run_options") / i, "inputs, protocols or seeds");
  }
  if (auto* v = r.optional("axes")) {
    if (!v->is_array()) r.where("axes").fail("expected a list of axes");
    std::set<std::string> names;
    for (std::size_t i = 0; i < v->size(); i++) {
      s.axes.push_back(parse_axis((*v)[i], r.where("axes") / i));
      if (!names.insert(s.axes.back().name).second)
        (r.where("axes") / i).fail(fmt::format("two axes are named \"{}\" (give one a \"name\")", s.axes.back().name));
    }
  }
  s.protocols = string_list(r.required("protocols"), r.where("protocols"));
  for (std::size_t i = 0; i < s.protocols.size(); i++) check_protocol(s.protocols[i], r.where("protocols") / i);
  if (std::set<std::string>(s.protocols.begin(), s.protocols.end()).size() != s.protocols.size())
    r.where("protocols").fail("a protocol appears twice");
  if (auto* v = r.optional("storage")) {
    s.storage = string_list(*v, r.where("storage"));
    for (std::size_t i = 0; i < s.storage.size(); i++)
      StorageModelRegistry::instance().choose(s.storage[i], r.where("storage") / i);
  }
  const json* seeds = r.optional("seeds");
  const json* replicates = r.optional("replicates");
  if (seeds && replicates) r.where("replicates").fail("give either \"seeds\" or \"replicates\", not both");
  if (seeds) {
    if (!seeds->is_array() || seeds->empty()) r.where("seeds").fail("expected a non-empty list of seeds");
    for (std::size_t i = 0; i < seeds->size(); i++)
      s.seeds.push_back(static_cast<std::uint64_t>(as_integer((*seeds)[i], r.where("seeds") / i, 0, INT64_MAX)));
    if (std::set<std::uint64_t>(s.seeds.begin(), s.seeds.end()).size() != s.seeds.size())
      r.where("seeds").fail("a seed appears twice");
  } else if (replicates) {
    const auto n = as_integer(*replicates, r.where("replicates"), 1, 1000000);
    for (std::int64_t k = 1; k <= n; k++) s.seeds.push_back(static_cast<std::uint64_t>(k));
  } else {
    s.seeds.push_back(1);
  }
  s.keep = default_keep();
  if (auto* v = r.optional("keep")) {
    s.keep = string_list(*v, r.where("keep"));
    for (std::size_t i = 0; i < s.keep.size(); i++) {
      if (s.keep[i].empty()) (r.where("keep") / i).fail("an empty column name");
      if (s.keep[i][0] != '/') continue;
      try {
        json::json_pointer p(s.keep[i]);
      } catch (const json::exception& e) {
        (r.where("keep") / i).fail(fmt::format("not a JSON pointer: {}", e.what()));
      }
    }
  }
  if (auto* v = r.optional("time_limit")) s.time_limit = as_period(*v, r.where("time_limit"));
  if (s.time_limit == std::numeric_limits<double>::infinity()) s.time_limit = 0;
  if (auto* v = r.optional("output"))
    s.output = resolve(s.base_dir, as_string(*v, r.where("output")));
  else
    s.output = (fs::path(file).parent_path() / fs::path(file).stem()).string();
  r.finish();
  return s;
}

SweepSpec load_sweep(const std::string& file) { return parse_sweep(load_json_file(file), file); }

std::vector<std::string> key_columns(const SweepSpec& spec) {
  std::vector<std::string> cols;
  for (const auto& a : spec.axes) cols.push_back(a.name);
  cols.insert(cols.end(), {"protocol", "storage", "seed"});
  return cols;
}

std::vector<RunSpec> expand(const SweepSpec& spec, bool storage_object_exists) {
  const std::vector<std::string> storage = spec.storage.empty() ? std::vector<std::string>{""} : spec.storage;
  // Mixed-radix counting over (axes..., protocol, storage, seed), the first axis slowest.
  std::vector<std::size_t> sizes;
  for (const auto& a : spec.axes) sizes.push_back(a.values.size());
  sizes.insert(sizes.end(), {spec.protocols.size(), storage.size(), spec.seeds.size()});
  std::size_t total = 1;
  for (auto n : sizes) total *= n;
  std::vector<RunSpec> runs;
  runs.reserve(total);
  std::vector<std::size_t> digit(sizes.size(), 0);
  for (std::size_t index = 0; index < total; index++) {
    RunSpec run;
    run.index = index;
    if (!spec.topology.empty()) run.args.insert(run.args.end(), {"--topology", spec.topology});
    if (!spec.platform.empty()) run.args.insert(run.args.end(), {"--platform", spec.platform});
    if (!spec.application.empty()) run.args.insert(run.args.end(), {"--application", spec.application});
    if (!spec.timers.empty()) run.args.insert(run.args.end(), {"--timers", spec.timers});
    run.args.insert(run.args.end(), spec.run_options.begin(), spec.run_options.end());
    for (std::size_t k = 0; k < spec.axes.size(); k++) {
      const Axis& a = spec.axes[k];
      const auto& v = a.values[digit[k]];
      if (a.paths.empty()) {
        run.args.insert(run.args.end(), {a.option, label_of(v.front())});
      } else {
        for (std::size_t p = 0; p < a.paths.size(); p++)
          run.args.insert(run.args.end(), {"--set", a.paths[p] + "=" + v[p].dump()});
      }
      run.values.emplace_back(a.name, a.labels[digit[k]]);
    }
    const std::size_t base = spec.axes.size();
    const std::string& protocol = spec.protocols[digit[base]];
    std::size_t colon = protocol.find(':');
    run.args.insert(run.args.end(), {"--protocol", protocol.substr(0, colon)});
    while (colon != std::string::npos) {
      const std::size_t next = protocol.find(':', colon + 1);
      run.args.insert(
          run.args.end(),
          {"--param", protocol.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1)});
      colon = next;
    }
    const std::string& store = storage[digit[base + 1]];
    if (!store.empty())
      run.args.insert(run.args.end(),
                      {"--set", storage_object_exists ? "topology/storage/model=" + store
                                                      : "topology/storage={\"model\":\"" + store + "\"}"});
    const std::uint64_t seed = spec.seeds[digit[base + 2]];
    run.args.insert(run.args.end(), {"--seed", std::to_string(seed)});
    run.values.emplace_back("protocol", protocol);
    run.values.emplace_back("storage", store);
    run.values.emplace_back("seed", std::to_string(seed));
    for (const auto& [col, val] : run.values) run.key += (run.key.empty() ? "" : ";") + col + "=" + val;
    runs.push_back(std::move(run));
    for (std::size_t d = sizes.size(); d-- > 0;) { // next combination, the last digit fastest
      if (++digit[d] < sizes[d]) break;
      digit[d] = 0;
    }
  }
  return runs;
}

bool kept(const std::vector<std::string>& keep, const std::string& column) {
  for (const auto& k : keep) {
    if (!k.empty() && k.back() == '*') {
      if (column.compare(0, k.size() - 1, k, 0, k.size() - 1) == 0) return true;
    } else if (k == column) {
      return true;
    }
  }
  return false;
}

} // namespace ckptsim::sweep
