/* Memory accounting of msglog, shared by every agent of a run (the module owns it): each endpoint
 * reports what it holds now (log entries, log bytes, determinants); the ledger keeps the
 * federation's total as a counter, its maximum over time ("<name>_max") and the most one
 * endpoint ever held ("<name>_node_max"). A restarted process reports its restored amount,
 * which replaces what its dead incarnation held. Observation only: no decision reads it. */
#pragma once

#include "sim/observe/stats.hpp"

#include <map>
#include <string>

namespace ckptsim::msglog {

class Ledger {
 public:
  /** @brief Endpoint @p who now holds @p value of @p name. */
  void set(Stats& st, const std::string& name, int who, double value) {
    double& mine = current_[name][who];
    double& total = totals_[name];
    total += value - mine;
    mine = value;
    st.set(name, total);
    st.max(name + "_max", total);
    st.max(name + "_node_max", value);
  }

 private:
  std::map<std::string, std::map<int, double>> current_;
  std::map<std::string, double> totals_;
};

} // namespace ckptsim::msglog
