/* Messages of the CCK protocol (CCK thesis 4.2 and 4.3): the wave's INIT / PING / PONG / CONT /
 * ACK, the restart's RECOVER / STOP_PING / STOP_PONG / GATHER / READY / RESTART, and the
 * piggyback of application messages. */
#pragma once

#include "protocols/cck/dataflow.hpp"
#include "protocols/cck/lost.hpp"
#include "protocols/common/control.hpp"
#include "sim/protocol/messages.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace ckptsim::cck {

constexpr double kControlBytes = 64; // header of a control message on the wire

/** @brief The kinds of control messages: the wave's (coordinator.hpp, process.hpp), then the
 *  restart's. */
enum class Msg {
  Init = 1,
  Ping,
  Pong,
  Cont,
  Ack,
  Recover,
  StopPing,
  StopPong,
  Gather,
  Ready,
  Restart,
  Restarted,
  Done
};

/** @brief The statistics and trace names of the kinds, in the enum's order. */
inline constexpr std::array kMsgNames{"INIT",      "PING",   "PONG",  "CONT",    "ACK",       "RECOVER", "STOP_PING",
                                      "STOP_PONG", "GATHER", "READY", "RESTART", "RESTARTED", "DONE"};
static_assert(kMsgNames.size() == static_cast<std::size_t>(Msg::Done));
constexpr const char* msg_name(Msg m) { return kind_name(m, kMsgNames); }

/** @brief Wave messages (INIT, PING, PONG, CONT, ACK) and the restart's small ones: @c wave is the
 *  wave (INIT: also @c committed, the last wave the coordinator committed; RECOVER: the
 *  recovery line), @c epoch the newest failure the sender knows of. */
struct WaveBody : Payload {
  std::uint64_t wave = 0;
  std::uint64_t committed = 0; // INIT: the last committed wave; RECOVER: the aborted wave (0: none)
  FailureId epoch = 0;
  int count = 0;               // ACK: the PINGs the process sent (|V_i|)
  std::vector<NodeId> victims; // RECOVER, RESTARTED: every process the failure struck
  nlohmann::ordered_json to_json() const override {
    nlohmann::ordered_json j{{"wave", wave}, {"epoch", epoch}};
    if (committed) j["committed"] = committed;
    if (count) j["v"] = count;
    if (!victims.empty()) j["victims"] = victims;
    return j;
  }
};

inline ControlMessage control(Msg m, std::uint64_t wave, FailureId epoch, std::uint64_t committed = 0, int count = 0) {
  auto b = std::make_shared<WaveBody>();
  b->wave = wave;
  b->epoch = epoch;
  b->committed = committed;
  b->count = count;
  return make_control(m, std::move(b), kControlBytes);
}

/** @brief RECOVER (line @p wave, aborted wave @p committed) and RESTARTED, naming the victims. */
inline ControlMessage control(Msg m, std::uint64_t wave, FailureId epoch, std::uint64_t committed,
                              std::vector<NodeId> victims) {
  auto b = std::make_shared<WaveBody>();
  b->wave = wave;
  b->epoch = epoch;
  b->committed = committed;
  b->victims = std::move(victims);
  return make_control(m, std::move(b), kControlBytes);
}

inline const WaveBody& wave_body(const ControlMessage& m) { return static_cast<const WaveBody&>(*m.body); }

/** @brief What a process tells every other one at a restart (4.3.4 step 3): its
 *  communication-restricted graph, the communications it lost (its sends to a failed process
 *  since the checkpoint) and the ones it received from a failed process since the checkpoint. */
struct GatherBody : Payload {
  FailureId epoch = 0;
  RestrictedGraph graph;
  std::vector<Tag> lost;
  std::vector<Tag> received_from_failed;
  nlohmann::ordered_json to_json() const override {
    return {{"epoch", epoch},
            {"vertices", graph.vertices.size()},
            {"arcs", graph.arcs.size()},
            {"lost", lost},
            {"received_from_failed", received_from_failed.size()}};
  }
  /** A tag is 4 bytes, an arc 8. */
  double bytes() const override {
    return 4.0 * static_cast<double>(graph.vertices.size() + lost.size() + received_from_failed.size()) +
           8.0 * static_cast<double>(graph.arcs.size());
  }
};

/** @brief Piggyback of an application message: the sender's last checkpoint wave (a receiver
 *  stopped for that wave or an older one holds the message until its own save) and the failure
 *  that last restarted the sender (0: never), so a message of a dead incarnation is recognised. */
struct Piggyback : Payload {
  Piggyback(std::uint64_t w, FailureId l)
      : wave(w)
      , life(l) {}
  std::uint64_t wave;
  FailureId life;
  nlohmann::ordered_json to_json() const override { return {{"wave", wave}, {"life", life}}; }
  double bytes() const override { return 8; }
};

} // namespace ckptsim::cck
