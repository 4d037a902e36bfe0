/* Messages of the blocking coordinated protocol (CCK thesis chapter 3). */
#pragma once

#include "protocols/common/control.hpp"
#include "protocols/common/epoch.hpp"
#include "sim/protocol/messages.hpp"

#include <array>
#include <string>
#include <vector>

namespace ckptsim::coordinated {

constexpr double kControlBytes = 64; // header of a control message on the wire

/** @brief The kinds of control messages (coordinator.hpp and participant.hpp say who sends what). */
enum class Msg { Init = 1, Flush, Ack, Cont, Rollback, Restarted, CkptRequest, CkptDecision };

/** @brief The statistics and trace names of the kinds, in the enum's order. */
inline constexpr std::array kMsgNames{"INIT",     "FLUSH",     "ACK",          "CONT",
                                      "ROLLBACK", "RESTARTED", "CKPT_REQUEST", "CKPT_DECISION"};
static_assert(kMsgNames.size() == static_cast<std::size_t>(Msg::CkptDecision));
constexpr const char* msg_name(Msg m) { return kind_name(m, kMsgNames); }

/** @brief INIT, FLUSH, ACK, CONT of wave `wave`; ROLLBACK to wave `wave`; RESTARTED. */
struct WaveBody : Payload {
  WaveBody(std::uint64_t w, FailureId e)
      : wave(w)
      , epoch(e) {}
  std::uint64_t wave;
  FailureId epoch;             // the newest failure the sender has recovered from
  std::vector<NodeId> victims; // RESTARTED: every node the failure struck (the sender is one)
  nlohmann::ordered_json to_json() const override {
    nlohmann::ordered_json j{{"wave", wave}, {"epoch", epoch}};
    if (victims.size() > 1) j["victims"] = victims;
    return j;
  }
};

/** @brief CKPT_REQUEST (a collective asks for a wave) and CKPT_DECISION (the coordinator's
 *  answer, a wave started or not): `wave` holds the number of the program-order point. */
struct PointBody : WaveBody {
  PointBody(std::string k, std::uint64_t number, FailureId e)
      : WaveBody(number, e)
      , kind(std::move(k)) {}
  std::string kind;
  nlohmann::ordered_json to_json() const override { return {{"point", kind}, {"number", wave}, {"epoch", epoch}}; }
};

inline ControlMessage point_control(Msg m, const std::string& kind, std::uint64_t number, FailureId epoch) {
  return make_control(m, std::make_shared<PointBody>(kind, number, epoch), kControlBytes);
}

inline ControlMessage control(Msg m, std::uint64_t wave, FailureId epoch) {
  return make_control(m, std::make_shared<WaveBody>(wave, epoch), kControlBytes);
}

/** @brief RESTARTED of a victim of failure @p epoch, naming all its victims: the coordinator
 *  that hears of the failure from it first keeps the others out of its broadcast ROLLBACK
 *  (each gets its own in answer to its RESTARTED). */
inline ControlMessage restarted_control(FailureId epoch, std::vector<NodeId> victims) {
  auto b = std::make_shared<WaveBody>(0, epoch);
  b->victims = std::move(victims);
  return make_control(Msg::Restarted, std::move(b), kControlBytes);
}

inline const WaveBody& body(const ControlMessage& m) { return static_cast<const WaveBody&>(*m.body); }

} // namespace ckptsim::coordinated
