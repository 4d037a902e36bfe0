/* The participant side of a cluster-level checkpoint, on every node of the cluster, the leader
 * included (leader.hpp says how a CLC goes): it stops the application on the request, tells the
 * leader what it sent in its cluster, saves once it has received what its peers sent it, and
 * makes the CLC the cluster's state on the commit. */
#pragma once

#include "protocols/hc3i/app_gate.hpp"
#include "protocols/hc3i/dependencies.hpp"
#include "protocols/hc3i/log.hpp"
#include "protocols/hc3i/membership.hpp"

#include <optional>
#include <string>

namespace ckptsim::hc3i {

class ClcLeader;
class Mailbox;

class ClcParticipant {
 public:
  ClcParticipant(const Membership& place, Dependencies& deps, InterClusterLog& log, Mailbox& mailbox, ClcLeader& leader,
                 AppGate& gate)
      : place_(place)
      , deps_(deps)
      , log_(log)
      , mailbox_(mailbox)
      , leader_(leader)
      , gate_(gate) {}

  /** @brief This node is in a CLC: from the request to the commit or the abort. */
  bool active() const { return clc_.active; }
  /** @brief The number of the CLC under way (the SN it creates). */
  Sn number() const { return clc_.number; }
  bool saved() const { return clc_.saved; }
  /** @brief The CLC under way ("" when none). */
  std::string pending() const;

  /** @brief CLC_REQ: joins the CLC (the application stops) and answers CLC_READY with the
   *  messages it sent to each peer; ignores a request of an undone execution. */
  void on_req(NodeContext& ctx, const Body& b);
  /** @brief CLC_SAVE: the messages each peer sent it before the CLC. */
  void on_save(NodeContext& ctx, const Body& b);
  /** @brief Saves the checkpoint once every message CLC_SAVE named is delivered. */
  void check_drained(NodeContext& ctx);
  /** @brief The checkpoint is saved: CLC_ACK. */
  void on_saved(NodeContext& ctx, std::uint64_t number);
  /** @brief CLC_COMMIT: the CLC is the cluster's state; the application resumes and the
   *  inter-cluster messages held meanwhile are examined. */
  void on_commit(NodeContext& ctx, const Body& b);
  /** @brief Leaves the CLC under way. With @p keep_saved, a checkpoint saved and acknowledged is
   *  returned in doubt (the leader may have committed it before a failure notice reached it);
   *  otherwise a checkpoint saved is discarded. */
  std::optional<StoredClc> abort(NodeContext& ctx, bool keep_saved);

 private:
  const Membership& place_;
  Dependencies& deps_;
  InterClusterLog& log_;
  Mailbox& mailbox_;
  ClcLeader& leader_;
  AppGate& gate_;
  // The CLC under way (all zero when none).
  /** @brief @p b (SAVE, COMMIT) is for this CLC, not for an aborted one of the same number. */
  bool of_clc(const Body& b) const;
  struct Clc {
    bool active = false;
    Sn number = 0;
    std::uint64_t epoch = 0; // the request's: a round of an undone execution may have the same number
    SharedDdv ddv;           // the request's, shared by the cluster
    bool drained = false;    // SAVE received and every expected message delivered
    bool saved = false;
    PeerMap<std::uint64_t> expected; // per peer, the messages it sent before the CLC
    bool have_expected = false;
  } clc_;
};

} // namespace ckptsim::hc3i
