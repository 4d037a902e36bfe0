/* The registry of envelopes on the wire: every application or control message from the moment a
 * node posts it until its receiver takes it, so that the run knows exactly when nothing is left
 * in transit (the termination rule) and how many protocol messages are (a recovery that waits
 * for quiescence). A failure purges what dies with the failed node; the purged envelopes stay
 * alive until the end of the run, since a receiver may already hold their address.
 * Plain bookkeeping: the transfer carrying an envelope is an opaque handle (a SimGrid comm in the
 * engine, WireRegistry below), which only the purge's caller looks into. */
#pragma once

#include "sim/net/envelope.hpp"

#include <simgrid/forward.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ckptsim {

template <typename Transfer>
class BasicWireRegistry {
 public:
  /** @brief Puts @p env on the wire under a fresh id (written to env->wire_id), which it returns. */
  std::uint64_t add(std::unique_ptr<Envelope> env) {
    const std::uint64_t id = next_id_++;
    env->wire_id = id;
    if (env->kind == Envelope::Kind::Control) control_++;
    if (env->kind == Envelope::Kind::App) app_++;
    pairs_[pair_key(env->src, env->dst)]++;
    wire_[id].env = std::move(env);
    return id;
  }
  /** @brief The transfer carrying envelope @p id, started after add(): a failure may have purged
   *  the envelope meanwhile, and the purged entry keeps its transfer too. */
  void set_transfer(std::uint64_t id, Transfer transfer) {
    if (auto it = wire_.find(id); it != wire_.end())
      it->second.transfer = std::move(transfer);
    else if (auto p = purged_.find(id); p != purged_.end())
      p->second.transfer = std::move(transfer);
  }
  /** @brief The receiver takes envelope @p id off the wire. Null when it was purged (lost with
   *  its failed sender at the very date its transfer ended); std::logic_error when unknown. */
  std::unique_ptr<Envelope> take(std::uint64_t id) {
    auto it = wire_.find(id);
    if (it == wire_.end()) {
      // Purged when its sender died, yet its transfer ended at that very date: the receiver got it
      // as the sender's host went off. It counts as lost with its sender (the purge's decision).
      if (purged_.erase(id) > 0) return nullptr;
      throw std::logic_error("engine bug: envelope " + std::to_string(id) + " received but not on the wire");
    }
    auto owned = std::move(it->second.env);
    wire_.erase(it);
    left_wire(*owned);
    return owned;
  }
  /** @brief The sender saw the transfer of envelope @p id fail: off the wire. False when it was
   *  not on it (purged or taken already). */
  bool drop(std::uint64_t id) {
    auto it = wire_.find(id);
    if (it == wire_.end()) return false;
    left_wire(*it->second.env);
    wire_.erase(it);
    return true;
  }
  /** @brief Node @p dead failed: what was sent to it is gone with it (whatever it had not processed),
   *  and so is what it sent that had not reached its receiver's mailbox yet (@p transferred tells,
   *  from an envelope's transfer, whether it ended); what reached the mailbox will be received.
   *  @p purged is told the id of each envelope lost so. */
  void purge(NodeId dead, const std::function<bool(const Transfer&)>& transferred,
             const std::function<void(std::uint64_t)>& purged = {}) {
    for (auto it = wire_.begin(); it != wire_.end();) {
      const Envelope& e = *it->second.env;
      if (e.dst != dead && (e.src != dead || transferred(it->second.transfer))) {
        ++it;
        continue;
      }
      left_wire(e);
      if (purged) purged(it->first);
      // Kept alive off the wire: a receiver may already hold its address (see take()).
      purged_.emplace(it->first, std::move(it->second));
      it = wire_.erase(it);
    }
  }

  /** @brief Envelope @p id if it is on the wire, else null. */
  Envelope* find(std::uint64_t id) const {
    auto it = wire_.find(id);
    return it == wire_.end() ? nullptr : it->second.env.get();
  }
  /** @brief Calls @p f(envelope, transfer) for every envelope on the wire (in no set order). */
  template <typename F>
  void for_each(F&& f) const {
    for (const auto& [id, entry] : wire_) f(*entry.env, entry.transfer);
  }

  bool empty() const { return wire_.empty(); }
  std::size_t size() const { return wire_.size(); }
  /** @brief Protocol control messages on the wire. */
  int control_messages() const { return control_; }
  /** @brief Application messages on the wire. */
  int app_messages() const { return app_; }
  /** @brief Envelopes from @p src to @p dst on the wire. */
  std::size_t on_wire(NodeId src, NodeId dst) const {
    auto it = pairs_.find(pair_key(src, dst));
    return it == pairs_.end() ? 0 : it->second;
  }

 private:
  struct Entry {
    std::unique_ptr<Envelope> env;
    Transfer transfer{};
  };
  void left_wire(const Envelope& env) {
    if (env.kind == Envelope::Kind::Control) control_--;
    if (env.kind == Envelope::Kind::App) app_--;
    auto it = pairs_.find(pair_key(env.src, env.dst));
    if (--it->second == 0) pairs_.erase(it);
  }

  std::unordered_map<std::uint64_t, Entry> wire_;
  std::unordered_map<std::uint64_t, Entry> purged_;        // lost with a failed node, freed at the end of the run
  std::unordered_map<std::uint64_t, std::uint32_t> pairs_; // (src, dst) -> envelopes on the wire
  std::uint64_t next_id_ = 1;
  int control_ = 0;
  int app_ = 0;
};

/** @brief The engine's registry: an envelope travels in a SimGrid comm. */
using WireRegistry = BasicWireRegistry<simgrid::s4u::CommPtr>;

} // namespace ckptsim
