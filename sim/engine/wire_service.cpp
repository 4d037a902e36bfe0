#include "sim/engine/wire_service.hpp"

#include <cmath>
#include <fmt/format.h>

namespace ckptsim {

WireService::WireService(const Platform& platform, const Endpoints& endpoints, Observation& observe, Ending& ending,
                         LinkFaults& links)
    : platform_(platform)
    , endpoints_(endpoints)
    , observe_(observe)
    , ending_(ending)
    , proxies_([this](NodeId e) { return host_of(e); }, [this](NodeId e) { return bool(endpoints_.up[e]); })
    , links_(links) {}

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
  // A message waiting for a route is not moving: a run whose messages all wait for a link that
  // never comes back is idle (the watchdog ends it), unless the engine knows when the link is back.
  ending_.termination.set_app_on_wire(wire_.app_messages() - held_app_ > 0, sg4::Engine::get_clock());
}

void WireService::unheld(std::uint64_t id) {
  auto it = held_.find(id);
  if (it == held_.end()) return;
  held_app_ -= it->second.app;
  held_.erase(it);
  note_wire();
}

Posted WireService::post(std::unique_ptr<Envelope> env, CommProxies::ProxyPtr& via) {
  if (!alive(env->src, env->src_inc)) { // sent by a dead incarnation: it crashed before it could send
    observe_.stats.add("net.lost_from_down");
    return {};
  }
  if (!endpoints_.up[env->dst]) { // sent to a crashed node: lost, as in a real crash
    observe_.stats.add("net.lost_to_down");
    return {};
  }
  const NodeId dst = env->dst;
  Envelope* raw = env.get();
  // On the wire before any SimGrid call: Mailbox::by_name and put_async yield to other actors,
  // which must not find an empty wire and end the run while this message is being sent.
  const std::uint64_t id = wire_.add(std::move(env));
  note_wire();
  observe_.paje.link_start(sg4::Engine::get_clock(),
                           raw->kind == Envelope::Kind::App ? PajeWriter::LinkKind::App : PajeWriter::LinkKind::Control,
                           raw->src, dst, id);
  if (links_.links_down() > 0 && !links_.route_up(host_of(raw->src), host_of(dst))) return hold(id);
  return start(raw, id, via);
}

Posted WireService::start(Envelope* env, std::uint64_t id, CommProxies::ProxyPtr& via) {
  sg4::Mailbox* mb = mailbox(env->dst, env->dst_inc);
  double bytes = env->bytes;
  if (auto rest = remaining_.find(id); rest != remaining_.end()) { // a cut transfer resumes
    if (rest->second > 0) bytes = std::min(bytes, rest->second);
    remaining_.erase(rest);
  }
  auto comm = proxies_.put_async(env->src, mb, env, static_cast<uint64_t>(std::llround(bytes)), via);
  // A failure may have struck the sender or the receiver while put_async yielded, and its purge
  // moved the entry off the wire (the envelope stays alive there).
  wire_.set_transfer(id, comm);
  return {Posted::How::Started, id, comm};
}

Posted WireService::hold(std::uint64_t id) {
  const Envelope* env = wire_.find(id);
  if (env != nullptr &&
      held_.try_emplace(id, Held{sg4::Engine::get_clock(), env->kind == Envelope::Kind::App}).second) {
    held_app_ += env->kind == Envelope::Kind::App;
    note_wire();
  }
  // No transfer under way: should its sender die while it waits, the purge counts it as not sent.
  wire_.set_transfer(id, nullptr);
  return {Posted::How::Held, id, nullptr};
}

Posted WireService::repost(std::uint64_t wire_id, CommProxies::ProxyPtr& via) {
  Envelope* env = wire_.find(wire_id);
  if (env == nullptr || !alive(env->src, env->src_inc) || !alive(env->dst, env->dst_inc)) {
    unheld(wire_id);
    if (env != nullptr) drop(wire_id);
    return {};
  }
  if (!links_.route_up(host_of(env->src), host_of(env->dst))) return hold(wire_id);
  if (auto it = held_.find(wire_id); it != held_.end()) {
    observe_.stats.add("network.messages_delayed");
    observe_.stats.add("network.message_delay", sg4::Engine::get_clock() - it->second.since);
    unheld(wire_id);
  }
  return start(env, wire_id, via);
}

bool WireService::cut(std::uint64_t wire_id) {
  const Envelope* env = wire_.find(wire_id);
  // A receiver that died is purged from the wire before its host goes off: still on the wire
  // with both ends running, the transfer was cut by the network.
  if (env == nullptr || !alive(env->src, env->src_inc) || !alive(env->dst, env->dst_inc)) {
    drop(wire_id);
    return false;
  }
  observe_.stats.add("network.transfers_resent");
  hold(wire_id);
  return true;
}

void WireService::note_cut() {
  // Called as a link goes down, before SimGrid fails the transfers crossing it: what each transfer
  // still had to send is what it sends once its route is back (the reliable channel resumes, as
  // TCP retransmits only what was not acknowledged). A transfer the failure does not cut keeps
  // an entry it never reads (erased when it is taken off the wire).
  wire_.for_each([&](const Envelope& env, const sg4::CommPtr& comm) {
    if (comm && comm->get_state() == sg4::Activity::State::STARTED) remaining_[env.wire_id] = comm->get_remaining();
  });
}

std::set<NodeId> WireService::senders_in_transit() const {
  std::set<NodeId> out;
  wire_.for_each([&](const Envelope& env, const sg4::CommPtr& comm) {
    if (comm && env.kind != Envelope::Kind::Signal) out.insert(env.src);
  });
  return out;
}

std::unique_ptr<Envelope> WireService::take(Envelope* env) {
  if (env->kind == Envelope::Kind::Signal) return std::unique_ptr<Envelope>(env);
  if (!remaining_.empty()) remaining_.erase(env->wire_id);
  auto owned = wire_.take(env->wire_id);
  if (owned) observe_.paje.link_end(sg4::Engine::get_clock(), owned->wire_id);
  note_wire();
  return owned;
}

void WireService::drop(std::uint64_t wire_id) {
  unheld(wire_id);
  if (!remaining_.empty()) remaining_.erase(wire_id);
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
      [this, now](std::uint64_t id) {
        unheld(id);
        if (!remaining_.empty()) remaining_.erase(id);
        observe_.paje.link_end(now, id);
      });
  note_wire();
}

} // namespace ckptsim
