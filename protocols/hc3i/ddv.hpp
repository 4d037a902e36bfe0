/* HC3I's decision logic as plain functions (HC3I report sections 3.2-3.5), apart from SimGrid so
 * that each rule is unit-tested on hand-made DDV lists:
 *   - a forced CLC is needed exactly when a piggybacked SN exceeds the receiver's DDV entry;
 *   - a cluster alerted with (f, s) rolls back iff its DDV[f] >= s, to its oldest CLC whose
 *     DDV[f] >= s;
 *   - alerts propagate until no cluster rolls back any more: the recovery line;
 *   - the garbage collector's worst SN per cluster, over a simulated failure of each cluster. */
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ckptsim::hc3i {

using Sn = std::uint64_t;
/** @brief Direct dependency vector of a cluster: [own] = its SN, [i] = last SN received from i. */
using Ddv = std::vector<Sn>;

/** @brief A DDV stored by many holders, immutable. Every node of a cluster keeps the same DDVs
 *  with each CLC (its DDV and base) and in each checkpoint: one vector per distinct value
 *  (DdvPool::intern) instead of one per node, or 2.5 KB per node and CLC at 100 clusters (a
 *  100 x 100-node federation under a storm of forced CLCs held 1.3 GB after 10 simulated
 *  minutes, issue 19). Reads like a const Ddv. */
class SharedDdv {
 public:
  SharedDdv();
  SharedDdv(Ddv v); // NOLINT(google-explicit-constructor): a DDV computed in place is stored as is
  SharedDdv(std::initializer_list<Sn> v)
      : SharedDdv(Ddv(v)) {}
  explicit SharedDdv(std::shared_ptr<const Ddv> v)
      : v_(std::move(v)) {}
  operator const Ddv&() const { return *v_; } // NOLINT(google-explicit-constructor)
  const Ddv& get() const { return *v_; }
  Sn operator[](std::size_t i) const { return (*v_)[i]; }
  Sn at(std::size_t i) const { return v_->at(i); }
  std::size_t size() const { return v_->size(); }
  bool empty() const { return v_->empty(); }
  Ddv::const_iterator begin() const { return v_->begin(); }
  Ddv::const_iterator end() const { return v_->end(); }
  friend bool operator==(const SharedDdv& a, const SharedDdv& b) { return a.get() == b.get(); }
  friend bool operator==(const SharedDdv& a, const Ddv& b) { return a.get() == b; }

 private:
  std::shared_ptr<const Ddv> v_;
};
void to_json(nlohmann::ordered_json& j, const SharedDdv& d);

/** @brief Hands out one shared copy per distinct DDV value alive (the nodes of a run share one
 *  pool; values nobody holds any more are forgotten). */
class DdvPool {
 public:
  SharedDdv intern(Ddv v);

 private:
  std::unordered_map<std::size_t, std::vector<std::weak_ptr<const Ddv>>> by_hash_;
  std::size_t since_sweep_ = 0;
};

/** @brief A committed cluster-level checkpoint: its number (the SN it creates) and its DDV. */
struct StoredClc {
  Sn sn = 0;
  SharedDdv ddv{}; // stored with the CLC: includes the entry of the message that forced it
  bool forced = false;
  /** @brief The dependencies of the state the CLC holds: a forced CLC is taken *before* the
   *  delivery that forced it, so after restoring it the cluster depends on less than its DDV
   *  says. Empty: the previous CLC's DDV (zeros for the first). */
  SharedDdv base{};
};
/** @brief The CLCs a cluster stores, oldest first (strictly increasing SN). */
using ClcList = std::vector<StoredClc>;

/** @brief The dependencies of a cluster that just restored CLC @p sn of @p clcs (0: the initial
 *  state, no dependency). Rolling back again is needed only for what it delivers after that. */
Ddv restored_dependencies(const ClcList& clcs, Sn sn, std::size_t clusters);
/** @brief A message from cluster @p from carrying SN @p s forces a CLC before its delivery. */
bool needs_forced_clc(const Ddv& ddv, int from, Sn s);

/** @brief The CLC a cluster alerted with (f, s) rolls back to: its oldest CLC whose DDV[f] >= s,
 *  or nothing when its current DDV[f] < s (no delivery depends on f's undone interval). The
 *  current DDV is the last CLC's (a DDV only changes with a forced CLC), or, right after a
 *  rollback, the restored CLC's dependencies: a cluster that restored CLC t and delivered
 *  nothing since does not roll back to t again, so that propagation ends. */
std::optional<Sn> rollback_target(const ClcList& clcs, const Ddv& current, int f, Sn s);

/** @brief The alert value of a cluster that restored CLC @p sn: the messages it sent from that
 *  CLC on carry SN >= sn; 0 (the initial state) undoes every message, whose SNs are >= 1. */
inline Sn alert_value(Sn sn) { return sn == 0 ? 1 : sn; }

struct LineStep {
  int alerted = -1;         // the cluster receiving the alert
  int from = -1;            // the cluster that rolled back
  Sn s = 0;                 // the alert's SN
  std::optional<Sn> target; // where the alerted cluster rolls back (nothing: it does not)
};

/** @brief The recovery line after a failure in cluster @p failed: per cluster, the SN it is back
 *  to (its last CLC for @p failed) or nothing when it does not roll back. */
struct RecoveryLine {
  std::vector<std::optional<Sn>> rolled_to;
  std::vector<LineStep> steps; // the alerts in the order processed (FIFO), for traces and tests
};

/** @brief Simulates a failure of @p failed over the stored CLC lists (each cluster's current DDV
 *  being its last CLC's: the worst case, as if the delivery that forced it had happened) and
 *  propagates alerts to a fixed point; SNs only decrease, so it terminates. Each cluster's CLCs newer than
 *  its rollback target are gone after the rollback, as in the protocol. */
RecoveryLine recovery_line(std::vector<ClcList> lists, int failed);

/** @brief For each cluster c, the smallest SN c could roll back to over a failure of each
 *  cluster (c's last CLC when no scenario rolls it back further). CLCs numbered below it can
 *  never be restored again, nor can a logged message acknowledged with an SN below the
 *  receiver's worst SN be needed. */
std::vector<Sn> worst_sns(const std::vector<ClcList>& lists);

std::string to_string(const Ddv& ddv);

} // namespace ckptsim::hc3i
