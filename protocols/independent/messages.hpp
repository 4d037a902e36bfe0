/* What independent checkpointing puts on the wire: the piggyback of application messages and
 * the bodies of its control messages. Sizes: 8 bytes per integer, 64 bytes of header per
 * control message. */
#pragma once

#include "protocols/common/control.hpp"
#include "protocols/independent/line.hpp"
#include "sim/protocol/messages.hpp"

#include <array>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace ckptsim::independent {

constexpr double kControlBytes = 64;
constexpr double kWord = 8;

/** @brief The kinds of control messages: a unit's checkpoint (INIT, FLUSH, ACK, COMMIT among its
 *  members, CKPT_RECORD to the recovery manager), the recovery, the garbage collection. */
enum class Msg { Init = 1, Flush, Ack, Commit, CkptRecord, RecoverReq, State, Rollback, Restarted, Gc };

/** @brief The statistics and trace names of the kinds, in the enum's order. */
inline constexpr std::array kMsgNames{"INIT",        "FLUSH", "ACK",      "COMMIT",    "CKPT_RECORD",
                                      "RECOVER_REQ", "STATE", "ROLLBACK", "RESTARTED", "GC"};
static_assert(kMsgNames.size() == static_cast<std::size_t>(Msg::Gc));
constexpr const char* msg_name(Msg m) { return kind_name(m, kMsgNames); }

/** @brief Piggyback of an application message. Between units: the sender unit's epoch (number
 *  of its rollbacks) and interval, which say whether a rollback undid the send, and the
 *  message's index on its channel (sender -> receiver), which orders re-sent messages and
 *  recognises duplicates: 24 bytes. Inside a cluster unit: the unit's epoch only (the unit
 *  rolls back as a whole), 8 bytes. */
struct Piggyback : Payload {
  bool inter = false;
  std::uint64_t epoch = 0;
  std::int64_t interval = 0;
  std::uint64_t index = 0;
  nlohmann::ordered_json to_json() const override {
    if (!inter) return {{"epoch", epoch}};
    return {{"epoch", epoch}, {"interval", interval}, {"index", index}};
  }
  double bytes() const override { return inter ? 3 * kWord : kWord; }
};

using Channels = std::map<NodeId, std::uint64_t>;                                 // peer -> index
using ChannelPairs = std::map<std::pair<NodeId, NodeId>, std::uint64_t>;          // (receiver, sender) -> next expected
using History = std::vector<std::vector<std::pair<std::uint64_t, std::int64_t>>>; // per unit: (epoch after, restored)

/** @brief A control message body; each type uses the fields it needs (see docs/MODEL.md). */
struct Body : Payload {
  std::map<std::string, std::int64_t> ints;
  Deps deps;                         // STATE, ACK, CKPT_RECORD: a dependency vector
  Channels channels;                 // STATE/ACK: next expected per sender; ROLLBACK: re-send from, per
                                     // receiver; GC: log entries to drop below, per receiver
  ChannelPairs pairs;                // ACK, CKPT_RECORD: next expected per (receiver, sender) of the checkpoint
  std::vector<std::int64_t> line;    // ROLLBACK, GC: per unit, the checkpoint restored / kept (-1: none)
  std::vector<std::uint64_t> epochs; // ROLLBACK: every unit's epoch after the recovery
  History history;                   // ROLLBACK to a restarted node: every rollback so far
  std::vector<std::int64_t> stored;  // ROLLBACK to a restarted node: its unit's checkpoints kept
  std::vector<NodeId> victims;       // RESTARTED: the failure's other victims (the sender is one)

  std::int64_t get(const std::string& k) const {
    auto it = ints.find(k);
    return it == ints.end() ? 0 : it->second;
  }
  nlohmann::ordered_json to_json() const override {
    nlohmann::ordered_json j;
    for (const auto& [k, v] : ints) j[k] = v;
    if (!deps.empty()) j["deps"] = deps;
    if (!line.empty()) j["line"] = line;
    if (!epochs.empty()) j["epochs"] = epochs;
    if (!channels.empty()) {
      nlohmann::ordered_json c = nlohmann::ordered_json::object();
      for (const auto& [k, v] : channels) c[std::to_string(k)] = v;
      j["channels"] = c;
    }
    if (!pairs.empty()) j["pairs"] = pairs.size();
    if (!stored.empty()) j["stored"] = stored;
    if (!victims.empty()) j["victims"] = victims;
    return j;
  }
  double bytes() const override {
    double b = kWord * static_cast<double>(ints.size() + deps.size() + 2 * channels.size() + 3 * pairs.size() +
                                           line.size() + epochs.size() + stored.size() + victims.size());
    for (const auto& h : history) b += 2 * kWord * static_cast<double>(h.size());
    return b;
  }
};

inline ControlMessage control(Msg m, std::shared_ptr<Body> body) {
  return make_control(m, std::move(body), kControlBytes);
}

inline const Body& body(const ControlMessage& m) { return static_cast<const Body&>(*m.body); }

} // namespace ckptsim::independent
