/* The smallest protocol that recovers correctly, the example of docs/ARCHITECTURE.md ("Add a
 * protocol"): no checkpoint; a failure sends every process back to its initial state, and the
 * application resumes when the victim is back. Registered by the tests only, as
 * "test-restart". Every application message carries the sender's epoch (the newest failure
 * it restarted for): a message of an undone execution is dropped, one from a newer execution
 * makes the receiver restart first (it has not heard of that failure yet). */
#include "sim/protocol/protocol.hpp"

#include <set>
#include <string>

namespace ckptsim::examples {
namespace {

struct EpochTag : Payload {
  explicit EpochTag(FailureId e)
      : epoch(e) {}
  FailureId epoch;
  nlohmann::ordered_json to_json() const override { return {{"epoch", epoch}}; }
};

class RestartAgent : public Agent {
 public:
  void on_restart(NodeContext& ctx, const FailureNotice& own) override {
    down_.insert(own.down.begin(), own.down.end());
    down_.insert(own.id);
    restart(ctx, own.latest); // a fresh process: its initial state, the newest epoch it knows
    ctx.set_timer(0, ctx.now() + ctx.restart_overhead());
  }
  void on_timer(NodeContext& ctx, int) override { ctx.restart_complete(); }
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override {
    down_.insert(notice.id);
    roll_back(ctx, notice.id);
    ctx.pause_app(); // until every victim is back
  }
  void on_node_back(NodeContext& ctx, const FailureNotice& notice) override {
    down_.erase(notice.id);
    if (down_.empty()) ctx.resume_app();
  }
  void on_app_send(NodeContext& ctx, const AppMessage& msg) override {
    ctx.send_app(msg, std::make_shared<EpochTag>(epoch_));
  }
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override {
    const FailureId e = static_cast<const EpochTag&>(*pb).epoch;
    if (e < epoch_) return; // sent by an execution a restart undid
    roll_back(ctx, e);      // sent after a restart this process has not made yet
    ctx.deliver(msg, pb);
  }

 private:
  void roll_back(NodeContext& ctx, FailureId failure) {
    if (failure > epoch_) restart(ctx, failure);
  }
  void restart(NodeContext& ctx, FailureId failure) {
    epoch_ = failure;
    ctx.restore(ctx.initial_snapshot(), "restart from the initial state (failure " + std::to_string(failure) + ")");
  }
  FailureId epoch_ = 0;
  std::set<FailureId> down_; // failures whose victim is not back yet
};

class RestartModule : public ProtocolModule {
 public:
  std::unique_ptr<Agent> make_agent(NodeId, bool) const override { return std::make_unique<RestartAgent>(); }
};

const ProtocolRegistration registration{{"test-restart",
                                         "example: every failure restarts the application",
                                         [](const ProtocolSetup&) { return std::make_unique<RestartModule>(); },
                                         {}}};

} // namespace
} // namespace ckptsim::examples
