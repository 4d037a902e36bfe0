/* Network faults of a run: links that fail and come back (docs/MODEL.md, "Network faults"). Their
 * dates come from the topology's "link_failures" (scripted outages, random sources per scope:
 * sim/failures/link_outages.hpp), which a daemon actor applies by turning SimGrid links off and on,
 * or from the availability profiles of a platform XML's links, which SimGrid applies itself; both
 * reach this service through SimGrid's link state signal. It records each outage (trace, results),
 * the time each pair of clusters was cut off, and tells the run when a link went down (the
 * senders of transfers under way look for the ones it cut) or came back (the nodes holding
 * transfers for want of a route send them again). It answers whether a route is up now.
 * With no link failure in the inputs and no profile in the platform it never acts: the run is the
 * one it was without it. */
#pragma once

#include "sim/config/topology.hpp"
#include "sim/engine/observation.hpp"
#include "sim/failures/link_outages.hpp"
#include "sim/platform/platform.hpp"

#include <simgrid/s4u.hpp>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ckptsim {

namespace sg4 = simgrid::s4u;

class LinkFaults {
 public:
  LinkFaults(const Platform& platform, const Topology& topology, Observation& observe);
  ~LinkFaults();
  LinkFaults(const LinkFaults&) = delete;
  LinkFaults& operator=(const LinkFaults&) = delete;

  /** @brief Resolves the topology's link failures against the platform (InputError naming the
   *  entry for an unknown link or a scope without links) and draws their schedule from @p seed. */
  void prepare(std::uint64_t seed);
  /** @brief Listens to the links' state, and starts the actor applying the schedule (if any).
   *  @p cut: a link went down; @p repaired: a link came back; @p over: the run has ended. */
  void start(std::function<void()> cut, std::function<void()> repaired, std::function<bool()> over);
  /** @brief @p change is called after every link change (after cut or repaired). */
  void on_change(std::function<void()> change) { on_change_ = std::move(change); }

  /** @brief Every link of the route from @p from to @p to (and back: SimGrid's cross-traffic
   *  uses both) is up. */
  bool route_up(const sg4::Host* from, const sg4::Host* to) const;
  /** @brief Links down now. */
  int links_down() const { return down_now_; }
  /** @brief Transfers wait for a route while a link is down whose repair the schedule holds: the
   *  engine's own pending event, which the watchdog does not count as idleness. A link down with
   *  nothing waiting for it holds nothing; a profile of a platform XML may never bring its link
   *  back: waiting for it is idle. */
  bool waits_for_repair() const;
  /** @brief The links down now and since when, for the report of a run that cannot progress. */
  std::string down_report() const;
  /** @brief Link failures so far (how many times a link went down): a sender whose count moved
   *  looks for transfers a failure cut. */
  std::uint64_t cuts() const { return cuts_; }
  /** @brief @p endpoint holds transfers for want of a route: it is told when a link comes back. */
  void hold(NodeId endpoint) {
    if (holders_.insert(endpoint).second && holders_.size() == 1 && on_change_) on_change_();
  }
  /** @brief The endpoints to tell that a link came back (and forgets them). */
  std::set<NodeId> take_holders() { return std::exchange(holders_, {}); }

  /** @brief The results' "network" object (null when no link can fail and none did), at @p end. */
  nlohmann::ordered_json results(double end) const;

 private:
  struct Tracked {
    std::string name;
    std::vector<sg4::Link*> parts; // SimGrid's links (a split-duplex link's two directions)
    int scheduled_down = 0;        // outages of the schedule under way
    bool down = false;
    double since = 0; // down since
    int outages = 0;
    double down_seconds = 0;
  };
  struct Pair {
    ClusterId a, b;
    std::vector<const sg4::Link*> route; // both directions
    bool cut = false;
    double since = 0;
    int cuts = 0;
    double seconds = 0;
  };
  /** @brief The tracked link of @p name (added on first sight); -1 when the platform has none. */
  int track(const std::string& name);
  int resolve(const LinkFailureSpec& spec) const;
  std::vector<int> scope_links(const std::string& scope);
  void changed(const sg4::Link& link);
  void apply(const LinkChange& change);
  void update_pairs(double now);
  std::vector<const sg4::Link*> route_links(const sg4::Host* from, const sg4::Host* to) const;

  const Platform& platform_;
  const Topology& topology_;
  Observation& observe_;
  std::vector<Tracked> tracked_;
  std::unordered_map<const sg4::Link*, int> index_of_; // every part of a tracked link
  std::unordered_map<std::string, int> by_name_;       // tracked_ index by name
  LinkOutages schedule_;
  std::vector<Pair> pairs_;
  bool pairs_built_ = false;
  bool configured_ = false; // the inputs name link failures
  int down_now_ = 0;
  std::uint64_t cuts_ = 0;
  std::set<NodeId> holders_;
  std::function<void()> on_cut_, on_repaired_, on_change_;
};

} // namespace ckptsim
