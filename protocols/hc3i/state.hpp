/* What the parts of an HC3I node (node.hpp) share: the timers, the run's options and shared
 * pool, the inter-cluster log's entries and the state a CLC saves. */
#pragma once

#include "protocols/common/peer_map.hpp"
#include "protocols/common/period_timer.hpp"
#include "protocols/common/shared_copy.hpp"
#include "protocols/hc3i/ddv.hpp"
#include "sim/protocol/index_set.hpp"
#include "sim/protocol/protocol.hpp"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ckptsim::hc3i {

// The node's timers (NodeContext::set_timer ids).
constexpr PeriodTimer kClcTimer{1, "checkpoint_period"}; // unforced CLCs (leader)
constexpr PeriodTimer kGcTimer{2, "gc_period"};          // garbage collection (leader of cluster 0)
constexpr int kRestartTimer = 3;                         // restart overhead of a restarted node

struct Options {
  bool transitive = false; // piggyback the whole DDV (report section 7)
};

/** @brief What the nodes of a run share besides the layout. */
struct Shared {
  DdvPool ddvs; // the DDVs stored with CLCs and checkpoints, one copy per distinct value
};

/** @brief Per cluster, the rollbacks a node knows of: (epoch after it, SN it restored). */
using Rollbacks = std::vector<std::vector<std::pair<std::uint64_t, Sn>>>;

/** @brief A message this node sent to another cluster, kept in volatile memory. */
struct LogEntry {
  AppMessage msg;
  Sn sn = 0;               // the SN it carried (the sender cluster's interval it depends on)
  std::uint64_t epoch = 0; // the sender cluster's epoch at the send
  int dst_cluster = -1;
  std::optional<Sn> ack;        // the receiver cluster's SN of its delivery, once acknowledged
  Ddv ddv;                      // transitive variant: the DDV it carried
  std::uint64_t ack_epoch = 0;  // the receiver cluster's epoch at the acknowledgement
  std::uint64_t sent_epoch = 0; // the epoch the last copy sent carried (what an acknowledgement names)
  std::uint64_t idx = 0;        // its index on the channel to msg.dst (Piggyback::idx)
  bool operator==(const LogEntry&) const = default;
};
using Log = std::vector<LogEntry>;

/** @brief The application messages counted per channel: what the drain round of a CLC and the
 *  detection of re-sent messages read. Per peer, in flat maps (sorted vectors): a CLC copies
 *  them into its checkpoint, one block each instead of a tree node per peer met. */
struct ChannelCounts {
  PeerMap<std::uint64_t> sent;       // intra-cluster messages sent, per peer
  PeerMap<std::uint64_t> received;   // intra-cluster messages delivered, per peer
  PeerMap<std::uint64_t> inter_sent; // inter-cluster messages sent, per peer: the next channel index
  PeerMap<IndexSet> inter_delivered; // inter-cluster channel indices delivered, per sender
  bool operator==(const ChannelCounts&) const = default;
};

/** @brief What a CLC saves besides the application state, and a rollback restores. */
struct SavedState {
  Sn sn = 0;
  SharedDdv ddv; // every node of the cluster holds the same: shared (DdvPool)
  // Shared with the node's previous checkpoint when no count changed since (shared_copy): a copy
  // per checkpoint was ~2.5 KB after a simulated day of hc3i-100x1000 (tests/bench).
  std::shared_ptr<const ChannelCounts> channels;
  // Restored only by a node that lost its memory. Shared with the node's previous checkpoint
  // when the log has not changed since (most CLCs of a storm of forced ones).
  std::shared_ptr<const Log> log;
};

} // namespace ckptsim::hc3i
