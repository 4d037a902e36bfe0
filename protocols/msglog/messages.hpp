/* What msglog puts on the wire: the piggyback of application messages and the bodies of its
 * control messages. Sizes: 8 bytes per integer; a determinant is 24 bytes (source, channel index,
 * receive sequence number; its owner is implied by the message or counted in the 24); a control
 * message has a 16-byte header (type, sender incarnation). */
#pragma once

#include "protocols/common/control.hpp"
#include "sim/protocol/index_set.hpp"
#include "sim/protocol/messages.hpp"

#include <array>
#include <map>
#include <memory>
#include <vector>

namespace ckptsim::msglog {

constexpr double kHeaderBytes = 16;
constexpr double kWord = 8;
constexpr double kDetBytes = 24;

/** @brief The kinds of control messages: with the event logger (DET, CKPT_DONE, REPLAY_REQ and
 *  their answers; ROLLBACK_NOTICE goes to the logger and the peers), between processes (LOG_GC,
 *  RESEND_REQ and its answer CATCHUP). */
enum class Msg { Det = 1, DetAck, CkptDone, CkptAck, LogGc, ReplayReq, Replay, ResendReq, Catchup, RollbackNotice };

/** @brief The statistics and trace names of the kinds, in the enum's order. */
inline constexpr std::array kMsgNames{"DET",        "DET_ACK", "CKPT_DONE",  "CKPT_ACK", "LOG_GC",
                                      "REPLAY_REQ", "REPLAY",  "RESEND_REQ", "CATCHUP",  "ROLLBACK_NOTICE"};
static_assert(kMsgNames.size() == static_cast<std::size_t>(Msg::RollbackNotice));
constexpr const char* msg_name(Msg m) { return kind_name(m, kMsgNames); }

/** @brief A determinant: process @p owner delivered, as its @p rsn-th delivery, the message of
 *  index @p idx on the channel from @p src. */
struct Det {
  NodeId owner = -1;
  NodeId src = -1;
  std::uint64_t idx = 0;
  std::uint64_t rsn = 0;
  bool operator==(const Det&) const = default;
};

nlohmann::ordered_json det_json(const Det& d);

/** @brief Piggyback of an application message: its channel index, the sender's epoch (its
 *  incarnation) and receive sequence number at the send; causal adds the determinants the sender
 *  does not know to be stable and its own stable rsn. */
struct Piggyback : Payload {
  std::uint64_t idx = 0;
  std::uint64_t epoch = 0;
  std::uint64_t rsn = 0;
  bool causal = false;
  std::uint64_t stable = 0; // causal: the sender's own determinants up to this rsn are stable
  std::vector<Det> dets;    // causal: determinants not known to be stable
  nlohmann::ordered_json to_json() const override;
  double bytes() const override {
    return 3 * kWord + (causal ? kWord + kDetBytes * static_cast<double>(dets.size()) : 0.0);
  }
};

/** @brief A control message body. */
struct Body : Payload {
  std::uint64_t inc = 0; // the sender's incarnation, part of the header
  std::map<std::string, std::uint64_t> ints;
  std::vector<Det> dets;
  // A channel's index set (IndexSet) travels as ints["next"] and these members above it: none
  // with eager sends, whose channels are delivered in order.
  std::vector<std::uint64_t> above;
  std::uint64_t get(const std::string& k) const {
    auto it = ints.find(k);
    return it == ints.end() ? 0 : it->second;
  }
  nlohmann::ordered_json to_json() const override;
  double bytes() const override {
    return kWord * static_cast<double>(ints.size() + above.size()) + kDetBytes * static_cast<double>(dets.size());
  }
};

/** @brief Puts @p s in @p b (ints["next"] and above). */
inline void put_set(Body& b, const IndexSet& s) {
  b.ints["next"] = s.next();
  b.above = s.above();
}
/** @brief The index set @p b carries. */
inline IndexSet get_set(const Body& b) { return IndexSet(b.get("next"), b.above); }

inline ControlMessage control(Msg m, std::shared_ptr<Body> body) {
  return make_control(m, std::move(body), kHeaderBytes);
}

inline const Body& body(const ControlMessage& m) { return static_cast<const Body&>(*m.body); }

} // namespace ckptsim::msglog
