/* Contract (see protocol.hpp): a data-flow application as a protocol sees it, its task graph
 * (sim/app/dataflow/graph.hpp: tasks, data, communications and the algorithms over them) and the
 * DataflowApplication interface (sim/app/dataflow/application.hpp). Any application kind may
 * implement it; a protocol that needs it (cck, taskgraph) asks the run's application for it and
 * refuses, as an input error, an application that has none. */
#pragma once

#include "sim/app/dataflow/application.hpp"
#include "sim/app/dataflow/graph.hpp"

namespace ckptsim {

struct ProtocolSetup;

/** @brief The run's application as a data-flow application (Workload::dataflow), or nullptr when
 *  its kind is not one or the setup has no application. */
const DataflowApplication* dataflow_application(const ProtocolSetup& setup);

} // namespace ckptsim
