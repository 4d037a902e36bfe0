// The embedded default scenario (the files of workloads/default/, compiled in).
#pragma once

namespace ckptsim::default_scenario {
const char* topology();
const char* application();
const char* timers();
} // namespace ckptsim::default_scenario
