#include "sim/node/checkpoint_transfers.hpp"

#include "sim/engine/run.hpp"

#include <simgrid/Exception.hpp>

#include <cmath>

namespace ckptsim {

CheckpointTransfers::CheckpointTransfers(Run& run, NodeContext& node, NodeId self, Incarnation inc, ClusterId cluster)
    : run_(run)
    , node_(node)
    , self_(self)
    , inc_(inc)
    , cluster_(cluster) {}

CheckpointTransfers::~CheckpointTransfers() {
  for (const auto& io : io_)
    if (io.replica) run_.replica_finished();
}

bool CheckpointTransfers::dead() const { return !run_.alive(self_, inc_); }

void CheckpointTransfers::save(std::uint64_t number, Snapshot s) {
  if (dead()) return;
  double bytes = run_.topology().clusters[cluster_].checkpoint_size;
  if (s.app && run_.workload().state_bytes(*s.app) >= 0) bytes = run_.workload().state_bytes(*s.app);
  run_.store().add(self_, number, std::move(s), bytes);
  run_.stats().max("storage.held_checkpoints_max", static_cast<double>(run_.store().held()));
  run_.stats().max("storage.held_bytes_max", run_.store().held_bytes());
  int started = 0;
  const bool traced = run_.trace().enabled(1); // the names are built for the trace only
  nlohmann::ordered_json holders = nlohmann::ordered_json::array();
  for (Holder h : run_.remote_holders(self_, number)) {
    if (traced) holders.push_back(run_.holder_name(h));
    if (!run_.holder_up(h)) { // a buddy that is down cannot take the copy
      run_.stats().add("storage.copies_failed");
      continue;
    }
    auto comm = sg4::Comm::sendto_async(run_.host_of(self_), run_.holder_host(h),
                                        static_cast<std::uint64_t>(std::llround(bytes)));
    io_.push_back({comm, true, number, h});
    started++;
  }
  if (traced) node_.trace_event(1, "ckpt_save", {{"number", number}, {"bytes", bytes}, {"copies", holders}});
  run_.stats().add("storage.saves");
  if (started == 0)
    completed_.push_back({true, number});
  else
    saves_left_[number] = started;
}

void CheckpointTransfers::load(std::uint64_t number) {
  if (dead()) return;
  const auto* entry = run_.store().find(self_, number);
  if (!entry || entry->holders.empty()) {
    run_.unrecoverable(self_, number);
    return;
  }
  if (entry->holders.count(self_)) { // still in this node's memory: no transfer
    completed_.push_back({false, number});
    return;
  }
  const Holder from = *entry->holders.begin();
  auto comm = sg4::Comm::sendto_async(run_.holder_host(from), run_.host_of(self_),
                                      static_cast<std::uint64_t>(std::llround(entry->bytes)));
  io_.push_back({comm, false, number, from});
  node_.trace_event(1, "ckpt_load", {{"number", number}, {"bytes", entry->bytes}, {"from", run_.holder_name(from)}});
}

void CheckpointTransfers::discard(std::uint64_t number) {
  if (dead()) return;
  // The copies of a discarded checkpoint stop travelling: a protocol that numbers its saves along
  // the execution line saves this number again after a rollback, and the new save must neither
  // count the old transfers as its copies nor report itself complete because of them.
  for (std::size_t i = io_.size(); i-- > 0;) {
    if (!io_[i].save || io_[i].number != number) continue;
    io_[i].comm->cancel();
    if (io_[i].replica) run_.replica_finished();
    io_.erase(io_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  saves_left_.erase(number);
  std::erase_if(completed_, [number](const Completed& c) { return c.save && c.number == number; });
  run_.store().drop(self_, number);
}

void CheckpointTransfers::replicate(std::uint64_t number) {
  if (dead()) return;
  const auto* entry = run_.store().find(self_, number);
  if (!entry || entry->holders.empty()) return;
  if (!entry->holders.count(self_)) { // a restarted node: its own copy comes back from a holder
    for (const auto& io : io_)
      if (!io.save && io.number == number) return;
    start_replica(number, *entry->holders.begin(), false, entry->bytes);
    return; // its remote copies are complete: they are where it fetches from
  }
  for (Holder h : run_.remote_holders(self_, number)) {
    if (entry->holders.count(h) || !run_.holder_up(h)) continue;
    bool pending = false;
    for (const auto& io : io_) pending |= io.save && io.number == number && io.holder == h;
    if (!pending) start_replica(number, h, true, entry->bytes);
  }
}

void CheckpointTransfers::start_replica(std::uint64_t number, int peer, bool outgoing, double bytes) {
  sg4::Host* from = outgoing ? run_.host_of(self_) : run_.holder_host(peer);
  sg4::Host* to = outgoing ? run_.holder_host(peer) : run_.host_of(self_);
  auto comm = sg4::Comm::sendto_async(from, to, static_cast<std::uint64_t>(std::llround(bytes)));
  io_.push_back({comm, outgoing, number, peer, true});
  run_.stats().add("storage.replicas");
  run_.replica_started();
  node_.trace_event(1, "ckpt_replicate",
                    {{"number", number}, {"bytes", bytes}, {outgoing ? "to" : "from", run_.holder_name(peer)}});
}

std::optional<CheckpointTransfers::Completed> CheckpointTransfers::next_completed() {
  if (completed_.empty()) return std::nullopt;
  const Completed c = completed_.front();
  completed_.erase(completed_.begin());
  return c;
}

void CheckpointTransfers::add_comms(std::vector<sg4::CommPtr>& waited) const {
  for (const auto& io : io_) waited.push_back(io.comm);
}

void CheckpointTransfers::finished(std::size_t index, bool ok) {
  PendingIo io = io_[index];
  io_.erase(io_.begin() + static_cast<std::ptrdiff_t>(index));
  if (io.replica) run_.replica_finished();
  const auto* entry = run_.store().find(self_, io.number);
  if (io.save) {
    if (ok && entry) {
      run_.store().add_copy(self_, io.number, io.holder);
      run_.stats().add("storage.bytes_written", entry->bytes);
      if (is_server(io.holder)) run_.stats().add("storage.bytes_written." + run_.holder_name(io.holder), entry->bytes);
    } else {
      run_.stats().add("storage.copies_failed");
    }
    if (io.replica) return;
    if (--saves_left_[io.number] == 0) {
      saves_left_.erase(io.number);
      completed_.push_back({true, io.number});
    }
  } else if (ok) {
    run_.stats().add("storage.bytes_read", entry ? entry->bytes : 0.0);
    if (entry) run_.store().add_copy(self_, io.number, self_); // in this node's memory again
    if (!io.replica) completed_.push_back({false, io.number});
  } else if (!io.replica) {
    load(io.number); // the source died during the transfer: try another copy
  }
}

void CheckpointTransfers::settle_after_failure() {
  for (std::size_t i = io_.size(); i-- > 0;) {
    if (io_[i].comm->get_state() == sg4::Activity::State::FAILED) { // test() asserts on a failed comm
      finished(i, false);
      continue;
    }
    try {
      if (io_[i].comm->test()) finished(i, true);
    } catch (const simgrid::NetworkFailureException&) {
      finished(i, false);
    }
  }
}

void CheckpointTransfers::cancel_all() {
  for (auto& io : io_) {
    io.comm->cancel();
    if (io.replica) run_.replica_finished();
  }
  io_.clear();
}

} // namespace ckptsim
