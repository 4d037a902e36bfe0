/* Collective operations as the point-to-point messages SMPI 3.32's default collective selector
 * sends (src/smpi/colls/smpi_default_selector.cpp and the algorithms it picks), so that a
 * replay takes the time SMPI's does and every protocol sees, counts and logs each message.
 * docs/MODEL.md describes each algorithm. Every rank of the trace takes part in every collective
 * (the replay runs them on MPI_COMM_WORLD). */
#pragma once

#include "sim/app/mpi_trace/builder.hpp"
#include "sim/app/mpi_trace/trace.hpp"

namespace ckptsim::mpi {

/** @brief Appends to @p b the operations of rank b.rank()'s part of the collective @p a, then the
 *  reduction's computation of @p a (reduce, allreduce, reducescatter, scan: after the
 *  messages, on every rank, as SMPI's replay does). */
void lower_collective(const Trace& trace, const TraceAction& a, RankBuilder& b);

} // namespace ckptsim::mpi
