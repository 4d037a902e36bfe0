/* The "levels" storage model: multi-level checkpointing as SCR, FTI and VeloC do it
 * (docs/INPUTS.md, "Storage levels"; docs/MODEL.md, "Storage levels"). Checkpoint k is written at
 * the deepest level whose `every` divides k:
 *   - every checkpoint is first written to the node's own device when the first level is "local"
 *     (bytes / bandwidth on the node; lost with the node);
 *   - "partner": a complete copy in the memory of the node's partner (placement.hpp);
 *   - "xor" / "rs": the node encodes k.S bytes (k = parity: 1 for xor) at encode_rate, then sends
 *     k.S/(g-1) to each other member of its group of g, which keeps it as its share of the group's
 *     parity (k.S/(g-k) a member); the save survives while g-k members keep their share;
 *   - "pfs": written with the previous level's scheme, then flushed (S bytes) to the parallel file
 *     system, the checkpoint servers of the platform's "storage" zone (node i to server i mod s),
 *     whose links every writer shares; "sync": the save is complete when the flush is, "async":
 *     once the previous level's is, the flush going on meanwhile.
 * A node reads a checkpoint back from the cheapest place that holds it: its own copy (at the local
 * device's rate), its partner's, its group (S/(g-k) from each of g-k members, then S decoded at
 * encode_rate), the file system. */
#include "sim/storage/model.hpp"
#include "sim/observe/stats.hpp"
#include "sim/storage/checkpoint_store.hpp"
#include "sim/storage/levels/placement.hpp"
#include "sim/storage/levels/plan.hpp"

#include <fmt/format.h>

#include <memory>

