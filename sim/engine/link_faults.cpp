#include "sim/engine/link_faults.hpp"

#include "sim/app/rng.hpp"
#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

// SimGrid 3.32's set of resources whose profile events stop the clock (src/surf/surf_interface.hpp,
// not installed; libsimgrid exports the object). An event of a resource no activity uses is
// otherwise applied in passing, while the clock jumps to the next activity's end: a link that a
// profile brings back at 1,500 s while every transfer waits for it would be seen back only at that
// later date. Declared identically, so that the program and the library share the one object.
inline auto& watched_hosts() {
  static std::set<std::string, std::less<>> value;
  return value;
}

namespace ckptsim {

namespace {
// Link::on_state_change cannot be disconnected in 3.32: one hook per process, forwarding to the
// faults of the run under way.
LinkFaults* g_active = nullptr;

// SimGrid's links named @p name: a split-duplex link is its two directions "name_UP" and
// "name_DOWN" (3.32 registers no link under the name itself); empty when there is none.
std::vector<sg4::Link*> links_named(const std::string& name) {
  if (auto* link = sg4::Link::by_name_or_null(name)) return {link};
  auto* up = sg4::Link::by_name_or_null(name + "_UP");
  auto* down = sg4::Link::by_name_or_null(name + "_DOWN");
  if (up && down) return {up, down};
  return {};
}

// The name of the link a SimGrid link is part of: "x" for a split-duplex link's "x_UP" or "x_DOWN".
std::string whole_name(const sg4::Link& part) {
  const std::string& name = part.get_name();
  for (const std::string suffix : {"_UP", "_DOWN"})
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      const std::string base = name.substr(0, name.size() - suffix.size());
      if (links_named(base).size() == 2) return base;
    }
  return name;
}
} // namespace

LinkFaults::LinkFaults(const Platform& platform, const Topology& topology, Observation& observe)
    : platform_(platform)
    , topology_(topology)
    , observe_(observe) {}

LinkFaults::~LinkFaults() {
  if (g_active == this) g_active = nullptr;
}

int LinkFaults::track(const std::string& name) {
  // By name in a map: a SAN scope tracks a link per node, and a scan per link would be quadratic.
  if (auto it = by_name_.find(name); it != by_name_.end()) return it->second;
  Tracked t;
  t.name = name;
  t.parts = links_named(name);
  if (t.parts.empty()) return -1;
  const int index = static_cast<int>(tracked_.size());
  for (const sg4::Link* p : t.parts) index_of_[p] = index;
  by_name_.emplace(name, index);
  tracked_.push_back(std::move(t));
  return index;
}

std::vector<const sg4::Link*> LinkFaults::route_links(const sg4::Host* from, const sg4::Host* to) const {
  std::vector<sg4::Link*> links;
  from->route_to(to, links, nullptr);
  return {links.begin(), links.end()};
}

std::vector<int> LinkFaults::scope_links(const std::string& scope) {
  // SAN: every link between a node and the other nodes of its cluster; WAN: the links between two
  // clusters that are no cluster's SAN. The same rule for a built platform (the nodes' links, the
  // wan_i_j links) and any platform XML.
  const FederationLayout& layout = platform_.layout;
  std::set<const sg4::Link*> san;
  std::vector<const sg4::Link*> order;
  const auto add = [&](std::set<const sg4::Link*>& into, const std::vector<const sg4::Link*>& links) {
    for (const sg4::Link* l : links)
      if (into.insert(l).second) order.push_back(l);
  };
  for (ClusterId c = 0; c < layout.num_clusters(); c++) {
    const auto& cl = layout.cluster(c);
    for (int i = 1; i < cl.size; i++) {
      add(san, route_links(platform_.hosts[cl.first + i], platform_.hosts[cl.first]));
      add(san, route_links(platform_.hosts[cl.first], platform_.hosts[cl.first + i]));
    }
  }
  std::vector<const sg4::Link*> chosen;
  if (scope == "san") {
    chosen = order;
  } else {
    std::set<const sg4::Link*> wan;
    for (ClusterId a = 0; a < layout.num_clusters(); a++)
      for (ClusterId b = a + 1; b < layout.num_clusters(); b++)
        for (const sg4::Link* l :
             route_links(platform_.hosts[layout.cluster(a).first], platform_.hosts[layout.cluster(b).first]))
          if (!san.count(l) && wan.insert(l).second) chosen.push_back(l);
  }
  std::vector<int> out;
  std::set<int> seen; // a split-duplex link's two directions are one link
  for (const sg4::Link* l : chosen) {
    if (l->get_latency() == 0 && l->get_bandwidth() >= 1e299) continue; // a loopback or a storage fat pipe
    const int index = track(whole_name(*l));
    if (seen.insert(index).second) out.push_back(index);
  }
  return out;
}

