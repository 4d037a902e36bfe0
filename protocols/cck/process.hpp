/* A computing process of CCK (thesis figure 4.5 and section 4.3): checkpoint waves coordinated
 * only with the processes it still expects data from, and a partial restart in which the failed
 * process restarts from its last checkpoint and the others re-execute only what it lost.
 *
 * The process is a few parts with one job each, so that each is read, and tested, on its own
 * (tests/unit/test_cck_*.cpp); Process only owns them (parts.hpp wires them) and routes the engine's calls and the
 * control messages to the part they are for. Parts get the parts they use by reference at
 * construction and call their public methods only. The parts, and what each owns:
 *   - Lives (lives.hpp): the failures known: the newest, the one that restarted this process,
 *     each process' last death (whose older messages are void).
 *   - LocalCheckpoints (checkpoints.hpp): the local copies of its checkpoints, the last wave saved.
 *   - Replay (replay.hpp): what a partial re-execution repeats, withholds or promises, message by
 *     message, and how each is told to the engine.
 *   - Mailbox (mailbox.hpp): the application messages: piggyback, stale ones dropped, those sent
 *     after a save this process has not made held until it makes it.
 *   - WaveParticipant (wave.hpp): INIT / PING / PONG / CONT / ACK, the save.
 *   - Gather (gather.hpp): the restart's all-gather of the restricted graphs.
 *   - Restart (restart.hpp): the restart's stop, flush, recovery line, reload and overhead of
 *     the failed process, plan (plan.hpp, stateless) and end.
 * The application is stopped by the wave (INIT to its last CONT) or by the restart (failure to
 * RESTART), never both: a restart aborts the wave and a wave does not start during a restart. So
 * no gate arbitrates between them (unlike hc3i's AppGate): the part under way stops and resumes
 * it, and the restart's stop takes the application's stop when both wait for it. */
#pragma once

#include "protocols/cck/parts.hpp"
#include "sim/protocol/dataflow.hpp"
#include "sim/protocol/protocol.hpp"

namespace ckptsim::cck {

class Process : public Agent {
 public:
  Process(const DataflowApplication& workload, NodeId coordinator, bool reuse)
      : p_(workload, coordinator, reuse) {}
  void on_start(NodeContext& ctx) override { p_.checkpoints.start(ctx); }
  void on_restart(NodeContext& ctx, const FailureNotice& own) override { p_.restart.on_restart(ctx, own); }
  void on_app_send(NodeContext& ctx, const AppMessage& msg) override;
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override {
    p_.mailbox.receive(ctx, msg, pb);
  }
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override { p_.restart.on_timer(ctx, id); }
  void on_saved(NodeContext& ctx, std::uint64_t number) override { p_.wave.on_saved(ctx, number); }
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) override {
    p_.restart.on_loaded(ctx, number, s);
  }
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override {
    p_.restart.on_failure_detected(ctx, notice);
  }
  void on_node_back(NodeContext& ctx, const FailureNotice& notice) override { p_.restart.on_node_back(ctx, notice); }
  void on_app_stopped(NodeContext& ctx) override;
  bool idle() const override { return p_.wave.idle() && !p_.restart.active() && p_.mailbox.empty(); }
  bool recovering() const override { return p_.restart.active(); }

 private:
  Parts p_;
};

} // namespace ckptsim::cck
