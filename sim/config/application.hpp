/* The application file (SPEC 2.2): what every process computes and sends. Kinds: "stochastic"
 * (HC3I section 5), "scripted" (an explicit per-node list of computations and sends, plus
 * failures, to replay the papers' worked examples exactly) and "stencil" (the Jacobi 1D / 2D
 * data-flow application of the CCK thesis, chapter 5) and "master-worker" (the matrix product of
 * the LAM/MPI paper, with its collectives as checkpoint trigger points). */
#pragma once

#include "sim/config/json_reader.hpp"
#include "sim/config/topology.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
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

/** @brief The "stencil" application (CCK thesis 5.2.1): Jacobi 1D or 2D on width x height cells for
 *  a number of iterations, block-partitioned over every node of the federation. */
struct StencilSpec {
  int dims = 1;
  int width = 0;
  int height = 1; // 1 in 1D
  int iterations = 0;
  double task_cost = 0;                // work of one cell-iteration, seconds at 1 Gf
  std::uint64_t cell_bytes = 4096;     // size of one cell's value (a datum, a message)
  int grid_columns = 0;                // 2D: processes per row of the process grid; 0: automatic
  bool reorder = false;                // "schedule": "reorder" (thesis 4.4.3) rather than "in-order"
  double task_descriptor_bytes = 1024; // checkpointed bytes per task not executed yet
};

/** @brief Why @p spec cannot be partitioned over @p processes processes (the JSON field to blame,
 *  the problem), or nullopt when it can (same rule as dataflow::Jacobi's block partition). */
std::optional<std::pair<std::string, std::string>> stencil_partition_problem(const StencilSpec& spec, int processes);

/** @brief The "master-worker" application (LAM/MPI paper, figure 5): C = A x B on n x n matrices,
 *  R times, process 0 the master, every other node a worker (sim/app/master_worker.hpp). */
struct MasterWorkerSpec {
  int matrix_size = 0;      // n
  int repetitions = 0;      // R
  double row_cost = 0;      // work of one row of C (n x n multiply-adds), seconds at 1 Gf
  double element_bytes = 8; // size of one matrix element on the wire
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
  StencilSpec stencil;                          // stencil
  MasterWorkerSpec master_worker;               // master-worker
};

/** @brief Reads and validates an application document against the topology's cluster names: the
 *  kind's own fields are read by the kind's parser (sim/app/kind.hpp). */
Application parse_application(const json& doc, const std::string& file, const Topology& topology);

/** @brief The parsers of the kinds' own fields (ApplicationKindInfo::parse). */
void parse_stochastic(ObjectReader& doc, Application& app, const Topology& topology);
void parse_scripted(ObjectReader& doc, Application& app, const Topology& topology);
void parse_stencil(ObjectReader& doc, Application& app, const Topology& topology);
void parse_master_worker(ObjectReader& doc, Application& app, const Topology& topology);

} // namespace ckptsim
