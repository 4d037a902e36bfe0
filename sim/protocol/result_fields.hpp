/* The contract's door to the results fields' descriptions (sim/config/result_fields.hpp): a
 * protocol registers the fields it writes, as every other part of the simulator does. */
#pragma once

#include "sim/config/result_fields.hpp"
