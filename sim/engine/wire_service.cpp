#include "sim/engine/wire_service.hpp"

#include <cmath>
#include <fmt/format.h>

namespace ckptsim {

WireService::WireService(const Platform& platform, const Endpoints& endpoints, Observation& observe, Ending& ending)
    : platform_(platform)
    , endpoints_(endpoints)
    , observe_(observe)
    , ending_(ending)
    , proxies_([this](NodeId e) { return host_of(e); }, [this](NodeId e) { return bool(endpoints_.up[e]); }) {}

sg4::Host* WireService::host_of(NodeId endpoint) const {
  const auto nodes = static_cast<NodeId>(endpoints_.host_index.size());
  return endpoint < nodes ? platform_.hosts[endpoints_.host_index[endpoint]] : platform_.controller;
}

sg4::Mailbox* WireService::mailbox(NodeId endpoint, Incarnation inc) const {
  return sg4::Mailbox::by_name(fmt::format("n{}@{}", endpoint, inc));
}

sg4::Mailbox* WireService::bell(NodeId endpoint, Incarnation inc) const {
  return sg4::Mailbox::by_name(fmt::format("b{}@{}", endpoint, inc));
}

void WireService::note_wire() {
  ending_.termination.set_app_on_wire(wire_.app_messages() > 0, sg4::Engine::get_clock());
}

std::pair<std::uint64_t, sg4::CommPtr> WireService::post(std::unique_ptr<Envelope> env, CommProxies::ProxyPtr& via) {
  if (!alive(env->src, env->src_inc)) { // sent by a dead incarnation: it crashed before it could send
    observe_.stats.add("net.lost_from_down");
    return {0, nullptr};
  }
  if (!endpoints_.up[env->dst]) { // sent to a crashed node: lost, as in a real crash
    observe_.stats.add("net.lost_to_down");
    return {0, nullptr};
  }
  const double bytes = env->bytes;
  const NodeId dst = env->dst;
  Envelope* raw = env.get();
  // On the wire before any SimGrid call: Mailbox::by_name and put_async yield to other actors,
  // which must not find an empty wire and end the run while this message is being sent.
  const std::uint64_t id = wire_.add(std::move(env));
  note_wire();
  observe_.paje.link_start(sg4::Engine::get_clock(),
                           raw->kind == Envelope::Kind::App ? PajeWriter::LinkKind::App : PajeWriter::LinkKind::Control,
                           raw->src, dst, id);
  sg4::Mailbox* mb = mailbox(dst, endpoints_.incarnation[dst]);
  auto comm = proxies_.put_async(raw->src, mb, raw, static_cast<uint64_t>(std::llround(bytes)), via);
  // A failure may have struck the sender or the receiver while put_async yielded, and its purge
  // moved the entry off the wire (the envelope stays alive there).
  wire_.set_transfer(id, comm);
  return {id, comm};
}

std::unique_ptr<Envelope> WireService::take(Envelope* env) {
  if (env->kind == Envelope::Kind::Signal) return std::unique_ptr<Envelope>(env);
  auto owned = wire_.take(env->wire_id);
  if (owned) observe_.paje.link_end(sg4::Engine::get_clock(), owned->wire_id);
  note_wire();
  return owned;
}

void WireService::drop(std::uint64_t wire_id) {
  if (wire_.drop(wire_id)) {
    note_wire();
    observe_.stats.add("net.lost_in_transfer");
    observe_.paje.link_end(sg4::Engine::get_clock(), wire_id);
  }
}

void WireService::purge(NodeId dead) {
  // The sender may not have waited for a finished send yet (it waits for its oldest ones only), so
  // its s4u state is not enough: the kernel dates the end of every transfer that completes.
  const double now = sg4::Engine::get_clock();
  wire_.purge(
      dead,
      [](const sg4::CommPtr& comm) {
        return comm && (comm->get_state() == sg4::Activity::State::FINISHED || comm->get_finish_time() >= 0);
      },
      [this, now](std::uint64_t id) { observe_.paje.link_end(now, id); });
  note_wire();
}

} // namespace ckptsim
