#include "sim/protocol/dataflow.hpp"

#include "sim/protocol/protocol.hpp"

namespace ckptsim {

const DataflowApplication* dataflow_application(const ProtocolSetup& setup) {
  return setup.workload ? setup.workload->dataflow() : nullptr;
}

} // namespace ckptsim
