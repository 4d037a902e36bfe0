/* The simulator's version, as results files and --version say it. Defined in one file only, so
 * that a version bump recompiles one file, not the whole engine. */
#pragma once

namespace ckptsim {

/** @brief The project's version ("0.1.0"). */
const char* version();

} // namespace ckptsim
