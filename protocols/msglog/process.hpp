/* A computing process under msglog (SPEC 3.6): independent checkpoints, sender-based payload
 * logging, determinants sent to the event logger (pessimistic: sends held until the
 * determinants they depend on are stable; causal: unstable determinants piggybacked instead),
 * and the recovery of a failed process by replay (optimistic: determinants logged asynchronously,
 * orphans rolled back by cascading notices). Split by concern: process.cpp (dispatch, checkpoints,
 * log garbage collection), process_app.cpp (sends, receives, determinants), process_recovery.cpp
 * (restart, replay, answering a restarted peer), process_orphan.cpp (optimistic: notices, orphan
 * rollbacks). */
#pragma once

#include "protocols/common/reorder_buffer.hpp"
#include "protocols/common/restart_delay.hpp"
#include "protocols/msglog/messages.hpp"
#include "protocols/msglog/state.hpp"
#include "sim/protocol/protocol.hpp"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace ckptsim::msglog {

enum class Variant { Pessimistic, Causal, Optimistic };

struct Options {
  Variant variant = Variant::Pessimistic;
  std::size_t keep = 3; // optimistic: checkpoints kept per process (the initial state counts as one)
};

/** @brief optimistic: epochs of one incarnation (each orphan rollback starts a new one). */
constexpr std::uint64_t kEpochStride = std::uint64_t{1} << 20;
/** @brief optimistic: the epoch of a delivery record whose sender is not known (never an orphan). */
constexpr std::uint64_t kUnknownEpoch = ~std::uint64_t{0};

// Timer ids.
constexpr int kCkptTimer = 1;
constexpr int kRestartTimer = 2;

class Process : public Agent {
 public:
  Process(const FederationLayout& layout, NodeId self, Options options);

