/* The "mpi-trace" application's part of the application file: the time-independent trace SMPI
 * wrote (read and lowered when the file is read, so a bad trace is an input error before any
 * simulation) and where its ranks run. */
#pragma once

#include "sim/app/mpi_trace/program.hpp"
#include "sim/config/application.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ckptsim {

struct MpiTraceSpec {
  enum class Placement { Linear, RoundRobin, List };
  std::string trace; // the trace file as given, resolved against the application file's folder
  Placement placement = Placement::Linear;
  std::vector<std::string> nodes; // List: the node of each rank (host name or global index)
  std::string where;              // "file: /placement", for errors found when placing
  // Multiplies every computation and sleep of the trace: the same communication pattern around
  // longer computations (a trace of a small run standing for a long one).
  double compute_scale = 1;
  // "sends": "rendezvous" (SMPI's semantics: a transfer starts once its receive is posted too, a
  // send of 64 KiB or more is complete once delivered) or "eager" (every transfer starts at its
  // send, every send is complete at once).
  bool rendezvous = true;
  std::shared_ptr<const mpi::Program> program;
};

/** @brief Reads the kind's fields into app.spec (an MpiTraceSpec): reads and lowers the trace. */
void parse_mpi_trace(ObjectReader& doc, Application& app, const Topology& topology);

} // namespace ckptsim
