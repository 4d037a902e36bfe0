/* Checkpoint units: every process (unit=process) or every cluster (unit=cluster). A unit
 * checkpoints as a whole and rolls back as a whole; its first node leads its checkpoints. */
#pragma once

#include "sim/protocol/layout.hpp"

#include <vector>

namespace ckptsim::independent {

enum class UnitKind { Process, Cluster };

class Units {
 public:
  Units(const FederationLayout& layout, UnitKind kind)
      : kind_(kind) {
    unit_of_.resize(static_cast<std::size_t>(layout.num_nodes()));
    for (NodeId n = 0; n < layout.num_nodes(); n++) {
      const int u = kind == UnitKind::Process ? n : layout.cluster_of(n);
      unit_of_[static_cast<std::size_t>(n)] = u;
      if (static_cast<std::size_t>(u) >= members_.size()) members_.resize(static_cast<std::size_t>(u) + 1);
      members_[static_cast<std::size_t>(u)].push_back(n);
    }
  }
  UnitKind kind() const { return kind_; }
  int count() const { return static_cast<int>(members_.size()); }
  int unit_of(NodeId n) const { return unit_of_[static_cast<std::size_t>(n)]; }
  const std::vector<NodeId>& members(int u) const { return members_[static_cast<std::size_t>(u)]; }
  NodeId leader(int u) const { return members(u).front(); }
  const char* kind_name() const { return kind_ == UnitKind::Process ? "process" : "cluster"; }

 private:
  UnitKind kind_;
  std::vector<int> unit_of_;
  std::vector<std::vector<NodeId>> members_;
};

} // namespace ckptsim::independent