void LinkFaults::prepare(std::uint64_t seed) {
  configured_ = !topology_.link_failures.empty();
  for (std::size_t k = 0; k < topology_.link_failures.size(); k++) {
    const LinkFailureSpec& spec = topology_.link_failures[k];
    if (spec.scope.empty()) {
      const int index = track(spec.link);
      if (index < 0) {
        std::set<std::string> names;
        for (const sg4::Link* l : sg4::Engine::get_instance()->get_all_links())
          if (!(l->get_latency() == 0 && l->get_bandwidth() >= 1e299) && l->get_name() != "__loopback__")
            names.insert(whole_name(*l)); // no loopback
        // The WAN links first: the ones a user most likely meant (a node's own link comes next).
        std::vector<std::string> some;
        for (int wan = 1; wan >= 0; wan--)
          for (const auto& n : names)
            if ((n.rfind("wan", 0) == 0) == bool(wan) && some.size() < 12) some.push_back(n);
        throw InputError(spec.file, spec.link_at,
                         fmt::format("no link \"{}\" in the platform (some of its links: {}; `ckptsim platform` "
                                     "prints them all)",
                                     spec.link, fmt::join(some, ", ")));
      }
      schedule_.add_outage(index, spec.down, spec.up);
      continue;
    }
    const std::vector<int> links = scope_links(spec.scope);
    if (links.empty())
      throw InputError(spec.file, spec.path + "/scope",
                       fmt::format("the platform has no {} link to fail ({})", spec.scope,
                                   spec.scope == "wan" ? "a single cluster" : "clusters of one node"));
    for (int index : links)
      schedule_.add_random(index, spec.mtbf, spec.downtime,
                           mix_seed(seed, 0x11f4u + k, static_cast<std::uint64_t>(index)));
  }
}

