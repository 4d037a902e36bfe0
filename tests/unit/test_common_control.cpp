/* Typed control messages (protocols/common/control.hpp): a message made from a kind carries the
 * kind, on which its receiver dispatches, and the kind's name, under which the engine counts it.
 * Each protocol's names are pinned here: they are statistics names (ctrl.<name>) that users'
 * scripts read, and two kinds sharing one would be counted as one. */
#include "protocols/cck/messages.hpp"
#include "protocols/common/control.hpp"
#include "protocols/coordinated/messages.hpp"
#include "protocols/hc3i/messages.hpp"
#include "protocols/independent/messages.hpp"
#include "protocols/msglog/messages.hpp"
#include "protocols/taskgraph/messages.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ckptsim {
namespace {

enum class TestMsg { Ping = 1, Pong };
constexpr const char* msg_name(TestMsg m) { return m == TestMsg::Ping ? "PING" : "PONG"; }

struct EmptyBody : Payload {
  nlohmann::ordered_json to_json() const override { return nlohmann::ordered_json::object(); }
};

TEST(CommonControl, MakeControlCarriesTheKindItsNameTheBodyAndTheSize) {
  auto body = std::make_shared<EmptyBody>();
  const ControlMessage m = make_control(TestMsg::Pong, body, 64);
  EXPECT_EQ(m.type, "PONG");
  EXPECT_EQ(m.kind, 2);
  EXPECT_EQ(m.body, body);
  EXPECT_EQ(m.bytes, 64);
  EXPECT_EQ(control_kind<TestMsg>(m), TestMsg::Pong);
}

TEST(CommonControl, AnUnexpectedMessageIsALogicErrorNamingProtocolAndMessage) {
  const ControlMessage m = make_control(TestMsg::Ping, nullptr, 16);
  try {
    unexpected_control("test", m);
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "test: unexpected control message PING (kind 1)");
  }
}

/** Kinds 1..n are named @p names in order, and there is no kind n + 1 (the list is complete). */
template <class Kind>
void expect_names(const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); i++)
    EXPECT_EQ(msg_name(static_cast<Kind>(i + 1)), names[i]) << "kind " << i + 1;
  EXPECT_STREQ(msg_name(static_cast<Kind>(names.size() + 1)), "?") << "a kind the list does not name";
}

TEST(CommonControl, EveryProtocolKeepsItsStatisticsNames) {
  expect_names<cck::Msg>({"INIT", "PING", "PONG", "CONT", "ACK", "RECOVER", "STOP_PING", "STOP_PONG", "GATHER", "READY",
                          "RESTART", "RESTARTED", "DONE"});
  expect_names<coordinated::Msg>(
      {"INIT", "FLUSH", "ACK", "CONT", "ROLLBACK", "RESTARTED", "CKPT_REQUEST", "CKPT_DECISION"});
  expect_names<hc3i::Msg>({"CLC_REQ", "CLC_READY", "CLC_SAVE", "CLC_ACK", "CLC_COMMIT", "CLC_FORCE", "LOG_ACK",
                           "ROLLBACK", "RESTARTED", "ALERT", "ALERT_BCAST", "GC_REQ", "GC_RESP", "GC_COLLECT",
                           "GC_APPLY", "ALERT_QUERY", "ALERT_REPLY"});
  expect_names<independent::Msg>(
      {"INIT", "FLUSH", "ACK", "COMMIT", "CKPT_RECORD", "RECOVER_REQ", "STATE", "ROLLBACK", "RESTARTED", "GC"});
  expect_names<msglog::Msg>({"DET", "DET_ACK", "CKPT_DONE", "CKPT_ACK", "LOG_GC", "REPLAY_REQ", "REPLAY", "RESEND_REQ",
                             "CATCHUP", "ROLLBACK_NOTICE"});
  expect_names<taskgraph::Msg>({"TG_STORED", "TG_STORED_ACK", "TG_RESTART", "TG_RESTORE", "TG_RECOVER", "TG_REPLAYED"});
}

} // namespace
} // namespace ckptsim
