/* The epoch piggybacked by global-restart protocols (none, coordinated) on application messages:
 * the newest failure the sender has recovered from, so that a receiver drops the messages of an
 * execution a restart undid. 8 bytes on the wire. */
#pragma once

#include "sim/protocol/messages.hpp"

namespace ckptsim {

struct Epoch : Payload {
  explicit Epoch(FailureId e)
      : epoch(e) {}
  FailureId epoch;
  nlohmann::ordered_json to_json() const override { return {{"epoch", epoch}}; }
  double bytes() const override { return 8; }
};

} // namespace ckptsim
