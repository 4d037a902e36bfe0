/* What the taskgraph protocol puts on the wire. Control messages (a 16-byte header, 8 bytes per
 * number, 4 per tag):
 *   TG_STORED (owner -> backup, number): the copy of checkpoint `number` is complete at the
 *     backup (the end of the checkpoint's transfer, told to the backup's protocol; sent again to
 *     a restarted backup, which lost its copy and what it knew);
 *   TG_STORED_ACK (backup -> owner, number): the backup knows it; the owner may now drop its older
 *     checkpoint and tell its senders (piggyback) that this one is committed;
 *   TG_RESTART (substitute -> backup, failure): the restarted process asks for its checkpoint;
 *   TG_RESTORE (backup -> substitute, failure, number): restore checkpoint `number` (0: the
 *     initial state);
 *   TG_RECOVER (backup -> each peer, failure, victim, number): replay to the victim what its
 *     checkpoint `number` does not cover (Lion 3.4 step 4: "le backup contacte les nœuds qui
 *     doivent potentiellement renvoyer un message");
 *   TG_REPLAYED (peer -> substitute, failure, resent, tags): the replay is done; `tags`: the
 *     messages of the victim this peer has received that the checkpoint's point does not cover
 *     (its "trace des messages entrants", 3.3), so the substitute knows which of its sends the
 *     peers already hold.
 * Application messages piggyback the sender's committed checkpoint (8 bytes): a receiver drops
 * from its log what that checkpoint covers. */
#pragma once

#include "protocols/common/control.hpp"
#include "protocols/taskgraph/points.hpp"
#include "sim/protocol/messages.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace ckptsim::taskgraph {

constexpr double kHeaderBytes = 16;
constexpr double kWord = 8;
constexpr double kTagBytes = 4;

/** @brief The kinds of control messages, as above. */
enum class Msg { Stored = 1, StoredAck, Restart, Restore, Recover, Replayed };

/** @brief The statistics and trace names of the kinds, in the enum's order. */
inline constexpr std::array kMsgNames{"TG_STORED",  "TG_STORED_ACK", "TG_RESTART",
                                      "TG_RESTORE", "TG_RECOVER",    "TG_REPLAYED"};
static_assert(kMsgNames.size() == static_cast<std::size_t>(Msg::Replayed));
constexpr const char* msg_name(Msg m) { return kind_name(m, kMsgNames); }

struct Body : Payload {
  FailureId failure = 0;
  std::uint64_t number = 0; // a checkpoint number (= its point)
  NodeId victim = -1;
  std::uint64_t resent = 0;
  std::vector<Tag> tags;
  nlohmann::ordered_json to_json() const override {
    nlohmann::ordered_json j{{"number", number}};
    if (failure) j["failure"] = failure;
    if (victim >= 0) j["victim"] = victim;
    if (resent) j["resent"] = resent;
    if (!tags.empty()) j["tags"] = tags;
    return j;
  }
  double bytes() const override {
    return kWord * (1 + (failure ? 1 : 0) + (victim >= 0 ? 1 : 0) + (resent ? 1 : 0)) +
           kTagBytes * static_cast<double>(tags.size());
  }
};

inline ControlMessage control(Msg m, std::shared_ptr<Body> body) {
  return make_control(m, std::move(body), kHeaderBytes);
}

inline const Body& body(const ControlMessage& m) { return static_cast<const Body&>(*m.body); }

/** @brief Piggyback of an application message: the sender's committed checkpoint. */
struct Piggyback : Payload {
  explicit Piggyback(std::uint64_t c)
      : committed(c) {}
  std::uint64_t committed;
  nlohmann::ordered_json to_json() const override { return {{"committed", committed}}; }
  double bytes() const override { return kWord; }
};

} // namespace ckptsim::taskgraph
