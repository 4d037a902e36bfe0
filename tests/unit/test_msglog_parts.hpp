/* The parts of one msglog process wired as msglog::Process wires them (protocols/msglog/
 * process.hpp), for the unit tests of each part (test_msglog_*.cpp): the test calls a part
 * directly on a fake node and reads what the node was asked to do and what the parts now hold.
 * The federation (three processes, the event logger is endpoint 3) only lends its layout and its
 * fake nodes (sharing one Stats); its own agents are never started. */
#pragma once

#include "protocols/msglog/messages.hpp"
#include "protocols/msglog/parts.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

namespace ckptsim::msglog_test {

constexpr NodeId kLogger = 3;

/** @brief The options of @p variant, keeping @p keep checkpoints. */
inline msglog::Options options(msglog::Variant variant, std::size_t keep = 3) {
  msglog::Options o;
  o.variant = variant;
  o.keep = keep;
  return o;
}

/** @brief Process @p self's parts, wired as Process wires them. */
using Parts = msglog::Parts;

/** @brief A control message of kind @p kind, sender incarnation @p inc, integer fields @p ints. */
inline ControlMessage ctrl(msglog::Msg kind, std::uint64_t inc,
                           std::initializer_list<std::pair<const std::string, std::uint64_t>> ints = {},
                           std::vector<msglog::Det> dets = {}) {
  auto b = std::make_shared<msglog::Body>();
  b->inc = inc;
  for (const auto& [k, v] : ints) b->ints[k] = v;
  b->dets = std::move(dets);
  return msglog::control(kind, b);
}

/** @brief The body of the @p i-th control message @p node sent. */
inline const msglog::Body& sent_body(const test_support::FakeNode& node, std::size_t i) {
  return msglog::body(node.controls.at(i).msg);
}

/** @brief The piggyback of @p pb. */
inline const msglog::Piggyback& piggyback_of(const PayloadPtr& pb) {
  return static_cast<const msglog::Piggyback&>(*pb);
}

/** @brief Message @p seq from @p src to @p dst of @p size bytes, with the piggyback of channel
 *  index @p idx, sender epoch @p epoch and sender rsn @p rsn. */
inline std::pair<AppMessage, std::shared_ptr<msglog::Piggyback>> message(NodeId src, NodeId dst, std::uint64_t seq,
                                                                         std::uint64_t idx, std::uint64_t epoch = 0,
                                                                         std::uint64_t rsn = 0, double size = 100) {
  AppMessage m;
  m.src = src;
  m.dst = dst;
  m.seq = seq;
  m.size = size;
  auto pb = std::make_shared<msglog::Piggyback>();
  pb->idx = idx;
  pb->epoch = epoch;
  pb->rsn = rsn;
  return {m, pb};
}

/** @brief Message @p m arrives at @p p's process on @p ctx. */
inline void arrive(Parts& p, NodeContext& ctx, const std::pair<AppMessage, std::shared_ptr<msglog::Piggyback>>& m) {
  p.inbox.on_app_receive(ctx, m.first, m.second);
}

/** @brief (src, seq) of each delivery of @p node, in order. */
inline std::vector<std::pair<NodeId, std::uint64_t>> deliveries(const test_support::FakeNode& node) {
  std::vector<std::pair<NodeId, std::uint64_t>> out;
  for (const auto& [msg, pb] : node.delivered) out.emplace_back(msg.src, msg.seq);
  return out;
}

/** @brief The fixture of tests on node 1 of a cluster of three under pessimistic msglog: its
 *  parts @p p and its fake node @p ctx (the others are the test's to play). */
class NodeOneOfThree : public ::testing::Test {
 protected:
  NodeOneOfThree()
      : fed(test_support::one_cluster(3), "msglog")
      , p(fed.layout(), 1)
      , ctx(fed.node(1)) {}
  test_support::FakeFederation fed;
  Parts p;
  test_support::FakeNode& ctx;
};

} // namespace ckptsim::msglog_test
