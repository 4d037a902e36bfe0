/* The run's observers as one service: statistics, the event trace, the Paje trace and the
 * consistency oracle, with what the engine records through them (each process' state, the
 * consistency checks and their violations). Protocols and the engine write to them; nothing
 * reads them to decide. Nodes get them as Observers (sim/node/ports.hpp). */
#pragma once

#include "sim/engine/power_states.hpp"
#include "sim/node/ports.hpp"
#include "sim/observe/oracle.hpp"
#include "sim/observe/paje.hpp"
#include "sim/observe/stats.hpp"
#include "sim/observe/trace.hpp"
#include "sim/platform/layout.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace ckptsim {

class Observation {
 public:
  /** @brief Sized for @p endpoints endpoints, @p nodes of which compute, in @p clusters clusters. */
  void reset(int endpoints, int nodes, int clusters);
  /** @brief What endpoint @p e's process does now (LifecyclePort::set_state): traced (level 2 and
   *  Paje) when it changes. */
  void set_state(NodeId e, const char* state);
  /** @brief Runs the oracle's check (@p final: at the end of the run); each violation is printed,
   *  traced and counted. */
  void check_consistency(bool final, const std::string& context);
  /** @brief Opens the Paje trace @p file (none when empty): one container per node, grouped by
   *  cluster, and the services; draws the failures, saves and rollbacks the event trace emits. */
  void open_paje(const std::string& file, const FederationLayout& layout, const std::vector<ServiceSpec>& services);
  /** @brief What every node writes to. */
  Observers observers() { return Observers{stats, trace, oracle}; }
  /** @brief A doubt about the inputs that does not stop the run: printed on stderr now, listed in
   *  the results ("warnings"). */
  void warn(std::string message);
  const std::vector<std::string>& warnings() const { return warnings_; }
  std::size_t checks() const { return checks_; }
  std::size_t violations() const { return violations_; }

  Stats stats;
  PowerStates power; // the processes' time in each state of the energy model
  Trace trace;
  PajeWriter paje;
  ConsistencyOracle oracle;

 private:
  std::vector<const char*> states_; // per endpoint: set_state's last value
  std::vector<std::string> warnings_;
  std::size_t checks_ = 0;
  std::size_t violations_ = 0;
};

} // namespace ckptsim
