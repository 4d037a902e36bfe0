/* A node's outgoing envelopes: each is numbered on its channel (the receiver restores FIFO order
 * from it), put on the wire by the engine (WirePort), and kept as a send under way until its transfer ends.
 * A send whose route is down, or whose transfer a link failure cut, is held (it stays on the wire)
 * and sent again once a link comes back: channels are reliable (docs/MODEL.md, "Network faults").
 * The node waits for the oldest few of its sends with everything else (NodeRuntime's loop), and
 * for every send its application waits for (AppMessage::awaited), whose end it reports. */
#pragma once

#include "sim/net/comm_proxies.hpp"
#include "sim/net/envelope.hpp"
#include "sim/node/ports.hpp"

#include <simgrid/s4u.hpp>

#include <deque>
#include <memory>
#include <vector>

namespace ckptsim {

struct NodeEnv;
namespace sg4 = simgrid::s4u;

class Outbox {
 public:
  Outbox(NodeEnv& env, NodeId self, Incarnation inc);
  static constexpr std::uint64_t kNotAwaited = ~std::uint64_t{0};
  /** @brief Sends @p env from this incarnation to the current incarnation of its destination
   *  (lost at once when either is down: false; held when its route is down). @p awaited: the application message whose
   *  transfer's end the node reports (kNotAwaited: none). */
  bool post(std::unique_ptr<Envelope> env, std::uint64_t awaited = kNotAwaited);
  /** @brief Appends to @p waited the comms of the oldest sends under way, at most @p max, and of
   *  every awaited send. */
  void add_waited(std::vector<sg4::CommPtr>& waited, std::size_t max);
  /** @brief The send at @p index among those add_waited() appended reached its receiver's
   *  mailbox; returns its awaited message (kNotAwaited: none). */
  std::uint64_t delivered(std::size_t index);
  /** @brief Transfers failed: the sends a link failure cut are held, to send again; those whose
   *  receiver died are lost, and the awaited messages among them are appended to @p awaited_lost. */
  void drop_failed(std::vector<std::uint64_t>& awaited_lost);
  /** @brief A link came back: the held sends whose route is up start again; those whose receiver
   *  died meanwhile are lost (their awaited messages appended to @p awaited_lost). */
  void retry_held(std::vector<std::uint64_t>& awaited_lost);
  /** @brief Sends wait for a route. */
  bool holding() const { return !held_.empty(); }
  /** @brief The process was restored: the transfers under way end for nobody (their seqs may be
   *  those of sends the restored process holds again). */
  void forget_awaited();
  /** @brief The node's actor ends: what it had under way is cancelled. */
  void cancel_all();

 private:
  struct PendingSend {
    std::uint64_t wire;
    sg4::CommPtr comm;
    CommProxies::ProxyPtr via;
    std::uint64_t awaited;
  };
  NodeEnv& env_;
  const NodeId self_;
  const Incarnation inc_;
  // Oldest first. A deque: sends end roughly in the order they started, so the one that ends is
  // near the front, and erasing it moves the few before it, not every later one (a leader's
  // broadcast to 1,000 members erased from a vector cost 1,000^2 / 2 moves).
  std::deque<PendingSend> sends_;
  struct HeldSend {
    std::uint64_t wire;
    std::uint64_t awaited;
  };
  std::vector<HeldSend> held_;      // on the wire, waiting for a route, oldest first
  std::size_t awaited_ = 0;         // sends_ with an awaited message
  std::vector<std::size_t> waited_; // the sends_ index of each comm add_waited() appended
  void started(const Posted& posted, CommProxies::ProxyPtr via, std::uint64_t awaited);
};

} // namespace ckptsim
