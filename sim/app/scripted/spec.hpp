/* The "scripted" application's part of the application file: per node, an explicit list of
 * computations and sends, so that a paper's worked example is replayed exactly; its failures go
 * to Application::scripted_failures. */
#pragma once

#include "sim/config/application.hpp"

#include <string>
#include <vector>

namespace ckptsim {

struct ScriptedAction {
  enum class Kind { Compute, Send } kind = Kind::Compute;
  double work = 0;   // Compute: seconds at 1 Gf
  std::string to;    // Send: destination node reference (host name or index)
  double size = 0;   // Send: bytes
  std::string label; // Send: name shown in the trace (m1, m2, ...)
  std::string where; // "file: path", for errors found when resolving
};

struct ScriptedNode {
  std::string node; // host name or index, resolved against the federation
  std::string where;
  std::vector<ScriptedAction> actions;
};

struct ScriptedSpec {
  std::vector<ScriptedNode> nodes; // in file order
};

/** @brief Reads the kind's fields into app.spec (a ScriptedSpec) and app.scripted_failures. */
void parse_scripted(ObjectReader& doc, Application& app, const Topology& topology);

} // namespace ckptsim
