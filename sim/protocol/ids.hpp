/* Contract (see protocol.hpp): the identifiers of endpoints, clusters, incarnations and failures,
 * for a protocol header that needs nothing else of the contract. The engine's network layer
 * defines them (sim/net/ids.hpp); protocols name them through this header only. */
#pragma once

#include "sim/net/ids.hpp"
