/* What a node's actor may ask of the engine, as a few narrow interfaces (ports) the engine hands
 * to every node (NodeEnv). A node never sees the Run: it gets the run's inputs, the wire, the
 * stable storage, the bookkeeping of its process' life and recoveries, the rendezvous board and
 * the observers, each behind its own interface, so that sim/node depends on sim/engine in no
 * way (the engine creates the nodes, not the other way round) and each part of the engine can be
 * replaced by a fake in a test. */
#pragma once

#include "sim/config/timers.hpp"
#include "sim/config/topology.hpp"
#include "sim/net/comm_proxies.hpp"
#include "sim/net/envelope.hpp"
#include "sim/observe/oracle.hpp"
#include "sim/observe/stats.hpp"
#include "sim/observe/trace.hpp"
#include "sim/protocol/protocol.hpp"
#include "sim/storage/checkpoint_store.hpp"
#include "sim/storage/model.hpp"
#include "sim/storage/placement.hpp"

#include <simgrid/s4u.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim {

namespace sg4 = simgrid::s4u;
class NodeRuntime;

/** @brief The run's inputs, read-only: what a node reads to build and drive its process. */
struct NodeInputs {
  const FederationLayout& layout;
  const Topology& topology; // checkpoint sizes, the restart overhead
  const Timers& timers;
  const Workload& workload;
  const ProtocolModule& protocol; // makes the node's agent
  std::uint64_t seed = 0;
  bool deterministic = true; // the application's: a re-execution draws the same numbers
};

/** @brief The wire: envelopes in transit, mailboxes and the directory of incarnations. */
/** @brief What became of an envelope put on the wire: its transfer started (the comm), it waits
 *  on the wire for a route (a link is down), or it is lost (its receiver is down). */
struct Posted {
  enum class How { Started, Held, Lost } how = How::Lost;
  std::uint64_t wire = 0; // its id on the wire (Started, Held)
  sg4::CommPtr comm;      // Started
};

class WirePort {
 public:
  virtual ~WirePort() = default;
  /** @brief Puts an envelope on the wire to the current incarnation of its destination: its
   *  transfer starts, or it waits for a route (a link is down), or it is lost (the destination is
   *  down, as in a real crash); @p via receives the proxy the comm was started through (see
   *  CommProxies). */
  virtual Posted post(std::unique_ptr<Envelope> env, CommProxies::ProxyPtr& via) = 0;
  /** @brief Starts again the transfer of envelope @p wire_id, held for want of a route or cut by a
   *  link failure: Started, Held (its route is still down) or Lost (off the wire meanwhile: its
   *  receiver failed). */
  virtual Posted repost(std::uint64_t wire_id, CommProxies::ProxyPtr& via) = 0;
  /** @brief The transfer of envelope @p wire_id failed: true when a link failure cut it (both
   *  ends still run): the envelope stays on the wire, to send again once a route is up (channels
   *  are reliable, docs/MODEL.md "Network faults"); false when it is lost with its receiver
   *  (dropped). */
  virtual bool cut(std::uint64_t wire_id) = 0;
  /** @brief Whether every link between @p from and @p to is up now. */
  virtual bool route_up(const sg4::Host* from, const sg4::Host* to) const = 0;
  /** @brief @p endpoint holds transfers for want of a route: it gets a Network signal when a link
   *  comes back. */
  virtual void wait_for_route(NodeId endpoint) = 0;
  /** @brief How many times a link went down so far: a sender looks for transfers cut when it moved. */
  virtual std::uint64_t link_cuts() const = 0;
  /** @brief The receiver takes ownership of an envelope it got from the wire; null when the
   *  envelope was lost with its failed sender at the very date its transfer ended. */
  virtual std::unique_ptr<Envelope> take(Envelope* env) = 0;
  /** @brief The sender saw its comm fail. */
  virtual void drop(std::uint64_t wire_id) = 0;
  virtual sg4::Mailbox* mailbox(NodeId endpoint, Incarnation inc) const = 0;
  /** @brief A node's mailbox for wake-ups, apart from its messages (rendezvous kinds). */
  virtual sg4::Mailbox* bell(NodeId endpoint, Incarnation inc) const = 0;
  virtual Incarnation incarnation(NodeId endpoint) const = 0;
  /** @brief Incarnation @p inc of @p endpoint still runs (a node struck between two SimGrid calls
   *  is killed at its next one; until then nothing it does may reach the run). */
  virtual bool alive(NodeId endpoint, Incarnation inc) const = 0;
  virtual sg4::Host* host_of(NodeId endpoint) const = 0;
  virtual CommProxies& proxies() = 0;
  /** @brief Counts one wake-up of a node's loop (the results' events). */
  virtual std::uint64_t next_event_count() = 0;
  // The FIFO channels (sim/net/channels.hpp): both ends in one table, which forgets quiet ones.
  /** @brief The number of the next envelope from (@p src, @p src_inc) to (@p dst, @p dst_inc). */
  virtual std::uint64_t channel_next(NodeId src, Incarnation src_inc, NodeId dst, Incarnation dst_inc) = 0;
  /** @brief Incarnation @p dst_inc of @p dst accepts @p env: those now deliverable, in order. */
  virtual std::vector<std::unique_ptr<Envelope>> channel_accept(NodeId dst, Incarnation dst_inc,
                                                                std::unique_ptr<Envelope> env) = 0;
  /** @brief ... drops what it holds buffered from @p src (which failed). */
  virtual void channel_forget(NodeId dst, Incarnation dst_inc, NodeId src) = 0;
};

