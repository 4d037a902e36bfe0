/* CCK process: the routing of the engine's calls and the control messages to its parts. */
#include "protocols/cck/process.hpp"

namespace ckptsim::cck {

void Process::on_app_send(NodeContext& ctx, const AppMessage& msg) {
  p_.mailbox.send(ctx, msg);
  p_.restart.check_caught_up(ctx); // the send may be the last the re-execution owed
}

void Process::on_app_stopped(NodeContext& ctx) {
  if (p_.restart.state() == Restart::State::Stopping)
    p_.restart.on_app_stopped(ctx);
  else
    p_.wave.on_app_stopped(ctx);
}

void Process::on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) {
  switch (control_kind<Msg>(msg)) {
  case Msg::Init:
    return p_.wave.on_init(ctx, wave_body(msg));
  case Msg::Ping:
    return p_.wave.on_ping(ctx, from, wave_body(msg));
  case Msg::Pong:
    return p_.wave.on_pong(ctx, wave_body(msg));
  case Msg::Cont:
    return p_.wave.on_cont(ctx, wave_body(msg));
  case Msg::Recover:
    return p_.restart.on_recover(ctx, wave_body(msg));
  case Msg::StopPing:
    return p_.restart.on_stop_ping(ctx, from, wave_body(msg));
  case Msg::StopPong:
    return p_.restart.on_stop_pong(ctx, wave_body(msg));
  case Msg::Gather:
    return p_.restart.on_gather(ctx, from, std::static_pointer_cast<const GatherBody>(msg.body));
  case Msg::Restart:
    return p_.restart.on_restart_order(ctx, wave_body(msg));
  case Msg::Ack:
  case Msg::Ready:
  case Msg::Restarted:
  case Msg::Done:
    break; // the coordinator's messages
  }
  unexpected_control("cck", msg);
}

} // namespace ckptsim::cck
