/* What travels between endpoints: application messages (with the protocol's piggyback), protocol
 * control messages, and engine signals (failure notices, stop) that reach a node locally. */
#pragma once

#include "sim/net/ids.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief Protocol data attached to a message (SN, DDV, epoch...): immutable, shared. */
struct Payload {
  virtual ~Payload() = default;
  /** @brief The fields shown in the trace. */
  virtual nlohmann::ordered_json to_json() const = 0;
  /** @brief Extra bytes this data adds on the wire. */
  virtual double bytes() const { return 0; }
};
using PayloadPtr = std::shared_ptr<const Payload>;

/** @brief An application message. (src, seq) names it across re-executions: seq is part of the
 *  sender's application state, so a deterministic re-execution re-sends the same (src, seq). */
struct AppMessage {
  NodeId src = -1;
  NodeId dst = -1;
  std::uint64_t seq = 0;
  std::uint64_t digest = 0; // content fingerprint: a non-deterministic re-execution changes it
  double size = 0;          // bytes
  std::string label;        // scripted scenarios name their messages (m1, m2...)
  // The sender may wait for the end of its transfer (an MPI send of 64 KiB or more, which SMPI
  // completes only once delivered): the node tells its application when the transfer is over.
  bool awaited = false;
  // Rendezvous kinds (Workload::rendezvous) only: the message's index among those its sender
  // produced for dst (part of the application state, so a re-execution numbers its messages
  // the same), and the indices of the sender's earlier messages to dst still held when this one
  // left (their receives were not posted yet: this one overtook them). A protocol that needs a
  // channel index a re-execution reproduces uses chan; with eager kinds messages leave in
  // production order, and the protocol counts them itself.
  std::optional<std::uint64_t> chan;
  std::vector<std::uint64_t> overtook;
  bool operator==(const AppMessage&) const = default;
};

/** @brief A protocol's message to another endpoint. The protocol dispatches on @c kind; @c type
 *  is for people only: the name the engine counts in the statistics (ctrl.<type>) and writes in
 *  traces. */
struct ControlMessage {
  std::string type; // "INIT", "FLUSH", "ALERT"...: the statistics and trace name, never compared
  PayloadPtr body;  // may be null
  double bytes = 0; // size on the wire
  int kind = 0;     // the protocol's message kind (its enum's value, opaque to the engine)
};

struct Signal {
  // Network: a link went down (look for cut transfers) or came back (send the held ones again).
  enum class Kind { FailureNotice, NodeBack, Stop, Network } kind = Kind::Stop;
  FailureId failure = 0;
  std::vector<NodeId> victims{};
  double failure_date = 0;
};

struct Envelope {
  enum class Kind { App, Control, Signal } kind = Kind::App;
  std::uint64_t wire_id = 0; // engine bookkeeping of the messages on the wire
  NodeId src = -1;
  NodeId dst = -1;
  Incarnation src_inc = 0;
  Incarnation dst_inc = 0;
  std::uint64_t chan_seq = 0; // per channel (src@inc -> dst@inc), restores FIFO order
  double bytes = 0;           // simulated size on the wire
  AppMessage app;
  PayloadPtr piggyback;
  ControlMessage control;
  ckptsim::Signal signal;
};

} // namespace ckptsim
