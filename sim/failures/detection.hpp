/* Failure detection delay. Without a heartbeat model it is the topology's detection_delay. With
 * one (LAM/MPI's lamd in fail-safe mode, which the paper's mpirun polls), every node sends a
 * heartbeat at each multiple of the period; the detector declares a node failed when it has heard
 * nothing from it for the timeout, that is at last heartbeat + timeout. A crash at t (just after
 * the heartbeat at floor(t / period) * period, which got through) is detected at
 * floor(t / period) * period + timeout: the delay lies in (timeout - period, timeout]. */
#pragma once

#include "sim/config/topology.hpp"

namespace ckptsim {

/** @brief Seconds from a crash at @p date to its detection under @p failures. */
double detection_delay(const FailureSpec& failures, double date);

} // namespace ckptsim