/** @brief Stable storage: the checkpoint store and where the copies of a checkpoint go. */
class StoragePort {
 public:
  virtual ~StoragePort() = default;
  virtual CheckpointStore& store() = 0;
  virtual std::vector<Holder> remote_holders(NodeId node, std::uint64_t number) const = 0;
  virtual sg4::Host* holder_host(Holder h) const = 0;
  virtual std::string holder_name(Holder h) const = 0;
  virtual bool holder_up(Holder h) const = 0;
  /** @brief No copy of checkpoint @p number of @p node survives: the run ends, and says so. */
  virtual void unrecoverable(NodeId node, std::uint64_t number) = 0;
  /** @brief Whether the protocol restores the newest line it can (StorageUse::NewestLine): a load
   *  whose last copy a later failure destroyed is then dropped, the failure's recovery choosing
   *  again, instead of ending the run. */
  virtual bool replans_lines() const = 0;
  /** @brief Whether @p node's storage model writes checkpoints in steps (levels): then save_plan
   *  and load_plan say how. */
  virtual bool multi_level(NodeId node) const = 0;
  virtual SavePlan save_plan(NodeId node, std::uint64_t number, double bytes) const = 0;
  /** @brief How @p node reads checkpoint @p number back; nullopt when nothing holds it. */
  virtual std::optional<LoadPlan> load_plan(NodeId node, std::uint64_t number) const = 0;
  /** @brief NodeContext::recovery_line, asked by endpoint @p asker. */
  virtual std::optional<std::uint64_t> recovery_line(NodeId asker, const std::vector<std::uint64_t>& numbers) = 0;
  /** @brief A transfer restoring a lost checkpoint copy started / ended: part of the recovery. */
  virtual void replica_started() = 0;
  virtual void replica_finished() = 0;
};

/** @brief What a node tells the engine about its process: its state, progress and part in the
 *  recoveries, which decide when recoveries and the run end. */
class LifecyclePort {
 public:
  virtual ~LifecyclePort() = default;
  virtual void register_runtime(NodeId endpoint, NodeRuntime* rt) = 0;
  virtual void unregister_runtime(NodeId endpoint, NodeRuntime* rt) = 0;
  /** @brief What endpoint @p e's process does now ("computing", "waiting", "blocked",
   *  "recovering", "down", "finished": a static string): traced when it changes. */
  virtual void set_state(NodeId e, const char* state) = 0;
  /** @brief A node's quiet status changed (application finished or service, protocol idle). */
  virtual void set_quiet(NodeId endpoint, bool quiet) = 0;
  /** @brief A node's application started or stopped computing (the watchdog's progress). */
  virtual void set_computing(NodeId node, bool computing) = 0;
  /** @brief A node's application finished (or was rolled back from finished). */
  virtual void set_app_finished(NodeId node, bool finished) = 0;
  virtual void set_result_digest(NodeId node, std::uint64_t digest) = 0;
  /** @brief @p node's application stands at @p work done and @p delivered messages. */
  virtual void note_progress(NodeId node, double work, std::uint64_t delivered) = 0;
  /** @brief A node's agent started or stopped doing its part of a recovery. */
  virtual void set_recovering(NodeId endpoint, bool recovering) = 0;
  /** @brief Ends the recoveries that only waited for quiescence. */
  virtual void recheck_recoveries() = 0;
  /** @brief Ends the run if every endpoint is quiet and nothing is on the wire or recovering. */
  virtual bool try_terminate() = 0;
  virtual bool over() const = 0;
  // The recoveries (sim/engine/recovery_tracker.hpp decides when each moves on).
  virtual void notice_processed(FailureId id, NodeId node) = 0;
  virtual void restart_complete(FailureId id, NodeId node) = 0;
  virtual void node_recovered(FailureId up_to, NodeId node) = 0;
  /** @brief @p node restored a state it first reached at @p state_date: counted in every
   *  recovery under way, and the watchdog allows for redoing the work since then. */
  virtual void node_rolled_back(NodeId node, double state_date) = 0;
  /** @brief @p node's agent found that the run cannot recover (NodeContext::unrecoverable). */
  virtual void unrecoverable(NodeId node, const std::string& what) = 0;
};

/** @brief Rendezvous sends (Workload::rendezvous): who has posted which receive. */
class RendezvousPort {
 public:
  virtual ~RendezvousPort() = default;
  /** @brief Whether the receiver of @p msg has posted the receive that takes it. */
  virtual bool receive_posted(const AppMessage& msg) const = 0;
  /** @brief @p holder holds a message for @p receiver until its receive is posted. */
  virtual void await_post(NodeId receiver, NodeId holder) = 0;
  /** @brief @p receiver moved: the holders whose messages it now takes are woken up. */
  virtual void posted_by(NodeId receiver) = 0;
  /** @brief @p holder got its wake-up. */
  virtual void woken(NodeId holder) = 0;
};

/** @brief The observers a node writes to (nothing reads them to decide). */
struct Observers {
  Stats& stats;
  Trace& trace;
  ConsistencyOracle& oracle;
};

/** @brief Everything a node is given by the engine. */
struct NodeEnv {
  NodeInputs inputs;
  WirePort& wire;
  StoragePort& storage;
  LifecyclePort& lifecycle;
  RendezvousPort& rendezvous;
  Observers observe;
};

} // namespace ckptsim
