/* The wire as a service of the run: the envelopes in transit (WireRegistry), the comm proxies the
 * sends go through, the mailboxes and the directory of who runs where. Nodes reach it through
 * WirePort (sim/node/ports.hpp); the Run asks it what the termination rule needs (is anything on
 * the wire, how many protocol messages) and purges it when a node dies. It tells the termination
 * each time application messages appear on or leave the wire, and draws each transfer in the
 * Paje trace. */
#pragma once

#include "sim/engine/ending.hpp"
#include "sim/engine/endpoints.hpp"
#include "sim/engine/link_faults.hpp"
#include "sim/engine/observation.hpp"
#include "sim/engine/wire.hpp"
#include "sim/net/channels.hpp"
#include "sim/net/comm_proxies.hpp"
#include "sim/node/ports.hpp"
#include "sim/platform/platform.hpp"

#include <set>
#include <unordered_map>

namespace ckptsim {

class WireService final : public WirePort {
 public:
  /** @brief The wire of a run whose processes run on @p platform's hosts as @p endpoints says
   *  (services on its controller); it counts losses in @p observe and tells @p ending. */
  WireService(const Platform& platform, const Endpoints& endpoints, Observation& observe, Ending& ending,
              LinkFaults& links);

  /** @brief Before the first send: @p mode from the environment (std::invalid_argument on a bad
   *  value), the proxies started once the nodes exist (start). */
  void set_proxy_mode(CommProxies::Mode mode) { proxy_mode_ = mode; }
  void start(int endpoints) { proxies_.start(endpoints, proxy_mode_); }

  // ---- WirePort ----
  Posted post(std::unique_ptr<Envelope> env, CommProxies::ProxyPtr& via) override;
  Posted repost(std::uint64_t wire_id, CommProxies::ProxyPtr& via) override;
  bool cut(std::uint64_t wire_id) override;
  bool route_up(const sg4::Host* from, const sg4::Host* to) const override { return links_.route_up(from, to); }
  void wait_for_route(NodeId endpoint) override { links_.hold(endpoint); }
  std::uint64_t link_cuts() const override { return links_.cuts(); }
  std::unique_ptr<Envelope> take(Envelope* env) override;
  void drop(std::uint64_t wire_id) override;
  sg4::Mailbox* mailbox(NodeId endpoint, Incarnation inc) const override;
  sg4::Mailbox* bell(NodeId endpoint, Incarnation inc) const override;
  Incarnation incarnation(NodeId endpoint) const override { return endpoints_.incarnation[endpoint]; }
  bool alive(NodeId endpoint, Incarnation inc) const override { return endpoints_.alive(endpoint, inc); }
  sg4::Host* host_of(NodeId endpoint) const override;
  CommProxies& proxies() override { return proxies_; }
  std::uint64_t next_event_count() override { return ++ending_.events; }
  std::uint64_t channel_next(NodeId src, Incarnation src_inc, NodeId dst, Incarnation dst_inc) override {
    return channels_.next(src, src_inc, dst, dst_inc);
  }
  std::vector<std::unique_ptr<Envelope>> channel_accept(NodeId dst, Incarnation dst_inc,
                                                        std::unique_ptr<Envelope> env) override {
    const NodeId src = env->src;
    return channels_.accept(dst, dst_inc, std::move(env), wire_.on_wire(src, dst));
  }
  void channel_forget(NodeId dst, Incarnation dst_inc, NodeId src) override { channels_.forget(dst, dst_inc, src); }

  // ---- the run's side ----
  /** @brief @p dead died: what it sent or was sent and is not delivered yet dies with it. */
  void purge(NodeId dead);
  /** @brief The senders of envelopes whose transfer is under way (a link failure may have cut it). */
  std::set<NodeId> senders_in_transit() const;
  /** @brief A link goes down: notes what each transfer under way still has to send (those it
   *  cuts resume from there). */
  void note_cut();
  /** @brief Envelopes waiting for a route (a link is down). */
  std::size_t held() const { return held_.size(); }
  /** @brief Nothing is on the wire (the termination rule). */
  bool empty() const { return wire_.empty(); }
  std::size_t size() const { return wire_.size(); }
  /** @brief Control messages under way: on the wire, or arrived early and buffered by their
   *  channel (the receiver's protocol has not seen them yet: a recovery that waits for quiescence
   *  must wait for them too). */
  int control_messages() const { return wire_.control_messages() + static_cast<int>(channels_.early_control()); }

 private:
  /** @brief Tells the termination whether application messages are on the wire. */
  void note_wire();
  /** @brief Starts the transfer of @p env, on the wire under @p id, to incarnation @p inc of its
   *  destination. */
  Posted start(Envelope* env, std::uint64_t id, CommProxies::ProxyPtr& via);
  /** @brief Envelope @p id waits for a route from now (the first time: its delay starts). */
  Posted hold(std::uint64_t id);

  const Platform& platform_;
  const Endpoints& endpoints_;
  Observation& observe_;
  Ending& ending_;
  WireRegistry wire_;
  ChannelTable channels_;
  CommProxies proxies_;
  LinkFaults& links_;
  struct Held {
    double since; // when a link failure first held it
    bool app;     // an application message
  };
  std::unordered_map<std::uint64_t, Held> held_;        // envelopes waiting for a route
  int held_app_ = 0;                                    // application messages among them
  std::unordered_map<std::uint64_t, double> remaining_; // bytes a transfer had left when a link failed
  /** @brief Envelope @p id no longer waits for a route (sent again, dropped or purged). */
  void unheld(std::uint64_t id);
  CommProxies::Mode proxy_mode_ = CommProxies::Mode::Auto;
};

} // namespace ckptsim
