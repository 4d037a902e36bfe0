/* Rendezvous sends (Workload::rendezvous) as a service of the run: the matching that SMPI's
 * mailboxes do, read from the receivers' application states, and the wake-ups of the nodes that
 * hold messages a receiver now takes. The bookkeeping is the RendezvousBoard (rendezvous.hpp,
 * unit-tested); this service sends the wake-ups over the wire's bells. Nodes reach it through
 * RendezvousPort (sim/node/ports.hpp). */
#pragma once

#include "sim/engine/endpoints.hpp"
#include "sim/engine/rendezvous.hpp"
#include "sim/engine/wire_service.hpp"
#include "sim/node/ports.hpp"

namespace ckptsim {

class RendezvousService final : public RendezvousPort {
 public:
  RendezvousService(const Endpoints& endpoints, WireService& wire)
      : endpoints_(endpoints)
      , wire_(wire) {}
  /** @brief Sized for @p endpoints endpoints, whose receives @p workload matches. */
  void reset(int endpoints, const Workload& workload) {
    board_.resize(endpoints);
    workload_ = &workload;
  }
  /** @brief What a wake-up delivers to a node's bell (never owned, never on the wire). */
  static Envelope* wake_token();

  // ---- RendezvousPort ----
  bool receive_posted(const AppMessage& msg) const override;
  void await_post(NodeId receiver, NodeId holder) override { board_.await(receiver, holder); }
  void posted_by(NodeId receiver) override;
  void woken(NodeId holder) override { board_.answered(holder); }

 private:
  const Endpoints& endpoints_;
  WireService& wire_;
  const Workload* workload_ = nullptr;
  RendezvousBoard board_;
};

} // namespace ckptsim
