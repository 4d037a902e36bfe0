/* Messages of the blocking coordinated protocol (CCK thesis chapter 3). */
#pragma once

#include "protocols/epoch.hpp"
#include "sim/net/envelope.hpp"

namespace ckptsim::coordinated {

constexpr double kControlBytes = 64; // header of a control message on the wire

/** @brief INIT, FLUSH, ACK, CONT of wave `wave`; ROLLBACK to wave `wave`; RESTARTED. */
struct WaveBody : Payload {
  WaveBody(std::uint64_t w, FailureId e)
      : wave(w)
      , epoch(e) {}
  std::uint64_t wave;
  FailureId epoch; // the newest failure the sender has recovered from
  nlohmann::ordered_json to_json() const override { return {{"wave", wave}, {"epoch", epoch}}; }
};

inline ControlMessage control(const char* type, std::uint64_t wave, FailureId epoch) {
  return ControlMessage{type, std::make_shared<WaveBody>(wave, epoch), kControlBytes};
}

inline const WaveBody& body(const ControlMessage& m) { return static_cast<const WaveBody&>(*m.body); }

} // namespace ckptsim::coordinated
