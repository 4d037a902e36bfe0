/* The recovery manager of independent checkpointing: a non-computing service on the controller
 * host. It keeps the metadata of every committed checkpoint (CKPT_RECORD: the unit's D and its
 * channels' next expected indices; this models what each unit writes to stable storage next to
 * its checkpoint). On a failure it stops the world (RECOVER_REQ), collects every node's state
 * (STATE), computes the recovery line (line.hpp), starting from every unit the failure struck,
 * and sends each node its order (ROLLBACK); each restarted victim gets its order when it says
 * RESTARTED. Every gc_period it computes the
 * garbage-collection line from the records alone and tells every node which checkpoints and
 * log entries can go (GC). */
#pragma once

#include "protocols/common/period_timer.hpp"
#include "protocols/independent/messages.hpp"
#include "protocols/independent/units.hpp"
#include "sim/protocol/protocol.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace ckptsim::independent {

class RecoveryManager : public Agent {
 public:
  explicit RecoveryManager(const Units& units)
      : units_(units) {}
  void on_start(NodeContext& ctx) override;
  void on_restart(NodeContext&, const FailureNotice&) override {} // the controller never fails
  void on_control(NodeContext& ctx, NodeId from, const ControlMessage& msg) override;
  void on_timer(NodeContext& ctx, int id) override;
  void on_failure_detected(NodeContext& ctx, const FailureNotice& notice) override;
  void on_node_back(NodeContext& ctx, const FailureNotice& notice) override;
  bool idle() const override { return !active_; }

 private:
  struct Record {
    Deps deps;
    ChannelPairs pairs;
    double bytes = 0;
  };
  struct NodeState {
    Deps deps;
    Channels expected;
  };

  void on_record(NodeContext& ctx, const Body& b);
  void on_state(NodeContext& ctx, NodeId from, const Body& b);
  void on_restarted(NodeContext& ctx, NodeId from, const Body& b);
  void start(NodeContext& ctx, FailureId id, std::vector<NodeId> victims);
  bool victim(NodeId n) const { return std::binary_search(victims_.begin(), victims_.end(), n); }
  void compute(NodeContext& ctx);
  void send_order(NodeContext& ctx, NodeId node);
  std::uint64_t expected_at(const Line& line, NodeId receiver, NodeId sender) const;
  std::vector<UnitView> views() const;
  void run_gc(NodeContext& ctx);
  void record_storage(NodeContext& ctx) const;
  std::size_t stored() const;

  const Units& units_;
  std::vector<std::map<std::int64_t, Record>> records_; // per unit: committed checkpoints kept
  std::vector<std::int64_t> max_number_;                // per unit: highest number ever recorded
  std::vector<std::uint64_t> epochs_;
  History history_;
  bool gc_due_ = false;

  // The recovery under way.
  bool active_ = false; // from the failure until its victims are back
  FailureId failure_ = 0;
  std::vector<NodeId> victims_; // increasing order
  std::map<NodeId, NodeState> states_;
  bool computed_ = false;
  std::set<NodeId> restarted_; // victims that said RESTARTED
  Line line_;
};

} // namespace ckptsim::independent
