/* What the run keeps of its network: the envelopes on the wire (the run ends exactly when
 * nothing is left on it), the comm proxies the sends go through, and the rendezvous board of
 * messages held until their receives are posted. The Run acts on them (post, take, drop, purge,
 * wake-ups); nodes reach them through WirePort and RendezvousPort (sim/node/ports.hpp). */
#pragma once

#include "sim/engine/rendezvous.hpp"
#include "sim/engine/wire.hpp"
#include "sim/net/comm_proxies.hpp"

#include <functional>
#include <utility>

namespace ckptsim {

struct Network {
  /** @brief @p host_of and @p up answer for an endpoint (the proxies follow its host and life). */
  Network(std::function<sg4::Host*(NodeId)> host_of, std::function<bool(NodeId)> up)
      : proxies(std::move(host_of), std::move(up)) {}

  WireRegistry wire;
  CommProxies proxies;
  CommProxies::Mode proxy_mode = CommProxies::Mode::Auto;
  RendezvousBoard rendezvous;
};

} // namespace ckptsim
