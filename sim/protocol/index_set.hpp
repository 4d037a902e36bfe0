/* The contract's set of indices (sim/net/index_set.hpp): protocols count their channels' messages
 * with it; the engine's consistency oracle keeps its settled message numbers in it. */
#pragma once

#include "sim/net/index_set.hpp"
