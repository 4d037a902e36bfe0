/* The application model. A Workload is the stateless logic of an application kind; everything a
 * process knows lives in its AppState, a value that a checkpoint copies and a rollback restores.
 * The node runtime drives it: advance() runs the zero-time actions (sends) until the process
 * needs to compute, computation is simulated time, and deliveries come through deliver(). The
 * application never touches the network: the protocol agent stands between. */
#pragma once

#include "sim/app/rng.hpp"
#include "sim/config/application.hpp"
#include "sim/net/envelope.hpp"
#include "sim/platform/layout.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ckptsim {

class DataflowApplication;

/** @brief What every application state holds; kinds extend it. */
class AppState {
 public:
  virtual ~AppState() = default;
  virtual std::unique_ptr<AppState> clone() const = 0;

  double work_done = 0;       // computation completed (seconds at 1 Gf), including the current step's progress
  double step_remaining = 0;  // work left in the current computation step (0: between steps)
  std::uint64_t next_seq = 0; // number of the next message this process sends
  std::uint64_t delivered = 0;
  bool finished = false;
  // The number of the last program-order point announced to the protocol (Workload::next_point):
  // part of the state, so a process restored at a point does not announce it twice.
  std::uint64_t points_announced = 0;
  // Rendezvous kinds (Workload::rendezvous): messages produced but not sent yet, because their
  // receiver has not posted the receive that takes them (in production order). Part of the state:
  // from the protocol's point of view they are not sent, so a checkpoint keeps them to send.
  std::vector<AppMessage> held;
  // Rendezvous kinds: messages produced so far per destination (AppMessage::chan).
  std::map<NodeId, std::uint64_t> produced;
  // Sends the process may wait for (AppMessage::awaited) whose transfer has not ended yet (held
  // or under way); the workload adds them when it produces them. A restore keeps only the held
  // ones: the restored process counts the others as ended (their transfer belongs to a past that
  // the protocol's recovery accounts for), and the node forgets the ends of the transfers then
  // under way (Outbox::forget_awaited: an old end must not complete a send held again).
  std::vector<std::uint64_t> unfinished;
  Rng rng;
};

/** @brief A program-order point of an application (a collective operation, an iteration
 *  boundary) where a protocol may act without any coordination message: every process knows
 *  where the points are. Numbers strictly increase along a process' execution. */
struct AppPoint {
  std::string kind; // "iteration", "bcast", ...
  std::uint64_t number = 0;
};

/** @brief A copyable owner of an AppState (copies clone it). */
class AppStateValue {
 public:
  AppStateValue() = default;
  explicit AppStateValue(std::unique_ptr<AppState> s)
      : s_(std::move(s)) {}
  AppStateValue(const AppStateValue& o)
      : s_(o.s_ ? o.s_->clone() : nullptr) {}
  AppStateValue& operator=(const AppStateValue& o) {
    s_ = o.s_ ? o.s_->clone() : nullptr;
    return *this;
  }
  AppStateValue(AppStateValue&&) = default;
  AppStateValue& operator=(AppStateValue&&) = default;
  AppState* operator->() const { return s_.get(); }
  AppState& operator*() const { return *s_; }
  explicit operator bool() const { return s_ != nullptr; }

 private:
  std::unique_ptr<AppState> s_;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual AppStateValue initial_state(NodeId process, std::uint64_t seed) const = 0;
  /** @brief Runs the zero-time actions due now: appends the messages to send to @p sends and
   *  returns the work of the next computation step, or nullopt when there is none: the process
   *  has finished (state.finished) or waits for a message (a data-flow process whose next tasks
   *  need data still on its way; the runtime calls advance again after the next delivery). */
  virtual std::optional<double> advance(AppState& state, NodeId self, std::vector<AppMessage>& sends) const = 0;
  /** @brief The computation step advance() started is over (its work is done): a data-flow
   *  application marks its task executed here, so a state saved between steps never holds a
   *  half-done task. */
  virtual void complete_step(AppState& /*state*/, NodeId /*self*/) const {}
  /** @brief The program-order point the process stands at, between two steps and before its
   *  next advance(), or nullopt (the default: a kind without points). The runtime announces a
   *  point once, when its number exceeds state.points_announced. */
  virtual std::optional<AppPoint> next_point(const AppState& /*state*/, NodeId /*self*/) const { return std::nullopt; }
  /** @brief Whether a transfer starts only once its receiver has posted the receive that takes it
   *  (SMPI's rendezvous semantics; false: as soon as it is sent). The node then holds each
   *  message it produces (AppState::held) until receive_posted() says so. */
  virtual bool rendezvous() const { return false; }
  /** @brief A rendezvous kind's matching: whether the process in state @p receiver has posted
   *  (or already completed) the receive that takes @p msg. Monotone in the receiver's progress. */
  virtual bool receive_posted(const AppState& /*receiver*/, const AppMessage& /*msg*/) const { return true; }
  /** @brief A message is handed to the application. */
  virtual void deliver(AppState& state, const AppMessage& /*msg*/) const { state.delivered++; }
  /** @brief Bytes of a checkpoint of @p state, when they follow from the data the process holds
   *  (data-flow applications); negative: the cluster's checkpoint size of the topology. */
  virtual double state_bytes(const AppState& /*state*/) const { return -1; }
  /** @brief A digest of what a finished process computed (0: the kind has none): equal digests
   *  after failures and without them show the recovery rebuilt the right data. */
  virtual std::uint64_t result_digest(const AppState& /*state*/) const { return 0; }
  /** @brief Failure-free computation time of a process at its node's speed (seconds). */
  virtual double failure_free_work(NodeId process) const = 0;
  /** @brief The application as a data-flow graph (sim/app/dataflow/application.hpp), for the
   *  protocols that re-execute single tasks; nullptr (the default) when its kind has no graph. */
  virtual const DataflowApplication* dataflow() const { return nullptr; }
};

std::unique_ptr<Workload> make_workload(const Application& app, const FederationLayout& layout);

/** @brief A content fingerprint of a message (destination, size, a draw of the application). */
std::uint64_t message_digest(const AppMessage& m, std::uint64_t draw);

} // namespace ckptsim
