/* Protocol "none" (SPEC 3.1): no checkpoint. A failure restarts the whole application from the
 * beginning: when a node hears of a failure it rolls back to the initial state and waits until
 * the failed node is back (a global restart needs every process), then all start again.
 * Every message carries the sender's epoch (the newest failure it restarted for), so that a
 * message of an undone execution is never delivered to the new one, and a message of a newer
 * execution makes a node that has not heard of the failure yet restart first. */
#include "protocols/common/epoch.hpp"
#include "protocols/common/restart_delay.hpp"
#include "sim/protocol/protocol.hpp"

#include <fmt/format.h>

#include <set>

namespace ckptsim {
namespace {

constexpr int kRestartTimer = 1;

class NoneAgent : public Agent {
 public:
  void on_restart(NodeContext& ctx, const FailureNotice& own) override {
    epoch_ = own.latest;
    waiting_for_ = std::set<FailureId>(own.down.begin(), own.down.end());
    waiting_for_.insert(own.id);
    ctx.restore(ctx.initial_snapshot(), fmt::format("restart from scratch (failure {})", own.id));
    // The fresh process pays the restart overhead, then waits for the global restart.
    restart_delay_.begin();
    restart_delay_.pay(ctx);
  }

  void on_timer(NodeContext& ctx, int id) override { restart_delay_.end(ctx, id); }

  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override {
    waiting_for_.insert(notice.id);
    restart_for(ctx, notice.id);
    ctx.pause_app();
  }

  void on_node_back(NodeContext& ctx, const FailureNotice& notice) override {
    waiting_for_.erase(notice.id);
    if (waiting_for_.empty()) ctx.resume_app();
  }

  void on_app_send(NodeContext& ctx, const AppMessage& msg) override {
    ctx.send_app(msg, std::make_shared<Epoch>(epoch_));
  }

  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override {
    const auto& e = static_cast<const Epoch&>(*pb);
    if (e.epoch < epoch_) { // sent by an execution that a restart undid
      ctx.stats().add("none.stale_dropped");
      return;
    }
    if (e.epoch > epoch_) // the sender restarted for a failure we have not been told of yet
      restart_for(ctx, e.epoch);
    ctx.deliver(msg, pb);
  }

 private:
  void restart_for(NodeContext& ctx, FailureId failure) {
    if (failure <= epoch_) return;
    epoch_ = failure;
    ctx.restore(ctx.initial_snapshot(), fmt::format("global restart from scratch (failure {})", failure));
  }
  FailureId epoch_ = 0;
  std::set<FailureId> waiting_for_; // failures whose victim is not back yet
  RestartDelay restart_delay_{kRestartTimer};
};

class NoneModule : public ProtocolModule {
 public:
  std::unique_ptr<Agent> make_agent(NodeId, bool) const override { return std::make_unique<NoneAgent>(); }
};

const ProtocolRegistration registration{{"none",
                                         "no checkpoint: a failure restarts the whole application from the beginning",
                                         [](const ProtocolSetup&) { return std::make_unique<NoneModule>(); },
                                         {}}};

} // namespace
} // namespace ckptsim
