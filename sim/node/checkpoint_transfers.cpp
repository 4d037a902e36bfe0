#include "sim/node/checkpoint_transfers.hpp"

#include "sim/node/ports.hpp"

#include <simgrid/Exception.hpp>

#include <cmath>

namespace ckptsim {

CheckpointTransfers::CheckpointTransfers(NodeEnv& env, NodeContext& node, NodeId self, Incarnation inc,
                                         ClusterId cluster)
    : env_(env)
    , node_(node)
    , self_(self)
    , inc_(inc)
    , cluster_(cluster) {}

CheckpointTransfers::~CheckpointTransfers() {
  for (const auto& [id, st] : staged_)
    if (st.flushing) env_.storage.replica_finished(); // a flush: the run waited for it
  for (const auto& io : io_)
    if (io.replica) env_.storage.replica_finished();
  for (const auto& io : held_)
    if (io.replica) env_.storage.replica_finished();
}

void CheckpointTransfers::launch(PendingIo io) {
  if (env_.lifecycle.over()) return; // the run ended during this wake-up: the node is killed next
  if (!env_.wire.route_up(io.from, io.to)) {
    env_.observe.stats.add("network.checkpoint_transfers_held");
    held_.push_back(std::move(io));
    env_.wire.wait_for_route(self_);
    return;
  }
  io.comm = sg4::Comm::sendto_async(io.from, io.to, static_cast<std::uint64_t>(std::llround(io.bytes)));
  io_.push_back(std::move(io));
}

void CheckpointTransfers::retry_held() {
  auto held = std::exchange(held_, {});
  for (auto& io : held) {
    if (!env_.storage.holder_up(io.holder)) { // its peer died meanwhile
      settle(io, false);
      continue;
    }
    launch(std::move(io));
  }
}

bool CheckpointTransfers::dead() const { return !env_.wire.alive(self_, inc_); }

void CheckpointTransfers::save(std::uint64_t number, Snapshot s) {
  if (dead()) return;
  double bytes = env_.inputs.topology.clusters[cluster_].checkpoint_size;
  if (s.app && env_.inputs.workload.state_bytes(*s.app) >= 0) bytes = env_.inputs.workload.state_bytes(*s.app);
  // A multi-level model says how the save goes (its level, its erasure group, its steps).
  const bool staged = env_.storage.multi_level(self_);
  SavePlan plan = staged ? env_.storage.save_plan(self_, number, bytes) : SavePlan{};
  env_.storage.store().add(self_, number, std::move(s), bytes, plan.level, plan.group);
  env_.observe.stats.max("storage.held_checkpoints_max", static_cast<double>(env_.storage.store().held()));
  env_.observe.stats.max("storage.held_bytes_max", env_.storage.store().held_bytes());
  env_.observe.stats.add("storage.saves");
  if (staged) {
    save_staged(number, bytes, std::move(plan));
    return;
  }
  int started = 0;
  const bool traced = env_.observe.trace.enabled(1); // the names are built for the trace only
  nlohmann::ordered_json holders = nlohmann::ordered_json::array();
  for (Holder h : env_.storage.remote_holders(self_, number)) {
    if (traced) holders.push_back(env_.storage.holder_name(h));
    if (!env_.storage.holder_up(h)) { // a buddy that is down cannot take the copy
      env_.observe.stats.add("storage.copies_failed");
      continue;
    }
    launch({nullptr, true, number, h, false, env_.wire.host_of(self_), env_.storage.holder_host(h), bytes});
    started++;
  }
  if (traced) node_.trace_event(1, "ckpt_save", {{"number", number}, {"bytes", bytes}, {"copies", holders}});
  if (started == 0)
    completed_.push_back({true, number});
  else
    saves_left_[number] = started;
}

void CheckpointTransfers::load(std::uint64_t number) {
  if (dead()) return;
  if (env_.storage.multi_level(self_)) {
    load_staged(number);
    return;
  }
  const auto* entry = env_.storage.store().find(self_, number);
  if (!entry || entry->holders.empty()) {
    lost_load(number);
    return;
  }
  if (entry->holders.count(self_)) { // still in this node's memory: no transfer
    completed_.push_back({false, number});
    return;
  }
  const Holder from = *entry->holders.begin();
  launch({nullptr, false, number, from, false, env_.storage.holder_host(from), env_.wire.host_of(self_), entry->bytes});
  node_.trace_event(1, "ckpt_load",
                    {{"number", number}, {"bytes", entry->bytes}, {"from", env_.storage.holder_name(from)}});
}

void CheckpointTransfers::lost_load(std::uint64_t number) {
  // A protocol that restores the newest line it can chose this one while it could be loaded: a
  // failure took its last copy since, and that failure's recovery orders a line again. The load
  // is dropped; any other protocol cannot recover.
  if (env_.storage.replans_lines() && env_.storage.store().find(self_, number)) {
    env_.observe.stats.add("storage.loads_lost");
    node_.trace_event(1, "ckpt_load_lost", {{"number", number}});
    return;
  }
  env_.storage.unrecoverable(self_, number);
}

void CheckpointTransfers::discard(std::uint64_t number) {
  if (dead()) return;
  // The copies of a discarded checkpoint stop travelling: a protocol that numbers its saves along
  // the execution line saves this number again after a rollback, and the new save must neither
  // count the old transfers as its copies nor report itself complete because of them.
  for (std::size_t i = io_.size(); i-- > 0;) {
    if (!io_[i].save || io_[i].number != number) continue;
    io_[i].comm->cancel();
    if (io_[i].replica) env_.storage.replica_finished();
    io_.erase(io_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  std::erase_if(held_, [&](const PendingIo& io) {
    if (!io.save || io.number != number) return false;
    if (io.replica) env_.storage.replica_finished();
    return true;
  });
  saves_left_.erase(number);
  end_staged_saves([number](const Staged& st) { return st.number == number; });
  std::erase_if(completed_, [number](const Completed& c) { return c.save && c.number == number; });
  env_.storage.store().drop(self_, number);
}

void CheckpointTransfers::replicate(std::uint64_t number) {
  if (dead()) return;
  const auto* entry = env_.storage.store().find(self_, number);
  if (!entry || entry->holders.empty()) return;
  if (!entry->holders.count(self_)) { // a restarted node: its own copy comes back from a holder
    for (const auto* list : {&io_, &held_})
      for (const auto& io : *list)
        if (!io.save && io.number == number) return;
    start_replica(number, *entry->holders.begin(), false, entry->bytes);
    return; // its remote copies are complete: they are where it fetches from
  }
  for (Holder h : env_.storage.remote_holders(self_, number)) {
    if (entry->holders.count(h) || !env_.storage.holder_up(h)) continue;
    bool pending = false;
    for (const auto* list : {&io_, &held_})
      for (const auto& io : *list) pending |= io.save && io.number == number && io.holder == h;
    if (!pending) start_replica(number, h, true, entry->bytes);
  }
}

void CheckpointTransfers::start_replica(std::uint64_t number, int peer, bool outgoing, double bytes) {
  sg4::Host* from = outgoing ? env_.wire.host_of(self_) : env_.storage.holder_host(peer);
  sg4::Host* to = outgoing ? env_.storage.holder_host(peer) : env_.wire.host_of(self_);
  launch({nullptr, outgoing, number, peer, true, from, to, bytes});
  env_.observe.stats.add("storage.replicas");
  env_.storage.replica_started();
  node_.trace_event(1, "ckpt_replicate",
                    {{"number", number}, {"bytes", bytes}, {outgoing ? "to" : "from", env_.storage.holder_name(peer)}});
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
  settle(io, ok);
}

void CheckpointTransfers::settle(const PendingIo& io, bool ok) {
  if (io.staged != 0) {
    settle_staged(io, ok);
    return;
  }
  if (io.replica) env_.storage.replica_finished();
  const auto* entry = env_.storage.store().find(self_, io.number);
  if (io.save) {
    if (ok && entry) {
      env_.storage.store().add_copy(self_, io.number, io.holder);
      env_.observe.stats.add("storage.bytes_written", entry->bytes);
      if (is_server(io.holder))
        env_.observe.stats.add("storage.bytes_written." + env_.storage.holder_name(io.holder), entry->bytes);
    } else {
      env_.observe.stats.add("storage.copies_failed");
    }
    if (io.replica) return;
    if (--saves_left_[io.number] == 0) {
      saves_left_.erase(io.number);
      completed_.push_back({true, io.number});
    }
  } else if (ok) {
    env_.observe.stats.add("storage.bytes_read", entry ? entry->bytes : 0.0);
    if (entry) env_.storage.store().add_copy(self_, io.number, self_); // in this node's memory again
    if (!io.replica) completed_.push_back({false, io.number});
  } else if (!io.replica) {
    load(io.number); // the source died during the transfer: try another copy
  }
}

void CheckpointTransfers::settle_after_failure() {
  for (std::size_t i = io_.size(); i-- > 0;) {
    if (io_[i].comm->get_state() == sg4::Activity::State::FAILED) { // test() asserts on a failed comm
      if (!dead() && env_.storage.holder_up(io_[i].holder)) {       // both ends run: a link failure cut it
        PendingIo io = io_[i];
        io_.erase(io_.begin() + static_cast<std::ptrdiff_t>(i));
        io.comm = nullptr;
        launch(std::move(io)); // held while its route is down
        continue;
      }
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

void CheckpointTransfers::abandon() {
  // cancel() is a simcall: other actors run before it returns, this node's own among them (its
  // wait fails, it settles its transfers, erasing from io_, and may end, destroying this object).
  // So the comms are copied first and nothing of this object is touched after that; iterating
  // io_ itself read past its end once an erase had run (a segfault at the end of a stuck run).
  std::vector<sg4::CommPtr> started;
  for (const auto& io : io_)
    if (io.comm->get_state() == sg4::Activity::State::STARTED) started.push_back(io.comm);
  for (const sg4::CommPtr& comm : started)
    if (comm->get_state() == sg4::Activity::State::STARTED) comm->cancel();
}

void CheckpointTransfers::cancel_all() {
  end_staged_saves([](const Staged&) { return true; });
  staged_.clear();
  for (auto& io : io_) {
    io.comm->cancel();
    if (io.replica) env_.storage.replica_finished();
  }
  io_.clear();
  for (auto& io : held_)
    if (io.replica) env_.storage.replica_finished();
  held_.clear();
}

} // namespace ckptsim
