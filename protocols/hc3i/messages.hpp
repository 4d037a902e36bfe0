/* What HC3I puts on the wire: the piggyback of application messages and the bodies of its
 * control messages. Sizes: 8 bytes per integer, 64 bytes of header per control message. */
#pragma once

#include "protocols/common/control.hpp"
#include "protocols/hc3i/ddv.hpp"
#include "sim/protocol/messages.hpp"

#include <boost/container/flat_map.hpp>

#include <array>
#include <map>
#include <memory>
#include <optional>

namespace ckptsim::hc3i {

constexpr double kControlBytes = 64;
constexpr double kWord = 8;

/** @brief The kinds of control messages: a cluster's CLC, the logs' acknowledgements, the
 *  recovery, the garbage collection (node.hpp says who sends what). */
enum class Msg {
  ClcReq = 1,
  ClcReady,
  ClcSave,
  ClcAck,
  ClcCommit,
  ClcForce,
  LogAck,
  Rollback,
  Restarted,
  Alert,
  AlertBcast,
  GcReq,
  GcResp,
  GcCollect,
  GcApply,
  AlertQuery,
  AlertReply
};

/** @brief The statistics and trace names of the kinds, in the enum's order. */
inline constexpr std::array kMsgNames{"CLC_REQ", "CLC_READY",  "CLC_SAVE",  "CLC_ACK",     "CLC_COMMIT",  "CLC_FORCE",
                                      "LOG_ACK", "ROLLBACK",   "RESTARTED", "ALERT",       "ALERT_BCAST", "GC_REQ",
                                      "GC_RESP", "GC_COLLECT", "GC_APPLY",  "ALERT_QUERY", "ALERT_REPLY"};
static_assert(kMsgNames.size() == static_cast<std::size_t>(Msg::AlertReply));
constexpr const char* msg_name(Msg m) { return kind_name(m, kMsgNames); }

/** @brief Piggyback of an application message. Inter-cluster: the sender cluster's SN (the
 *  protocol's only required field), with the sender cluster's epoch (number of rollbacks) and the
 *  sender's view of the receiver cluster's epoch, so that messages of an undone execution are
 *  dropped and replays wait for the rollback they answer; the transitive variant adds the whole
 *  DDV. Intra-cluster: the cluster's epoch only. */
struct Piggyback : Payload {
  bool inter = false;
  Sn sn = 0;
  std::uint64_t epoch = 0; // sender cluster's epoch when the message was sent
  std::uint64_t view = 0;  // inter: the receiver cluster's epoch as the sender knows it
  Ddv ddv;                 // transitive variant only
  // inter: the message's index on its channel, in the order its sender sent it (a receiver
  // tells a re-send from a new message by it). It stands for the sequence number any message
  // carries: not counted in bytes(), not traced.
  std::uint64_t idx = 0;
  nlohmann::ordered_json to_json() const override {
    nlohmann::ordered_json j;
    if (inter) {
      j["sn"] = sn;
      j["epoch"] = epoch;
      j["view"] = view;
      if (!ddv.empty()) j["ddv"] = ddv;
    } else {
      j["epoch"] = epoch;
    }
    return j;
  }
  double bytes() const override { return inter ? kWord * (3 + static_cast<double>(ddv.size())) : kWord; }
};

/** @brief A control message body: a few integers and, for some types, vectors or lists. */
struct Body : Payload {
  // Flat maps: a body is built per control message sent (one block, not a tree node per field);
  // iterated in key order like the std::map they replace (traces unchanged).
  boost::container::flat_map<std::string, std::uint64_t> ints;
  SharedDdv ddv;                     // REQ, FORCE (transitive), GC_COLLECT/GC_APPLY (worst SNs)
  std::vector<std::uint64_t> epochs; // GC_RESP: the epochs its leader knows; GC_COLLECT/GC_APPLY: each cluster's epoch
  boost::container::flat_map<std::int64_t, std::uint64_t> counts;   // READY: sent per peer; SAVE: expected per peer
  ClcList clcs;                                                     // GC_RESP, ROLLBACK to a restarted node
  std::vector<std::vector<std::pair<std::uint64_t, Sn>>> rollbacks; // ROLLBACK to a restarted node, ALERT_REPLY
  std::uint64_t get(const std::string& k) const {
    auto it = ints.find(k);
    return it == ints.end() ? 0 : it->second;
  }
  nlohmann::ordered_json to_json() const override {
    nlohmann::ordered_json j;
    for (const auto& [k, v] : ints) j[k] = v;
    if (!ddv.empty()) j["ddv"] = ddv;
    if (!epochs.empty()) j["epochs"] = epochs;
    if (!counts.empty()) {
      nlohmann::ordered_json c = nlohmann::ordered_json::object();
      for (const auto& [k, v] : counts) c[std::to_string(k)] = v;
      j["counts"] = c;
    }
    if (!clcs.empty()) {
      nlohmann::ordered_json l = nlohmann::ordered_json::array();
      for (const auto& clc : clcs) l.push_back({{"sn", clc.sn}, {"ddv", clc.ddv}, {"base", clc.base}});
      j["clcs"] = l;
    }
    return j;
  }
  double bytes() const override {
    double b = kWord * static_cast<double>(ints.size() + ddv.size() + epochs.size() + 2 * counts.size());
    for (const auto& clc : clcs) b += kWord * static_cast<double>(1 + clc.ddv.size() + clc.base.size());
    for (const auto& r : rollbacks) b += 2 * kWord * static_cast<double>(r.size());
    return b;
  }
};

inline ControlMessage control(Msg m, std::shared_ptr<Body> body) {
  return make_control(m, std::move(body), kControlBytes);
}

inline const Body& body(const ControlMessage& m) { return static_cast<const Body&>(*m.body); }

} // namespace ckptsim::hc3i
