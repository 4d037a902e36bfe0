/* Contract (see protocol.hpp): what a protocol puts on the wire and reads from it, the
 * application's messages (AppMessage), its own control messages (ControlMessage) and the data it
 * attaches to either (Payload), for a protocol's message declarations. The engine's network layer
 * defines them (sim/net/envelope.hpp); protocols name them through this header only. */
#pragma once

#include "sim/net/envelope.hpp"
#include "sim/protocol/ids.hpp"
