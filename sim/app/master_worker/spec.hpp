/* The "master-worker" application's part of the application file (LAM/MPI paper, figure 5):
 * C = A x B on n x n matrices, R times, process 0 the master, every other node a worker
 * (sim/app/master_worker/workload.hpp). */
#pragma once

#include "sim/config/application.hpp"

namespace ckptsim {

struct MasterWorkerSpec {
  int matrix_size = 0;      // n
  int repetitions = 0;      // R
  double row_cost = 0;      // work of one row of C (n x n multiply-adds), seconds at 1 Gf
  double element_bytes = 8; // size of one matrix element on the wire
};

/** @brief Reads the kind's fields into app.spec (a MasterWorkerSpec). */
void parse_master_worker(ObjectReader& doc, Application& app, const Topology& topology);

} // namespace ckptsim
