#include "sim/net/comm_proxies.hpp"

#include <simgrid/version.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#if SIMGRID_VERSION_MAJOR != 3 || SIMGRID_VERSION_MINOR != 32
#warning "CommProxies relies on SimGrid 3.32's kernel (see comm_proxies.hpp): check it still helps on this version"
#endif

namespace ckptsim {

namespace {
// s4u::Comm keeps the actor on whose behalf a comm starts in private members, which
// Mailbox::put_init() / get_init() set to the calling actor. An explicit template instantiation
// may name private members ([temp.spec.general]/6); this is the one place that does.
template <typename Tag, typename Tag::type Member>
struct Expose {
  friend typename Tag::type member(Tag) { return Member; }
};
struct CommSender {
  using type = simgrid::kernel::actor::ActorImpl* sg4::Comm::*;
  friend type member(CommSender);
};
struct CommReceiver {
  using type = simgrid::kernel::actor::ActorImpl* sg4::Comm::*;
  friend type member(CommReceiver);
};
template struct Expose<CommSender, &sg4::Comm::sender_>;
template struct Expose<CommReceiver, &sg4::Comm::receiver_>;
} // namespace

using ProxyPtr = CommProxies::ProxyPtr;

struct CommProxies::Proxy {
  NodeId endpoint = -1;
  sg4::ActorPtr actor;
  sg4::SemaphorePtr sem;
  std::size_t started = 0;     // comms started through it
  std::size_t outstanding = 0; // of those, not consumed by the node yet
  bool retired = false;
  bool dead = false; // killed with its host, or released
};

CommProxies::CommProxies(std::function<sg4::Host*(NodeId)> host_of, std::function<bool(NodeId)> up)
    : host_of_(std::move(host_of))
    , up_(std::move(up)) {}

namespace {
// Engine::on_time_advance cannot be disconnected in 3.32: one hook per process, forwarding to the
// proxies of the run under way.
CommProxies* g_active = nullptr;
} // namespace

CommProxies::~CommProxies() {
  if (g_active == this) g_active = nullptr;
}

CommProxies::Mode CommProxies::mode_from_environment() {
  const char* v = std::getenv("CKPTSIM_COMM_PROXIES");
  if (!v || !*v || std::strcmp(v, "auto") == 0) return Mode::Auto;
  if (std::strcmp(v, "off") == 0) return Mode::Off;
  if (std::strcmp(v, "demand") == 0) return Mode::Demand;
  if (std::strcmp(v, "static") == 0) return Mode::Static;
  throw std::invalid_argument(std::string("\"") + v + "\" is none of off, demand, static, auto");
}

void CommProxies::start(int endpoints, Mode mode) {
  if (mode == Mode::Off) return;
  if (mode == Mode::Auto) mode = endpoints >= kStaticFrom && endpoints <= kStaticProxies ? Mode::Static : Mode::Demand;
  enabled_ = true;
  current_.assign(endpoints, nullptr);
  wanted_flag_.assign(endpoints, 0);
  static const bool hooked = [] {
    sg4::Engine::on_time_advance_cb([](double) {
      if (g_active) g_active->maestro_tick();
    });
    return true;
  }();
  (void)hooked;
  g_active = this;
  if (mode == Mode::Static)
    for (NodeId e = 0; e < endpoints; e++) create(e);
}

void CommProxies::create(NodeId e) {
  auto p = std::make_shared<Proxy>();
  p->endpoint = e;
  p->sem = sg4::Semaphore::create(0);
  // Blocks until released; never waits for a comm, so its activity list is never walked.
  p->actor = sg4::Actor::create("comm-proxy", host_of_(e), [sem = p->sem] { sem->acquire(); });
  p->actor->daemonize();
  current_[e] = std::move(p);
  created_++;
}

void CommProxies::release(const ProxyPtr& p) {
  if (p->dead) return;
  p->dead = true;
  p->sem->release(); // the proxy returns, SimGrid frees its activity list and the comms in it
}

void CommProxies::maestro_tick() {
  if (wanted_.empty() && releasable_.empty()) return;
  for (NodeId e : wanted_) {
    wanted_flag_[e] = 0;
    if (!up_(e)) continue;
    if (auto& old = current_[e]) {
      old->retired = true;
      if (old->outstanding == 0)
        releasable_.push_back(old);
      else
        retired_.push_back(old);
    }
    create(e);
  }
  wanted_.clear();
  for (const auto& p : releasable_) release(p);
  releasable_.clear();
}

ProxyPtr CommProxies::take_current(NodeId e) {
  if (!enabled_ || !current_[e]) return nullptr;
  ProxyPtr p = current_[e];
  p->started++;
  p->outstanding++;
  if (p->started == kProxyComms) want(e); // retire it: a fresh proxy takes over at the next tick
  return p;
}

void CommProxies::want(NodeId e) {
  if (wanted_flag_[e]) return;
  wanted_flag_[e] = 1;
  wanted_.push_back(e);
}

sg4::CommPtr CommProxies::put_async(NodeId e, sg4::Mailbox* mb, void* payload, std::uint64_t bytes, ProxyPtr& via) {
  sg4::CommPtr comm = mb->put_init(payload, bytes);
  via = take_current(e);
  if (via) (*comm).*member(CommSender{}) = via->actor->get_impl();
  comm->vetoable_start(); // what Mailbox::put_async does after put_init
  return comm;
}

void CommProxies::put_detached_as(sg4::Actor* actor, sg4::Mailbox* mb, void* payload) {
  sg4::CommPtr comm = mb->put_init(payload, 0);
  (*comm).*member(CommSender{}) = actor->get_impl();
  comm->detach();
}

sg4::CommPtr CommProxies::get_async(NodeId e, sg4::Mailbox* mb, void** buffer, ProxyPtr& via) {
  sg4::CommPtr comm = mb->get_init()->set_dst_data(buffer, sizeof(void*));
  via = take_current(e);
  if (via) (*comm).*member(CommReceiver{}) = via->actor->get_impl();
  comm->vetoable_start(); // what Mailbox::get_async does after get_init
  return comm;
}

void CommProxies::consumed(const ProxyPtr& p) {
  if (!p || p->dead) return;
  if (--p->outstanding == 0 && p->retired) {
    retired_.erase(std::find(retired_.begin(), retired_.end(), p));
    releasable_.push_back(p);
  }
}

void CommProxies::pending_sends(NodeId e, std::size_t pending) {
  if (enabled_ && pending > kProxyDemand && !current_[e]) want(e);
}

void CommProxies::host_failed(NodeId e) {
  // SimGrid killed the host's actors, the proxies among them: forget them.
  if (!enabled_) return;
  if (current_[e]) current_[e]->dead = true;
  current_[e] = nullptr;
  std::erase_if(retired_, [e](const ProxyPtr& p) {
    if (p->endpoint != e) return false;
    p->dead = true;
    return true;
  });
  std::erase_if(releasable_, [e](const ProxyPtr& p) { return p->endpoint == e; });
  if (wanted_flag_[e]) {
    wanted_flag_[e] = 0;
    std::erase(wanted_, e);
  }
}

} // namespace ckptsim
