/* How and when the run ends, as one part of the Run: the termination bookkeeping (quiet
 * endpoints, progress, the dates the watchdog reads), how the run ended, the watchdog's stall
 * limit, and the progress counters (node loop wake-ups, wall-clock dates of the progress line). */
#pragma once

#include "sim/engine/termination.hpp"

#include <cstdint>

namespace ckptsim {

struct Ending {
  Termination termination;
  RunEnd end;
  double stall_limit = 3600;    // seconds without progress before the run ends as stuck
  std::uint64_t events = 0;     // wake-ups of the nodes' loops
  double wall_start = 0;        // wall-clock date the simulation started
  double last_progress = 0;     // wall-clock date of the last progress line
  double failure_free_work = 0; // of every process, summed: what "% of the work done" refers to
};

} // namespace ckptsim
