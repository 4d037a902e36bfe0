/* A node's outgoing envelopes: each is numbered on its channel (the receiver restores FIFO order
 * from it), put on the wire by the Run, and kept as a send under way until its transfer ends.
 * The node waits for the oldest few of its sends with everything else (NodeRuntime's loop). */
#pragma once

#include "sim/net/channels.hpp"
#include "sim/net/comm_proxies.hpp"
#include "sim/net/envelope.hpp"

#include <simgrid/s4u.hpp>

#include <memory>
#include <vector>

namespace ckptsim {

class Run;
namespace sg4 = simgrid::s4u;

class Outbox {
 public:
  Outbox(Run& run, NodeId self, Incarnation inc);
  /** @brief Sends @p env from this incarnation to the current incarnation of its destination
   *  (lost at once when either is down). */
  void post(std::unique_ptr<Envelope> env);
  /** @brief Appends the comms of the oldest sends under way, at most @p max, to @p waited. */
  void add_oldest(std::vector<sg4::CommPtr>& waited, std::size_t max) const;
  /** @brief Send @p index (counted from the oldest) reached its receiver's mailbox. */
  void delivered(std::size_t index);
  /** @brief A peer died during transfers: the sends whose comm failed are lost. */
  void drop_failed();
  /** @brief The node's actor ends: what it had under way is cancelled. */
  void cancel_all();

 private:
  struct PendingSend {
    std::uint64_t wire;
    sg4::CommPtr comm;
    CommProxies::ProxyPtr via;
  };
  Run& run_;
  const NodeId self_;
  const Incarnation inc_;
  ChannelSender channels_;
  std::vector<PendingSend> sends_; // oldest first
};

} // namespace ckptsim
