/* The application file (SPEC 2.2): what every process computes and sends. Kinds: "stochastic"
 * (HC3I section 5) and "scripted" (an explicit per-node list of computations and sends, plus
 * failures, to replay the papers' worked examples exactly). */
#pragma once

#include "sim/config/json_reader.hpp"
#include "sim/config/topology.hpp"

#include <map>
#include <string>
#include <vector>

namespace ckptsim {

struct Distribution {
  enum class Kind { Exponential, Constant, Uniform } kind = Kind::Exponential;
  double mean = 1; // seconds (at 1 Gf)
  double min = 0;  // uniform only
  double max = 0;  // uniform only
};

struct StochasticCluster {
  std::string cluster;
  Distribution compute;
  std::vector<double> send_probability; // per destination cluster (index of the topology)
  double message_size = 1024;
};

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

struct Application {
  std::string source = "<embedded>";
  std::string kind = "stochastic";
  double total_time = 0;                        // stochastic: failure-free computation of every process, seconds
  bool deterministic = true;                    // re-execution after a rollback repeats itself (PWD)
  std::vector<StochasticCluster> clusters;      // stochastic, in topology order once resolved
  std::vector<std::vector<double>> node_matrix; // stochastic: optional node-to-node probabilities
  std::vector<ScriptedNode> script;             // scripted
  std::vector<FailureEvent> scripted_failures;  // scripted
};

/** @brief Reads and validates an application document against the topology's cluster names. */
Application parse_application(const json& doc, const std::string& file, const Topology& topology);

} // namespace ckptsim
