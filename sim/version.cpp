#include "sim/version.hpp"

namespace ckptsim {

const char* version() { return CKPTSIM_VERSION; } // set for this file only (CMakeLists.txt)

} // namespace ckptsim
