/* The DDV and SN bookkeeping of an HC3I node (report sections 3.2-3.4): its cluster's SN and
 * DDV, its cluster's epoch and the other clusters' rollbacks it heard of (what tells an orphan
 * message), the committed CLCs it stores, and the failures it heard of. Everything the other
 * parts decide on reads it; it decides nothing itself. All but the SN and DDV survive a rollback
 * (a restarted node gets them with its rollback order). */
#pragma once

#include "protocols/hc3i/membership.hpp"
#include "protocols/hc3i/state.hpp"

#include <memory>
#include <set>

namespace ckptsim::hc3i {

class Dependencies {
 public:
  Dependencies(const Membership& place, std::shared_ptr<Shared> shared);

  // ---- the cluster's interval and dependencies (what a rollback restores) ----
  Sn sn() const { return sn_; }
  const SharedDdv& ddv() const { return ddv_; }
  /** @brief The run's one shared copy of @p v (DdvPool). */
  SharedDdv intern(Ddv v) { return shared_->ddvs.intern(std::move(v)); }
  /** @brief The dependencies of the state CLC @p number saves (StoredClc::base): the DDV before
   *  its merge, with this cluster's entry at @p number. */
  Ddv base_ddv(Sn number) const;
  /** @brief CLC @p clc committed: its SN and DDV are the cluster's from now on, and it is stored. */
  void commit(StoredClc clc);
  /** @brief A rollback restored a CLC whose state holds @p sn and @p ddv. */
  void restore(Sn sn, SharedDdv ddv);
  /** @brief A rollback restored the initial state: SN 0, no dependency. */
  void reset();

  // ---- epochs: this cluster's rollbacks and the others' ----
  std::uint64_t epoch() const { return epoch_; }
  void set_epoch(std::uint64_t epoch) { epoch_ = epoch; }
  /** @brief The epoch of @p cluster as this node knows it (this cluster's: its own). */
  std::uint64_t known_epoch(int cluster) const;
  /** @brief @p cluster rolled back to SN @p s, its epoch now @p epoch (an alert). */
  void learn_rollback(int cluster, std::uint64_t epoch, Sn s);
  /** @brief A message from @p from_cluster sent in its epoch @p epoch with SN @p s belongs to an
   *  execution that a rollback known here undid. */
  bool orphan(int from_cluster, std::uint64_t epoch, Sn s) const;
  const Rollbacks& rollbacks() const { return rollbacks_; }
  /** @brief This cluster rolled back, its epoch now @p epoch, its alert's SN @p s: kept with the
   *  others' rollbacks (stable knowledge a restarted node adopts), so that its leader can tell a
   *  cluster that lost alerts what they said (Alerts::on_query). */
  void rolled_back(std::uint64_t epoch, Sn s);
  /** @brief This cluster's rollbacks after epoch @p known, oldest first: (epoch after, alert SN). */
  std::vector<std::pair<std::uint64_t, Sn>> own_rollbacks_after(std::uint64_t known) const;
  /** @brief The alert of @p cluster's rollback to epoch @p epoch was handled here. */
  bool heard_rollback(int cluster, std::uint64_t epoch) const;

  // ---- the committed CLCs this node stores ----
  const ClcList& clcs() const { return clcs_; }
  Sn last_clc() const { return clcs_.empty() ? 0 : clcs_.back().sn; }
  /** @brief Stores @p clc, committed by the leader while this node held it in doubt. */
  void store(StoredClc clc) { clcs_.push_back(std::move(clc)); }
  /** @brief Discards the CLCs after @p target: a rollback to it can never restore them. */
  void drop_after(NodeContext& ctx, Sn target);
  /** @brief Discards the CLCs numbered below @p worst (garbage collection). */
  void collect(NodeContext& ctx, Sn worst);
  /** @brief Counts the CLCs the cluster stores (on its leader). */
  void record_storage(NodeContext& ctx) const;
  /** @brief A restarted node adopts the stable knowledge its rollback order @p b carries. */
  void adopt(const Body& b);

  // ---- failures heard of ----
  FailureId latest_failure() const { return latest_failure_; }
  /** @brief Some failure this node heard of has its victim not back yet. */
  bool failures_open() const { return !open_failures_.empty(); }
  void hear_of(FailureId id);
  void back(FailureId id) { open_failures_.erase(id); }
  /** @brief Failure @p id was heard of and its victims are not all back. */
  bool open(FailureId id) const { return open_failures_.contains(id); }
  /** @brief A restarted node knows of the failures its restart notice @p own names. */
  void restarted(const FailureNotice& own);

 private:
  const Membership& place_;
  const std::shared_ptr<Shared> shared_;
  Sn sn_ = 0;
  SharedDdv ddv_;
  std::uint64_t epoch_ = 0;           // this cluster's epoch (number of rollbacks)
  Rollbacks rollbacks_;               // per cluster: (epoch after, alert SN); this cluster's own too
  ClcList clcs_;                      // committed CLCs this node stores
  FailureId latest_failure_ = 0;      // newest failure this node heard of
  std::set<FailureId> open_failures_; // heard of, victim not back yet
};

} // namespace ckptsim::hc3i
