/* The "stochastic" application's part of the application file (HC3I report section 5): the
 * failure-free computation time, per cluster the distribution of a step's computation and the
 * send probabilities toward each cluster, or a node-to-node matrix. */
#pragma once

#include "sim/config/application.hpp"
#include "sim/config/distribution.hpp"

#include <string>
#include <vector>

namespace ckptsim {

struct StochasticCluster {
  std::string cluster;
  Distribution compute;
  std::vector<double> send_probability; // per destination cluster (index of the topology)
  double message_size = 1024;
};

struct StochasticSpec {
  double total_time = 0;                        // failure-free computation of every process, seconds
  std::vector<StochasticCluster> clusters;      // in topology order once resolved
  std::vector<std::vector<double>> node_matrix; // optional node-to-node probabilities
};

/** @brief Reads the kind's fields into app.spec (a StochasticSpec). */
void parse_stochastic(ObjectReader& doc, Application& app, const Topology& topology);

} // namespace ckptsim
