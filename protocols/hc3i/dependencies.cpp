/* HC3I: the DDV and SN bookkeeping of a node. */
#include "protocols/hc3i/dependencies.hpp"

#include <algorithm>

namespace ckptsim::hc3i {

Dependencies::Dependencies(const Membership& place, std::shared_ptr<Shared> shared)
    : place_(place)
    , shared_(std::move(shared)) {
  ddv_ = intern(Ddv(static_cast<std::size_t>(place_.clusters()), 0));
  rollbacks_.resize(static_cast<std::size_t>(place_.clusters()));
}

Ddv Dependencies::base_ddv(Sn number) const {
  Ddv base = ddv_;
  base[static_cast<std::size_t>(place_.cluster())] = number;
  return base;
}

void Dependencies::commit(StoredClc clc) {
  sn_ = clc.sn;
  ddv_ = clc.ddv;
  clcs_.push_back(std::move(clc));
}

void Dependencies::restore(Sn sn, SharedDdv ddv) {
  sn_ = sn;
  ddv_ = std::move(ddv);
}

void Dependencies::reset() {
  sn_ = 0;
  ddv_ = intern(Ddv(static_cast<std::size_t>(place_.clusters()), 0));
}

std::uint64_t Dependencies::known_epoch(int cluster) const {
  if (cluster == place_.cluster()) return epoch_;
  const auto& r = rollbacks_[static_cast<std::size_t>(cluster)];
  return r.empty() ? 0 : r.back().first;
}

void Dependencies::learn_rollback(int cluster, std::uint64_t epoch, Sn s) {
  if (cluster == place_.cluster() || epoch <= known_epoch(cluster)) return;
  rollbacks_[static_cast<std::size_t>(cluster)].emplace_back(epoch, s);
}

void Dependencies::rolled_back(std::uint64_t epoch, Sn s) {
  auto& own = rollbacks_[static_cast<std::size_t>(place_.cluster())];
  if (!own.empty() && own.back().first >= epoch) return; // a restarted node adopted it already
  own.emplace_back(epoch, s);
}

std::vector<std::pair<std::uint64_t, Sn>> Dependencies::own_rollbacks_after(std::uint64_t known) const {
  std::vector<std::pair<std::uint64_t, Sn>> after;
  for (const auto& r : rollbacks_[static_cast<std::size_t>(place_.cluster())])
    if (r.first > known) after.push_back(r);
  return after;
}

bool Dependencies::heard_rollback(int cluster, std::uint64_t epoch) const {
  const auto& r = rollbacks_[static_cast<std::size_t>(cluster)];
  return std::any_of(r.begin(), r.end(), [epoch](const auto& e) { return e.first == epoch; });
}

bool Dependencies::orphan(int from_cluster, std::uint64_t epoch, Sn s) const {
  for (const auto& [after, undone_from] : rollbacks_[static_cast<std::size_t>(from_cluster)])
    if (after > epoch && s >= undone_from) return true;
  return false;
}

void Dependencies::drop_after(NodeContext& ctx, Sn target) {
  for (const auto& clc : clcs_)
    if (clc.sn > target) ctx.discard_checkpoint(clc.sn);
  std::erase_if(clcs_, [target](const StoredClc& c) { return c.sn > target; });
}

void Dependencies::collect(NodeContext& ctx, Sn worst) {
  for (const auto& clc : clcs_)
    if (clc.sn < worst) ctx.discard_checkpoint(clc.sn);
  std::erase_if(clcs_, [worst](const StoredClc& c) { return c.sn < worst; });
}

void Dependencies::record_storage(NodeContext& ctx) const {
  if (!place_.is_leader()) return;
  Stats& st = ctx.stats();
  const double n = static_cast<double>(clcs_.size());
  const int cluster = place_.cluster();
  st.max_cluster("hc3i.clcs_stored_max", cluster, n);
  const auto& now = st.cluster_values("hc3i.clcs_stored");
  const double before = now.empty() ? 0.0 : now[static_cast<std::size_t>(cluster)];
  st.add_cluster("hc3i.clcs_stored", cluster, n - before);
}

void Dependencies::adopt(const Body& b) {
  clcs_ = b.clcs;
  rollbacks_ = b.rollbacks;
  rollbacks_.resize(static_cast<std::size_t>(place_.clusters()));
  latest_failure_ = std::max(latest_failure_, b.get("latest"));
}

void Dependencies::hear_of(FailureId id) {
  latest_failure_ = std::max(latest_failure_, id);
  open_failures_.insert(id);
}

void Dependencies::restarted(const FailureNotice& own) {
  latest_failure_ = own.latest;
  open_failures_ = std::set<FailureId>(own.down.begin(), own.down.end());
  open_failures_.insert(own.id);
}

} // namespace ckptsim::hc3i
