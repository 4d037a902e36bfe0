/* What the unit tests of CCK's parts (test_cck_*.cpp) share: the parts wired as cck::Process
 * wires them (protocols/cck/parts.hpp, not a copy), on fake nodes of a federation that only lends
 * its layout, its nodes (sharing one Stats) and its application; its own agents are never given a
 * control message. The application is the one of test_agent_cck.cpp: a Jacobi 1D stencil of 6
 * cells, 1 iteration, on 3 processes of 2 cells each: P0 sends cell 1 to P1 and receives cell 2,
 * P1 sends cells 2 and 3 to P0 and P2 and receives cells 1 and 4, P2 sends cell 4 to P1 and
 * receives cell 3; each then computes its 2 cells. The coordinator is endpoint 3. */
#pragma once

#include "protocols/cck/messages.hpp"
#include "protocols/cck/parts.hpp"
#include "sim/app/stencil/workload.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

namespace ckptsim::cck_test {

constexpr NodeId kCoordinator = 3;

class CckPartsTest : public ::testing::Test {
 protected:
  CckPartsTest()
      : workload(test_support::stencil_app(1, 6, 1, 1), test_support::layout_of(3))
      , fed(test_support::one_cluster(3), "cck", {}, &workload) {}

  /** @brief The tag of the message carrying cell @p cell (version 0) to process @p to. */
  cck::Tag tag(int cell, int to) const { return *workload.jacobi().communication(cell, 0, to); }
  /** @brief The send task of that message. */
  cck::TaskId send_task(int cell, int to) const { return workload.graph().communication(tag(cell, to)).send; }
  /** @brief Message @p tag as the application numbers it (seq = tag), from its sender to its
   *  receiver, with the piggyback of a sender that last saved @p wave in its life @p life. */
  std::pair<AppMessage, PayloadPtr> message(cck::Tag tag, std::uint64_t wave = 0, FailureId life = 0) const {
    const cck::Communication& c = workload.graph().communication(tag);
    AppMessage m;
    m.src = c.from;
    m.dst = c.to;
    m.seq = tag;
    m.size = 1000;
    return {m, std::make_shared<cck::Piggyback>(wave, life)};
  }
  /** @brief Runs the three applications (through the federation's agents) to their end. */
  void run_to_the_end() {
    for (bool moved = true; moved;) {
      moved = false;
      for (NodeId p = 0; p < 3; p++) moved = fed.run_app(p) || moved;
      fed.route();
    }
  }
  /** @brief Forgets what the federation's agents asked of the nodes, so that a test reads only
   *  what its parts ask. */
  void forget_history() {
    for (NodeId p = 0; p <= kCoordinator; p++) {
      auto& n = fed.node(p);
      n.controls.clear();
      n.app_sent.clear();
      n.delivered.clear();
      n.events.clear();
      n.outbox.clear();
    }
  }

  StencilWorkload workload;
  test_support::FakeFederation fed;
};

/** @brief The notice of failure @p id of @p victim. */
inline FailureNotice notice(FailureId id, NodeId victim) {
  FailureNotice n;
  n.id = id;
  n.victims = {victim};
  return n;
}

/** @brief The body of the @p i-th control message @p node sent. */
inline const cck::WaveBody& sent_wave_body(const test_support::FakeNode& node, std::size_t i) {
  return cck::wave_body(node.controls.at(i).msg);
}

/** @brief The destinations of the control messages @p node sent, in order. */
inline std::vector<NodeId> destinations(const test_support::FakeNode& node) {
  std::vector<NodeId> out;
  for (const auto& c : node.controls) out.push_back(c.to);
  return out;
}

} // namespace ckptsim::cck_test
