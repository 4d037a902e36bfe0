/* A protocol registered by a test only: one agent type @p A on every endpoint, no service. Used
 * for broken protocols the oracle must catch, and for protocols that never let a run end. */
#pragma once

#include "sim/protocol/protocol.hpp"

#include <memory>
#include <string>

namespace ckptsim::test_support {

template <class A>
class SingleAgentModule : public ProtocolModule {
 public:
  std::unique_ptr<Agent> make_agent(NodeId, bool) const override { return std::make_unique<A>(); }
};

/** @brief An agent that restarts only its failed process, from the initial state, and otherwise
 *  delivers every message as it comes: the base of the tests' broken protocols. */
class LocalRestartAgent : public Agent {
 public:
  void on_restart(NodeContext& ctx, const FailureNotice&) override {
    ctx.restore(ctx.initial_snapshot(), "test");
    ctx.resume_app();
    ctx.restart_complete();
  }
  void on_failure_detected(NodeContext&, const FailureNotice&) override {}
};

/** @brief Registers @p A's protocol as @p name (a static object of the test file). */
template <class A>
ProtocolRegistration register_test_protocol(const std::string& name, const std::string& description) {
  return ProtocolRegistration{
      {name, description, [](const ProtocolSetup&) { return std::make_unique<SingleAgentModule<A>>(); }, {}}};
}

} // namespace ckptsim::test_support