  void on_start(NodeContext& ctx) override;
  void on_restart(NodeContext& ctx, const FailureNotice& own) override;
  void on_app_send(NodeContext& ctx, const AppMessage& msg) override;
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) override;
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override;
  void on_saved(NodeContext& ctx, std::uint64_t number) override;
  void on_loaded(NodeContext& ctx, std::uint64_t number, const Snapshot& s) override;
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override;
  void on_app_finished(NodeContext& ctx) override;
  bool idle() const override;
  bool recovering() const override { return optimistic() && (failure_ != 0 || !restored_); }

 private:
  // ---- process.cpp: checkpoints and log garbage collection ----
  void arm_ckpt_timer(NodeContext& ctx);
  void take_checkpoint(NodeContext& ctx);
  void on_ckpt_ack(NodeContext& ctx, const Body& b);
  void on_log_gc(NodeContext& ctx, NodeId from, const Body& b);
  void recount_log();
  void account_log(NodeContext& ctx);
  bool causal() const { return options_.variant == Variant::Causal; }
  bool optimistic() const { return options_.variant == Variant::Optimistic; }
  void keep_checkpoint(NodeContext& ctx, std::uint64_t number, std::uint64_t rsn, Snapshot s);

  // ---- process_app.cpp: application messages and determinants ----
  /** @brief Puts a message on the wire; @p rsn: the deliveries it depends on. */
  void send_now(NodeContext& ctx, const AppMessage& msg, std::uint64_t rsn);
  std::shared_ptr<Piggyback> piggyback(std::uint64_t idx, std::uint64_t rsn, NodeId dst) const;
  void release_held(NodeContext& ctx);
  /** @brief Files an arrived message (drops duplicates and stale ones), then delivers what may be. */
  void accept(NodeContext& ctx, const AppMessage& msg, const std::shared_ptr<const Piggyback>& pb);
  void try_deliver(NodeContext& ctx);
  void deliver(NodeContext& ctx, const AppMessage& msg, const std::shared_ptr<const Piggyback>& pb, bool replayed);
  void flush_dets(NodeContext& ctx);
  void on_det_ack(NodeContext& ctx, const Body& b);
  void learn_stable(NodeId owner, std::uint64_t stable);
  void account_dets(NodeContext& ctx);

  // ---- process_recovery.cpp ----
  void on_replay(NodeContext& ctx, const Body& b);
  void restore_from(NodeContext& ctx, const Snapshot& s, std::uint64_t number);
  void on_resend_req(NodeContext& ctx, NodeId from, const Body& b);
  void on_catchup(NodeContext& ctx, NodeId from, const Body& b);
  void maybe_start_replay(NodeContext& ctx);
  void check_recovered(NodeContext& ctx);

  // ---- process_orphan.cpp (optimistic): rollback notices, orphan rollbacks ----
  /** @brief A process announces the rollback of @p who to @p target in epoch @p epoch. */
  void on_notice(NodeContext& ctx, NodeId who, const Body& b);
  void send_notices(NodeContext& ctx, std::uint64_t target, std::uint64_t number, std::uint64_t ckpt_rsn);
  /** @brief Whether a message of @p w in @p epoch sent at @p rsn belongs to an undone interval. */
  bool undone(NodeId w, std::uint64_t epoch, std::uint64_t rsn) const;
  void orphan_rollback(NodeContext& ctx, NodeId cause, FailureId failure, std::uint64_t target);
  void start_round(NodeContext& ctx);
  /** @brief Asks every peer to re-send its logged messages from this process' next expected index. */
  void request_resends(NodeContext& ctx);

  const FederationLayout& layout_;
  const NodeId self_;
  const int nodes_;
  const NodeId logger_; // the event logger service: endpoint N
  const Options options_;

  State st_;
  double log_entries_ = 0; // in st_.log
  double log_bytes_ = 0;
  std::uint64_t epoch_ = 0;                     // this incarnation
  std::map<NodeId, std::uint64_t> known_epoch_; // newest incarnation of each sender heard of

  struct Arrived {
    AppMessage msg;
    std::shared_ptr<const Piggyback> pb;
  };
  using Arrivals = ReorderBuffer<Arrived>;
  Arrivals buffer_;                     // before their turn on their channel
  std::vector<Arrived> before_restore_; // arrived while the state is not restored

  // Determinants of own deliveries on their way to the logger.
  std::vector<Det> pending_dets_; // not sent yet (a DET message is outstanding)
  bool det_outstanding_ = false;
  std::uint64_t stable_ = 0; // own determinants acknowledged up to this rsn
  // causal: own determinants not known stable, and the copies of other processes' determinants
  std::map<std::uint64_t, Det> own_unstable_;
  std::map<NodeId, std::map<std::uint64_t, Det>> others_;
  std::map<NodeId, std::uint64_t> known_stable_; // per owner, from its piggybacks

  // Checkpoints.
  double period_ = 0;
  double next_ckpt_ = 0;     // date of the next checkpoint timer
  std::uint64_t kept_ = 0;   // the checkpoint the logger knows (0: none, the initial state)
  std::uint64_t saving_ = 0; // being saved or committed (0: none)
  std::uint64_t saving_rsn_ = 0;
  bool saving_saved_ = false; // every copy written, CKPT_DONE sent
  std::map<NodeId, IndexSet> saving_delivered_;
  std::map<NodeId, IndexSet> gc_sent_; // last LOG_GC set sent to each sender

  // Recovery of this process (after its own failure).
  FailureId failure_ = 0; // being recovered (0: none)
  bool app_done_ = false; // on_app_finished came (after the last step's sends)
  double failure_date_ = 0;
  bool restored_ = true;                      // false from the restart until the checkpoint is restored
  RestartDelay restart_delay_{kRestartTimer}; // from the restart until the restart overhead is paid
  bool have_replay_ = false;                  // the logger's answer is in
  std::vector<Det> logger_dets_;
  std::uint64_t logger_stable_ = 0;
  std::map<NodeId, IndexSet> catchup_; // per peer: what it delivered from this process
  std::vector<Det> peer_dets_;         // causal: copies returned with CATCHUP
  std::uint64_t peers_resent_ = 0;
  bool replay_started_ = false;
  std::deque<Det> replay_; // determinants still to replay
  std::uint64_t replayed_ = 0;

  // optimistic
  struct Dep {
    NodeId src = -1;
    std::uint64_t epoch = kUnknownEpoch; // the sender's epoch and rsn the delivered message carried
    std::uint64_t rsn = 0;
  };
  struct Kept {
    std::uint64_t number = 0; // 0: the initial state
    std::uint64_t rsn = 0;
    Snapshot snap;
  };
  struct Notice {
    NodeId who = -1;
    std::uint64_t epoch = 0;
    std::uint64_t target = 0;
  };
  bool victim_ = false;                  // failure_ is this process' own failure
  std::deque<Kept> kept_snaps_;          // committed checkpoints in memory, oldest first
  Snapshot saving_snap_;                 // the one being saved
  std::set<std::uint64_t> abandoned_;    // checkpoints an orphan rollback undid while saving
  std::uint64_t max_number_ = 0;         // checkpoint numbers are never reused
  std::map<std::uint64_t, Det> history_; // own deliveries since the oldest kept checkpoint
  std::map<std::uint64_t, Dep> deps_;    // and what each depended on (also for replay_)
  std::vector<Notice> notices_;          // every rollback announced (filters undone messages)
  std::set<std::pair<NodeId, std::uint64_t>> notices_seen_;
  std::vector<std::pair<NodeId, std::shared_ptr<const Body>>> early_notices_; // before the restore
  std::vector<std::pair<NodeId, std::shared_ptr<const Body>>> early_resend_;  // RESEND_REQs, idem
  std::map<NodeId, IndexSet> caps_; // this round: peers' deliveries from this process after their rollbacks
};

} // namespace ckptsim::msglog
