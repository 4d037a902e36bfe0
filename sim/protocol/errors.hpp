/* Contract (see protocol.hpp): the error a protocol throws on bad input (a --param, a topology or
 * an application it cannot run): InputError, "file: json/path: problem", exit status 2. The input
 * readers define it (sim/config/input_error.hpp); protocols name it through this header only. */
#pragma once

#include "sim/config/input_error.hpp"
