#include "sim/storage/levels/plan.hpp"

#include "sim/units/units.hpp"

#include <fmt/format.h>

namespace ckptsim::levels {

const char* to_string(Kind kind) {
  switch (kind) {
  case Kind::Local:
    return "local";
  case Kind::Partner:
    return "partner";
  case Kind::Xor:
    return "xor";
  case Kind::Rs:
    return "rs";
  case Kind::Pfs:
    return "pfs";
  }
  return "?";
}

namespace {

Level parse_level(const json& j, const Where& at) {
  ObjectReader r(j, at);
  Level l;
  l.path = at.path();
  const std::string kind = as_choice(r.required("kind"), r.where("kind"), {"local", "partner", "xor", "rs", "pfs"});
  l.kind = kind == "local"     ? Kind::Local
           : kind == "partner" ? Kind::Partner
           : kind == "xor"     ? Kind::Xor
           : kind == "rs"      ? Kind::Rs
                               : Kind::Pfs;
  if (auto* v = r.optional("every")) l.every = static_cast<int>(as_integer(*v, r.where("every"), 1, 1'000'000));
  switch (l.kind) {
  case Kind::Local:
    l.bandwidth = 2e9; // a node-local SSD
    if (auto* v = r.optional("bandwidth"))
      l.bandwidth = as_positive_quantity(*v, r.where("bandwidth"), units::Kind::Bandwidth);
    break;
  case Kind::Partner:
    if (auto* v = r.optional("distance"))
      l.distance = static_cast<int>(as_integer(*v, r.where("distance"), 1, 1'000'000));
    if (auto* v = r.optional("domain")) l.domain = as_string(*v, r.where("domain"));
    break;
  case Kind::Xor:
  case Kind::Rs:
    l.group = 8; // SCR's default set size
    l.parity = l.kind == Kind::Xor ? 1 : 2;
    l.encode_rate = 1e9;
    if (auto* v = r.optional("group")) l.group = static_cast<int>(as_integer(*v, r.where("group"), 2, 1'000'000));
    if (l.kind == Kind::Rs)
      if (auto* v = r.optional("parity")) l.parity = static_cast<int>(as_integer(*v, r.where("parity"), 1, 1'000));
    if (l.parity >= l.group)
      (at / (l.kind == Kind::Rs && r.has("parity") ? "parity" : "group"))
          .fail(fmt::format("a group of {} nodes cannot hold {} parity: choose group > parity", l.group, l.parity));
    if (auto* v = r.optional("encode_rate"))
      l.encode_rate = as_positive_quantity(*v, r.where("encode_rate"), units::Kind::Bandwidth);
    if (auto* v = r.optional("domain")) l.domain = as_string(*v, r.where("domain"));
    break;
  case Kind::Pfs:
    if (auto* v = r.optional("bandwidth"))
      l.bandwidth = as_positive_quantity(*v, r.where("bandwidth"), units::Kind::Bandwidth);
    if (auto* v = r.optional("latency"))
      l.latency = as_nonnegative_quantity(*v, r.where("latency"), units::Kind::Duration);
    if (auto* v = r.optional("flush")) l.async = as_choice(*v, r.where("flush"), {"sync", "async"}) == "async";
    break;
  }
  r.finish();
  return l;
}

} // namespace

Plan parse_levels(const json& j, const Where& at) {
  if (!j.is_array() || j.empty()) at.fail("expected a non-empty array of levels, e.g. [{\"kind\": \"partner\"}]");
  Plan plan;
  plan.given = true;
  for (std::size_t i = 0; i < j.size(); i++) plan.levels.push_back(parse_level(j[i], at / i));
  for (std::size_t i = 0; i < plan.levels.size(); i++) {
    const Level& l = plan.levels[i];
    if (l.kind == Kind::Local && i != 0)
      (at / i / "kind")
          .fail("the local level must be the first: every checkpoint is written to the node's device first");
    if (l.kind == Kind::Pfs && i + 1 != plan.levels.size())
      (at / i / "kind").fail("the pfs level must be the last (the deepest)");
    if (i > 0 && l.kind != Kind::Local && l.kind == plan.levels[i - 1].kind)
      (at / i / "kind")
          .fail(fmt::format("two {} levels in a row: give one, with the smaller every", to_string(l.kind)));
  }
  if (plan.levels.front().every != 1)
    (at / 0 / "every").fail("the first level takes every checkpoint the deeper levels do not: its every must be 1");
  return plan;
}

int level_of(const Plan& plan, std::uint64_t number) {
  if (number == 0) return 0;
  int level = 1;
  for (std::size_t i = 1; i < plan.levels.size(); i++)
    if (number % static_cast<std::uint64_t>(plan.levels[i].every) == 0) level = static_cast<int>(i) + 1;
  return level;
}

std::vector<std::uint64_t> kept_saves(const Plan& plan, std::uint64_t newest) {
  const int deepest = static_cast<int>(plan.levels.size());
  const bool async = plan.levels.back().kind == Kind::Pfs && plan.levels.back().async;
  std::vector<std::uint64_t> kept;
  int covered = 0;   // the deepest level a kept save has
  int deepest_n = 0; // kept saves at the deepest level
  for (std::uint64_t k = newest;; k--) {
    if (k == 0) {
      kept.push_back(0);
      break;
    }
    const int level = level_of(plan, k);
    if (level > covered || (level == deepest && async && deepest_n < 2)) {
      kept.push_back(k);
      covered = std::max(covered, level);
      if (level == deepest) deepest_n++;
    }
    if (covered == deepest && (!async || deepest_n == 2)) break;
  }
  return kept;
}

int find_level(const Plan& plan, Kind kind) {
  for (std::size_t i = 0; i < plan.levels.size(); i++)
    if (plan.levels[i].kind == kind) return static_cast<int>(i);
  return -1;
}

int scheme_level(const Plan& plan, int level) {
  if (level <= 0) return 0;
  if (plan.levels[static_cast<std::size_t>(level) - 1].kind != Kind::Pfs) return level;
  if (level == 1 || plan.levels[static_cast<std::size_t>(level) - 2].kind == Kind::Local) return 0;
  return level - 1;
}

} // namespace ckptsim::levels
