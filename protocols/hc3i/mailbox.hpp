/* The application messages of an HC3I node. Intra-cluster messages carry the cluster's epoch
 * only (the cluster rolls back as a whole; a message of an undone execution is dropped).
 * Inter-cluster messages carry the sender cluster's SN: a receiver whose DDV entry is smaller
 * asks its leader for a forced CLC and delivers the message after the commit; it acknowledges
 * every delivery with its SN, which the sender keeps with its optimistic log entry. Messages that
 * cannot be delivered yet wait here: inter-cluster ones in the inbox (a CLC or a rollback under
 * way, an alert not heard of yet), intra-cluster ones from a newer epoch of the cluster. */
#pragma once

#include "protocols/hc3i/dependencies.hpp"
#include "protocols/hc3i/log.hpp"
#include "protocols/hc3i/membership.hpp"

#include <deque>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim::hc3i {

class ClcLeader;
class ClcParticipant;
class Recovery;

class Mailbox {
 public:
  Mailbox(const Membership& place, const Dependencies& deps, Options options, InterClusterLog& log,
          ClcParticipant& participant, ClcLeader& leader, const Recovery& recovery)
      : place_(place)
      , deps_(deps)
      , transitive_(options.transitive)
      , log_(log)
      , participant_(participant)
      , leader_(leader)
      , recovery_(recovery) {}

  /** @brief The messages counted per channel (what a CLC saves). */
  const ChannelCounts& counts() const { return counts_; }
  /** @brief Nothing waits for delivery. */
  bool empty() const { return inbox_.empty() && early_intra_.empty(); }
  /** @brief What waits in the inbox ("" when nothing). */
  std::string pending() const;

  /** @brief The application sends @p msg: its piggyback, and a log entry when inter-cluster. */
  void on_app_send(NodeContext& ctx, const AppMessage& msg);
  /** @brief An application message arrives: delivered, held or dropped. */
  void on_app_receive(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  /** @brief Delivers, drops or asks a forced CLC for the inter-cluster messages held, in order,
   *  until one must wait. */
  void process_inbox(NodeContext& ctx);
  /** @brief Examines again the intra-cluster messages of a newer epoch (a rollback applied). */
  void process_early_intra(NodeContext& ctx);
  /** @brief A CLC committed: the forced CLCs asked for are taken. */
  void forget_force_requests() { force_asked_.clear(); }
  /** @brief A failure or a rollback of this cluster: the inter-cluster messages held that were
   *  sent before their sender knew of it (a view of this cluster below @p keep_from_view, the
   *  rollback's new epoch) are dropped (not acknowledged, their senders re-send them on the
   *  alert); the later ones stay. The forced-CLC requests are forgotten. */
  void drop_inbox(std::uint64_t keep_from_view);
  /** @brief The counts as a CLC saves them: the previous saved copy when they have not changed
   *  since (shared, immutable), a new copy otherwise. */
  std::shared_ptr<const ChannelCounts> saved_counts();
  /** @brief A rollback restored counts @p c (a CLC's), or the initial state's (null: none). */
  void restore(std::shared_ptr<const ChannelCounts> c);

 private:
  void deliver_intra(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb);
  /** @brief LOG_ACK to the sender of @p msg, delivered in this cluster's current interval. */
  void acknowledge(NodeContext& ctx, const AppMessage& msg, std::uint64_t sender_epoch) const;

  const Membership& place_;
  const Dependencies& deps_;
  const bool transitive_; // piggyback the whole DDV
  InterClusterLog& log_;
  ClcParticipant& participant_;
  ClcLeader& leader_;
  const Recovery& recovery_;
  ChannelCounts counts_;
  std::shared_ptr<const ChannelCounts> saved_;                 // the last copy saved or restored (saved_counts)
  std::deque<std::pair<AppMessage, PayloadPtr>> inbox_;        // inter-cluster messages not delivered yet
  std::vector<std::pair<AppMessage, PayloadPtr>> early_intra_; // from a newer epoch of this cluster
  std::set<std::pair<int, Sn>> force_asked_;                   // forced CLCs requested since the last commit
};

} // namespace ckptsim::hc3i