void LinkFaults::start(std::function<void()> cut, std::function<void()> repaired, std::function<bool()> over) {
  on_cut_ = std::move(cut);
  on_repaired_ = std::move(repaired);
  static const bool hooked = [] {
    sg4::Link::on_state_change_cb([](const sg4::Link& link) {
      if (g_active) g_active->changed(link);
    });
    return true;
  }();
  (void)hooked;
  g_active = this;
  // A platform XML may give its links availability profiles, which SimGrid applies itself: their
  // dates must stop the clock (see watched_hosts above).
  if (!topology_.platform_xml.empty())
    for (const sg4::Link* l : sg4::Engine::get_instance()->get_all_links()) watched_hosts().insert(l->get_name());
  if (schedule_.empty()) return;
  sg4::Actor::create("link-faults", platform_.controller, [this, over = std::move(over)] {
    while (auto change = schedule_.next()) {
      if (change->date > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(change->date);
      if (over()) return;
      apply(*change);
    }
  })->daemonize();
}

void LinkFaults::apply(const LinkChange& change) {
  Tracked& t = tracked_[static_cast<std::size_t>(change.link)];
  if (change.down) {
    if (t.scheduled_down++ == 0)
      for (sg4::Link* p : t.parts) p->turn_off(); // SimGrid fails the transfers crossing it
  } else if (--t.scheduled_down == 0) {
    for (sg4::Link* p : t.parts) p->turn_on();
  }
}

void LinkFaults::changed(const sg4::Link& part) {
  auto it = index_of_.find(&part);
  int index = 0;
  if (it != index_of_.end()) {
    index = it->second;
  } else { // a link of a platform XML whose profile SimGrid applies
    index = track(whole_name(part));
    if (index < 0) return;
  }
  Tracked& t = tracked_[static_cast<std::size_t>(index)];
  const bool down = std::any_of(t.parts.begin(), t.parts.end(), [](const sg4::Link* p) { return !p->is_on(); });
  if (down == t.down) return; // the other direction of a split-duplex link
  const double now = sg4::Engine::get_clock();
  t.down = down;
  if (down) {
    t.since = now;
    t.outages++;
    down_now_++;
    cuts_++;
    observe_.trace.emit(0, now, "link_down", {{"link", t.name}});
    observe_.stats.add("network.link_failures");
  } else {
    t.down_seconds += now - t.since;
    down_now_--;
    observe_.trace.emit(0, now, "link_up", {{"link", t.name}, {"down", now - t.since}});
  }
  update_pairs(now);
  if (down && on_cut_) on_cut_();
  if (!down && on_repaired_) on_repaired_();
  if (on_change_) on_change_();
}

bool LinkFaults::waits_for_repair() const {
  return !holders_.empty() &&
         std::any_of(tracked_.begin(), tracked_.end(), [](const Tracked& t) { return t.down && t.scheduled_down > 0; });
}

std::string LinkFaults::down_report() const {
  std::vector<std::string> down;
  for (const Tracked& t : tracked_)
    if (t.down) down.push_back(fmt::format("{} down since {:g} s", t.name, t.since));
  return fmt::format("{}", fmt::join(down, ", "));
}

void LinkFaults::update_pairs(double now) {
  if (!pairs_built_) {
    pairs_built_ = true;
    const FederationLayout& layout = platform_.layout;
    for (ClusterId a = 0; a < layout.num_clusters(); a++)
      for (ClusterId b = a + 1; b < layout.num_clusters(); b++) {
        const sg4::Host* ha = platform_.hosts[layout.cluster(a).first];
        const sg4::Host* hb = platform_.hosts[layout.cluster(b).first];
        Pair p{a, b, route_links(ha, hb)};
        for (const sg4::Link* l : route_links(hb, ha)) p.route.push_back(l);
        pairs_.push_back(std::move(p));
      }
  }
  for (Pair& p : pairs_) {
    const bool cut = std::any_of(p.route.begin(), p.route.end(), [](const sg4::Link* l) { return !l->is_on(); });
    if (cut == p.cut) continue;
    p.cut = cut;
    if (cut) {
      p.since = now;
      p.cuts++;
    } else {
      p.seconds += now - p.since;
    }
  }
}

bool LinkFaults::route_up(const sg4::Host* from, const sg4::Host* to) const {
  if (down_now_ == 0) return true;
  const auto on = [](const sg4::Link* l) { return l->is_on(); };
  const auto there = route_links(from, to);
  if (!std::all_of(there.begin(), there.end(), on)) return false;
  const auto back = route_links(to, from);
  return std::all_of(back.begin(), back.end(), on);
}

nlohmann::ordered_json LinkFaults::results(double end) const {
  if (!configured_ && cuts_ == 0) return nullptr;
  nlohmann::ordered_json links = nlohmann::ordered_json::object();
  for (const Tracked& t : tracked_) {
    if (t.outages == 0) continue;
    links[t.name] = {{"outages", t.outages}, {"down_seconds", t.down_seconds + (t.down ? end - t.since : 0.0)}};
  }
  nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
  for (const Pair& p : pairs_) {
    if (p.cuts == 0) continue;
    pairs.push_back({{"clusters", {platform_.layout.cluster(p.a).name, platform_.layout.cluster(p.b).name}},
                     {"cuts", p.cuts},
                     {"seconds", p.seconds + (p.cut ? end - p.since : 0.0)}});
  }
  return {{"link_failures", cuts_}, {"links", links}, {"clusters_cut_off", pairs}};
}

} // namespace ckptsim
