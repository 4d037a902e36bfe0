/* Proxy actors that own a node's mailbox comms in SimGrid's kernel, so that the node's own
 * activity list stays short.
 *
 * Why: in SimGrid 3.32 every comm an actor starts is appended to that actor's activity list
 * (ActorImpl::activities_, a std::list; CommImpl::isend / CommImpl::irecv), and every comm
 * completed by a wait removes itself from the waiting actor's list with std::list::remove
 * (CommImpl::finish), which walks the whole list. A node that broadcasts (the coordinated
 * protocol's N FLUSH per wave) keeps its N sends in its list while they are in flight, so each of
 * its next N receives walks N entries: N^3 list steps per wave, most of them cache misses, more
 * than half of the run time. A comm may be started on behalf of another actor (the s4u Comm's
 * sender_ / receiver_); the kernel then files it in that actor's list, and nobody ever walks
 * the list of an actor that never waits. The proxy is such an actor, on the node's host (the host
 * a transfer leaves from or arrives at is the one of the actor on whose behalf it runs): it blocks
 * on a semaphore for its whole life. Everything else stays as it was: the node still starts and
 * waits for its comms itself, in the same simcalls at the same dates, so the simulated run is
 * unchanged (same dates, same order of events, same results).
 *
 * Cost: the proxy's list keeps every comm started through it until the proxy ends (SimGrid frees
 * an actor's list when it dies), so a proxy is retired after kProxyComms comms: a fresh one takes
 * over, and the old one is released once the node has consumed every comm started through it
 * (waited it to its end), then exits and frees them. A host failure kills a node's proxies with
 * it; their comms are cancelled in the order they were started, as the node's own were.
 *
 * Proxies are created and released by maestro (at each advance of the simulated clock), never by
 * a node: creating an actor from an actor is a simcall, which would shift the node's later
 * simcalls and so the order of same-date events. Static proxies exist from the start for every
 * endpoint of a mid-sized federation; beyond kStaticProxies endpoints (two actors per node would
 * near the kernel's limit of memory mappings, see tests/bench/README.md), and below
 * kStaticFrom, an endpoint gets one the first time it has more than kProxyDemand sends under
 * way. Below kStaticFrom endpoints a node never has enough sends in flight for its list to cost
 * (a broadcast to every other endpoint is fewer than kStaticFrom), while proxies from the start
 * would rotate for nothing (an actor created per kProxyComms comms: 12 % of the replay of a
 * 16-rank MPI trace). */
#pragma once

#include "sim/net/ids.hpp"

#include <simgrid/s4u.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ckptsim {
namespace sg4 = simgrid::s4u;

class CommProxies {
 public:
  static constexpr std::size_t kProxyComms = 128; // comms started through a proxy before it retires
  static constexpr std::size_t kProxyDemand = 16; // sends under way that earn a node a proxy
  static constexpr int kStaticProxies = 4096;     // up to this many endpoints, every one has a proxy from the start
  static constexpr int kStaticFrom = 64;          // ... from this many on (Auto)

  struct Proxy; // one proxy actor
  using ProxyPtr = std::shared_ptr<Proxy>;

  /** @brief @p host_of gives an endpoint's host; @p up whether it is alive. */
  CommProxies(std::function<sg4::Host*(NodeId)> host_of, std::function<bool(NodeId)> up);
  ~CommProxies();
  CommProxies(const CommProxies&) = delete;
  CommProxies& operator=(const CommProxies&) = delete;

  enum class Mode {
    Off,    // no proxy: every comm in its node's own list (the plain SimGrid way)
    Demand, // a proxy for an endpoint once it has more than kProxyDemand sends under way
    Static, // a proxy for every endpoint from the start (and on demand after a restart)
    Auto    // Static from kStaticFrom up to kStaticProxies endpoints, Demand otherwise (the default)
  };
  /** @brief The mode the environment asks for: CKPTSIM_COMM_PROXIES=off|demand|static|auto
   *  (a switch for benchmarks and tests; the simulated run is the same in every mode). */
  static Mode mode_from_environment();

  /** @brief Starts the proxies of a small federation and the maestro hook (before Engine::run). */
  void start(int endpoints, Mode mode);

  // ---- from a node's actor (no simcall besides the comm's own start) ----
  /** @brief Mailbox::put_async on behalf of @p endpoint's proxy, if it has one; @p via receives
   *  the proxy (null: the calling actor), to give back to consumed(). */
  sg4::CommPtr put_async(NodeId endpoint, sg4::Mailbox* mb, void* payload, std::uint64_t bytes, ProxyPtr& via);
  /** @brief Mailbox::get_async on behalf of @p endpoint's proxy, if it has one. */
  sg4::CommPtr get_async(NodeId endpoint, sg4::Mailbox* mb, void** buffer, ProxyPtr& via);
  /** @brief A detached put of @p payload (zero bytes) to @p mb started on behalf of @p actor,
   *  from whichever actor calls it: sent to @p actor's own mailbox, it crosses only its host's
   *  loopback, so another node can wake @p actor up in no simulated time. */
  static void put_detached_as(sg4::Actor* actor, sg4::Mailbox* mb, void* payload);
  /** @brief The node is done with a comm started via @p via (waited to its end, failed, cancelled). */
  void consumed(const ProxyPtr& via);
  /** @brief The node has @p pending sends under way. */
  void pending_sends(NodeId endpoint, std::size_t pending);
  /** @brief The endpoint's host failed: its proxies died with it. */
  void host_failed(NodeId endpoint);

  /** @brief Proxy actors created so far (for tests and benchmarks). */
  std::size_t created() const { return created_; }

 private:
  void maestro_tick(); // on each clock advance: create, rotate and release proxies
  void create(NodeId endpoint);
  ProxyPtr take_current(NodeId endpoint); // the proxy a comm starts through, counted
  void want(NodeId endpoint);
  void release(const ProxyPtr& p);

  std::function<sg4::Host*(NodeId)> host_of_;
  std::function<bool(NodeId)> up_;
  std::vector<ProxyPtr> current_;    // per endpoint, may be null
  std::vector<char> wanted_flag_;    // per endpoint: in wanted_
  std::vector<NodeId> wanted_;       // endpoints to give a proxy (first) or a fresh one (retiring theirs)
  std::vector<ProxyPtr> retired_;    // retired, alive until every comm started through them is consumed
  std::vector<ProxyPtr> releasable_; // retired and fully consumed: to release at the next tick
  std::size_t created_ = 0;
  bool enabled_ = false;
};

} // namespace ckptsim