namespace ckptsim {

namespace {
constexpr const char* kLevelsModel = "levels";

using levels::Kind;

const levels::Plan& plan_of(const StorageSpec& spec) {
  static const levels::Plan none;
  auto it = spec.settings.find(kLevelsModel);
  return it == spec.settings.end() ? none : *std::any_cast<std::shared_ptr<const levels::Plan>>(it->second);
}

const levels::Placement& placement_of(const StorageContext& c) {
  return *std::any_cast<std::shared_ptr<const levels::Placement>>(*c.state);
}

void read_levels(ObjectReader& r, StorageSpec& spec) {
  auto* v = r.optional("levels");
  if (!v) return;
  auto plan = std::make_shared<levels::Plan>(levels::parse_levels(*v, r.where("levels")));
  const levels::Level& last = plan->levels.back();
  if (last.kind == Kind::Pfs && (last.bandwidth > 0 || last.latency >= 0)) {
    // The file system is the platform's "storage" zone: its link comes from one place.
    for (const char* key : {"servers", "server_link"})
      if (r.has(key))
        (r.where("levels") / (plan->levels.size() - 1))
            .fail(fmt::format("the pfs level's bandwidth and latency define the checkpoint servers' zone; remove "
                              "\"{}\" or give the link there",
                              key));
    spec.servers = 1;
    if (last.bandwidth > 0) spec.server_link.bandwidth = last.bandwidth;
    if (last.latency >= 0) spec.server_link.latency = last.latency;
  }
  spec.settings[kLevelsModel] = std::shared_ptr<const levels::Plan>(plan);
}

void check_levels(const StorageSpec& spec, bool used, const Where& at) {
  const bool given = plan_of(spec).given;
  if (used && !given)
    (at / "storage" / "levels")
        .fail("missing required field \"levels\" for the \"levels\" storage model, e.g. [{\"kind\": \"partner\"}, "
              "{\"kind\": \"pfs\", \"every\": 10}]");
  if (!used && given) (at / "storage" / "levels").fail("only meaningful with the \"levels\" storage model");
}

void check_protocol(const StorageSpec& spec, StorageUse use, const std::string& protocol, const Where& at) {
  const levels::Plan& plan = plan_of(spec);
  if (use == StorageUse::Fixed)
    (at / "model")
        .fail(fmt::format("{} relies on one remote copy of each checkpoint where its storage model puts it: it "
                          "cannot use the \"levels\" storage model (use servers, buddy or replicated)",
                          protocol));
  if (use == StorageUse::Chosen)
    for (std::size_t i = 0; i < plan.levels.size(); i++)
      if (plan.levels[i].kind == Kind::Xor || plan.levels[i].kind == Kind::Rs)
        (at / "levels" / i / "kind")
            .fail(fmt::format("an {} group encodes its members' checkpoints of one number together, and {} saves "
                              "each process' checkpoints at dates of its own: use partner or pfs levels",
                              levels::to_string(plan.levels[i].kind), protocol));
  if (use != StorageUse::NewestLine && plan.levels.front().kind == Kind::Local) {
    bool remote_every_time = false;
    for (std::size_t i = 1; i < plan.levels.size(); i++) remote_every_time |= plan.levels[i].every == 1;
    if (!remote_every_time)
      (at / "levels" / 0)
          .fail(fmt::format("{} restores the checkpoint its own rules choose, and a checkpoint written at the local "
                            "level only dies with its node: give a deeper level \"every\": 1 (or use coordinated, "
                            "which falls back to an older line)",
                            protocol));
  }
}

std::any prepare_levels(const StorageContext& c, const std::vector<bool>& uses) {
  return std::make_shared<const levels::Placement>(plan_of(c.topology.storage), c.topology, c.layout, uses);
}

// The remote complete copies of checkpoint @p number: the partner's and the file system's.
std::vector<Holder> levels_holders(NodeId node, std::uint64_t number, const StorageContext& c) {
  const levels::Plan& plan = plan_of(c.topology.storage);
  const int level = levels::level_of(plan, number);
  std::vector<Holder> out;
  const int scheme = levels::scheme_level(plan, level);
  if (scheme > 0 && plan.levels[static_cast<std::size_t>(scheme) - 1].kind == Kind::Partner && c.state)
    if (auto p = placement_of(c).partner(scheme - 1, node)) out.push_back(*p);
  if (level > 0 && plan.levels[static_cast<std::size_t>(level) - 1].kind == Kind::Pfs && c.servers > 0)
    out.push_back(server_holder(node % c.servers));
  return out;
}

double seconds(double bytes, double rate) { return rate > 0 ? bytes / rate : 0.0; }

// The steps of writing with level @p scheme's scheme (0: none).
void scheme_steps(const levels::Plan& plan, int scheme, NodeId node, double bytes, const StorageContext& c,
                  SavePlan& out) {
  if (scheme <= 0) return;
  const levels::Level& l = plan.levels[static_cast<std::size_t>(scheme) - 1];
  if (l.kind == Kind::Partner) {
    StorageStep step{.what = "partner"};
    if (auto p = placement_of(c).partner(scheme - 1, node)) step.sends.emplace_back(*p, bytes);
    out.steps.push_back(std::move(step));
  } else if (l.kind == Kind::Xor || l.kind == Kind::Rs) {
    const std::vector<NodeId> members = placement_of(c).group(scheme - 1, node);
    const int g = static_cast<int>(members.size());
    const double k = l.parity;
    StorageStep step{.delay = seconds(k * bytes, l.encode_rate), .parity = true, .what = levels::to_string(l.kind)};
    for (NodeId m : members)
      if (m != node) step.sends.emplace_back(m, k * bytes / (g - 1));
    out.steps.push_back(std::move(step));
    out.group = {placement_of(c).group_id(scheme - 1, node), g, l.parity, k * bytes / (g - l.parity)};
  }
}

SavePlan levels_save_plan(NodeId node, std::uint64_t number, double bytes, const StorageContext& c) {
  const levels::Plan& plan = plan_of(c.topology.storage);
  SavePlan out;
  out.level = levels::level_of(plan, number);
  const levels::Level& first = plan.levels.front();
  if (first.kind == Kind::Local)
    out.steps.push_back({.delay = seconds(bytes, first.bandwidth), .written = bytes, .what = "local"});
  scheme_steps(plan, levels::scheme_level(plan, out.level), node, bytes, c, out);
  const levels::Level& l = plan.levels[static_cast<std::size_t>(out.level) - 1];
  if (l.kind == Kind::Pfs) {
    if (l.async) {
      if (out.steps.empty()) out.steps.push_back({.what = "memory"});
      out.steps.back().reports = true;
    }
    out.steps.push_back({.sends = {{server_holder(node % c.servers), bytes}}, .what = "flush"});
  }
  if (out.steps.empty()) out.steps.push_back({.what = "memory"});
  return out; // complete after its last step unless a step says otherwise
}

std::optional<LoadPlan> levels_load_plan(NodeId node, std::uint64_t number, const StorageContext& c) {
  const levels::Plan& plan = plan_of(c.topology.storage);
  const CheckpointStore::Entry* e = c.store->find(node, number);
  if (!e) return std::nullopt;
  const double bytes = e->bytes;
  const levels::Level& first = plan.levels.front();
  if (e->holders.count(node)) { // its own copy: on its device, or in memory without a local level
    if (first.kind == Kind::Local) return LoadPlan{.level = 1, .delay_before = seconds(bytes, first.bandwidth)};
    return LoadPlan{.level = 0};
  }
  const int scheme = levels::scheme_level(plan, e->level);
  for (Holder h : e->holders)
    if (!is_server(h)) return LoadPlan{.level = scheme, .fetches = {{h, bytes}}};
  if (e->group.size > 0 && c.store->restorable(node, number) && e->encoded) {
    const levels::Level& l = plan.levels[static_cast<std::size_t>(scheme) - 1];
    const int needed = e->group.size - e->group.parity;
    LoadPlan out{.level = scheme, .delay_after = seconds(bytes, l.encode_rate)};
    for (NodeId m : placement_of(c).group(scheme - 1, node)) {
      const auto* other = m == node ? nullptr : c.store->find(m, number);
      if (other && other->share_alive && static_cast<int>(out.fetches.size()) < needed)
        out.fetches.emplace_back(m, bytes / needed);
    }
    if (static_cast<int>(out.fetches.size()) == needed) return out;
  }
  for (Holder h : e->holders)
    if (is_server(h)) return LoadPlan{.level = static_cast<int>(plan.levels.size()), .fetches = {{h, bytes}}};
  return std::nullopt;
}

nlohmann::ordered_json levels_results(const std::vector<ClusterId>& /*clusters*/, const StorageContext& c) {
  const levels::Plan& plan = plan_of(c.topology.storage);
  const Stats& st = *c.stats;
  auto get = [&](int level, const char* what) { return st.get(fmt::format("storage.level{}.{}", level, what)); };
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  const auto& held = c.store->level_bytes_max();
  for (std::size_t i = 0; i < plan.levels.size(); i++) {
    const int level = static_cast<int>(i) + 1;
    const levels::Level& l = plan.levels[i];
    nlohmann::ordered_json entry{{"level", level},
                                 {"kind", levels::to_string(l.kind)},
                                 {"every", l.every},
                                 {"checkpoints", get(level, "checkpoints")},
                                 {"bytes_written", get(level, "bytes")},
                                 {"time", get(level, "time")},
                                 {"recoveries_served", get(level, "recoveries")},
                                 {"held_max_bytes", i + 1 < held.size() ? held[i + 1] : 0.0}};
    if (l.kind == Kind::Pfs) {
      entry["flush"] = l.async ? "async" : "sync";
      if (l.async) entry["flush_time"] = get(level, "flush_time");
    }
    list.push_back(entry);
  }
  return {{"levels", list}, {"recoveries_from_memory", get(0, "recoveries")}};
}

// The fewest domains of @p scope in a cluster (0: unknown, the clusters come from a platform XML).
int fewest_domains(const Topology& t, const std::string& scope) {
  int fewest = 0;
  for (const ClusterSpec& c : t.clusters) {
    auto it = c.domains.find(scope);
    const DomainSpec* d = it != c.domains.end() ? &it->second : nullptr;
    if (!d && t.domains.count(scope)) d = &t.domains.at(scope);
    if (!d || c.nodes == 0) return 0;
    const int n = d->size > 0 ? (c.nodes + d->size - 1) / d->size : static_cast<int>(d->groups.size());
    fewest = fewest == 0 ? n : std::min(fewest, n);
  }
  return fewest;
}

// A level survives the failures of its domain scope when a domain holds no node's copy along with
// the node (partner: the partner is in another domain) or fewer members of a group than its
// parity (the group's members are spread round-robin over the domains).
std::vector<AdvisedLevel> levels_advised(const Topology& topology) {
  const levels::Plan& plan = plan_of(topology.storage);
  std::vector<AdvisedLevel> out;
  for (std::size_t i = 0; i < plan.levels.size(); i++) {
    const levels::Level& l = plan.levels[i];
    AdvisedLevel a{fmt::format("L{} {}", i + 1, levels::to_string(l.kind)), {}};
    if (l.kind == Kind::Pfs) a.survives = {"*"};
    if (l.kind == Kind::Partner || l.kind == Kind::Xor || l.kind == Kind::Rs) {
      a.survives = {"node"};
      const std::string scope = levels::domain_scope(l, topology);
      const int domains = scope.empty() ? 0 : fewest_domains(topology, scope);
      const bool spread =
          l.kind == Kind::Partner ? domains >= 2 : domains > 0 && (l.group + domains - 1) / domains <= l.parity;
      if (spread) a.survives.push_back(scope);
    }
    if (i > 0) a.every_field = fmt::format("storage/levels/{}/every", i);
    out.push_back(std::move(a));
  }
  return out;
}

// Every checkpoint at level @p level: the levels up to it, it with every 1 (a pfs level keeps the
// one before it, its scheme).
nlohmann::json levels_probe(const nlohmann::json& storage, int level) {
  nlohmann::json out = storage;
  nlohmann::json kept = nlohmann::json::array();
  for (int i = 0; i <= level && i < static_cast<int>(storage["levels"].size()); i++) {
    nlohmann::json l = storage["levels"][static_cast<std::size_t>(i)];
    if (i == level || i == 0)
      l["every"] = 1;
    else
      l["every"] = 1'000'000; // written only with the probed level's scheme
    kept.push_back(l);
  }
  out["levels"] = kept;
  return out;
}

const StorageModelRegistration levels_model{{
    .name = kLevelsModel,
    .description = "multi-level checkpointing (SCR, FTI, VeloC): local device, partner copy, xor / Reed-Solomon "
                   "groups, parallel file system; checkpoint k at the deepest level whose every divides k",
    .rank = 3,
    .fields = {{"levels",
                "[{\"kind\": local|partner|xor|rs|pfs, \"every\": n, ...}, ...] from the cheapest level to the "
                "deepest; required with the model (docs/INPUTS.md, \"Storage levels\")"}},
    .read = read_levels,
    .check = check_levels,
    .holders = levels_holders,
    .prepare = prepare_levels,
    .kept = [](const StorageSpec& spec, std::uint64_t newest) { return levels::kept_saves(plan_of(spec), newest); },
    .check_protocol = check_protocol,
    .save_plan = levels_save_plan,
    .load_plan = levels_load_plan,
    .advised_levels = levels_advised,
    .probe_storage = levels_probe,
    .results_key = "storage_levels",
    .results = levels_results,
}};
} // namespace

} // namespace ckptsim
