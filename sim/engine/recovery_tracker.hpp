/* The recoveries of a run: one record per failure, from its strike until every node is done with
 * it, and the rules that say when a recovery moves on. The Run tells the tracker what happens
 * (a strike, a detection and the notices it sends, a node that processed a notice, a restart, a
 * node's report) and acts on what the tracker decides: when the "node back" signal of a failure
 * goes out, when its recovery is over. No SimGrid here: dates are passed in, so the decisions are
 * tested on scripted sequences (tests/unit/test_recovery_tracker.cpp). */
#pragma once

#include "sim/net/ids.hpp"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace ckptsim {

/** @brief The recovery of one failure: one event, which may strike one node or many at once (a
 *  rack, a cluster), all recovered together. */
struct Recovery {
  std::vector<NodeId> victims{};  // in increasing order
  double date = 0;                // when the failure struck
  std::set<NodeId> down{};        // victims whose restart is not complete yet
  bool detected = false;          // the failure detector told the other endpoints
  bool back_sent = false;         // the "node back" signal went out
  std::set<NodeId> notices{};     // endpoints still to process the failure notice
  std::set<NodeId> to_report{};   // nodes still to report their part of the recovery (nodes_report)
  std::set<NodeId> rolled_back{}; // nodes that restored a state while it was open (the victim included)
  bool done = false;
  /** @brief Every victim runs again (its restart is complete). */
  bool restarted() const { return down.empty(); }
  bool struck(NodeId n) const;
};

/** @brief What the protocol says a recovery waits for (ProtocolModule). */
struct RecoveryRules {
  bool nodes_report = false;     // nodes_report_recovery: every computing node reports its part
  bool needs_quiescence = false; // recovery_needs_quiescence: no control message on the wire, no agent recovering
};

/** @brief Whether the "node back" signal of @p rec goes out now: once every victim runs again
 *  (@p victims_up) and every endpoint processed the failure notice, so that a node always hears
 *  of a failure before its end. Sent once. */
bool node_back_due(const Recovery& rec, bool victims_up);
/** @brief Whether @p rec is over now: the node is back, every report is in and, when the rules
 *  ask for it, the run is @p quiescent. */
bool recovery_over(const Recovery& rec, const RecoveryRules& rules, bool quiescent);

class RecoveryTracker {
 public:
  void set_rules(RecoveryRules rules) { rules_ = rules; }
  const RecoveryRules& rules() const { return rules_; }

  /** @brief The id the next failure gets (1, 2, ... in the order they strike). */
  FailureId next_id() const { return next_; }
  /** @brief Failures struck so far. */
  FailureId struck() const { return next_ - 1; }
  /** @brief Recoveries not over. */
  int open() const { return open_; }
  /** @brief The newest failure detected so far (0: none). */
  FailureId latest_detected() const { return latest_detected_; }
  const Recovery& at(FailureId id) const { return recoveries_.at(id); }
  /** @brief Every recovery of the run, by failure id, over or not. */
  auto begin() const { return recoveries_.begin(); }
  auto end() const { return recoveries_.end(); }
  /** @brief The recoveries not over, in failure order. */
  std::vector<FailureId> open_ids() const;
  /** @brief The first recovery not over after @p id, in failure order: a walk over the open
   *  recoveries that also meets those opened while it goes (acting on one may let other actors run). */
  std::optional<FailureId> open_after(FailureId id) const;
  /** @brief Some failure has struck and is not detected yet: the engine itself has work pending. */
  bool awaiting_detection() const;

  /** @brief A failure strikes @p victims (one or many, increasing order) at @p date: opens
   *  recovery next_id(), which it returns. @p reporters: the computing nodes up now, whose
   *  reports it waits for (nodes_report), with the victims'. A victim will not process the
   *  notices of the other recoveries, nor report for them: its restart does. */
  FailureId strike(const std::vector<NodeId>& victims, double date, const std::vector<NodeId>& reporters);
  /** @brief The failure is detected: its notices go out (notice_sent), one by one. */
  void detect(FailureId id);
  /** @brief Endpoint @p e is sent the notice of @p id: the recovery waits until it processed it. */
  void notice_sent(FailureId id, NodeId e) { recoveries_.at(id).notices.insert(e); }
  /** @brief The victim of @p id restarts: it reports for the later failures not over, for which it
   *  rolls back too once running (nodes_report). */
  void restarting(FailureId id, NodeId victim);
  /** @brief The other detected failures whose victim is not back yet (a restarted node's notice). */
  std::vector<FailureId> not_back(FailureId except) const;
  /** @brief @p node processed the notice of @p id. False when there is no such recovery. */
  bool notice_processed(FailureId id, NodeId node);
  /** @brief @p node runs again after failure @p id: that settles its part of @p id and of its
   *  earlier failures whose restart a new one cut. Returns the recoveries it touched. */
  std::vector<FailureId> restart_complete(FailureId id, NodeId node);
  /** @brief @p node did its part of every recovery up to @p up_to. Returns those it reported to. */
  std::vector<FailureId> node_recovered(FailureId up_to, NodeId node);
  /** @brief @p node restored a state: counted in every recovery not over. */
  void node_rolled_back(NodeId node);

  /** @brief Marks and returns whether the "node back" signal of @p id goes out now (node_back_due). */
  bool send_back_now(FailureId id, bool victims_up);
  /** @brief Marks and returns whether recovery @p id ends now (recovery_over); open() counts it out. */
  bool end_now(FailureId id, bool quiescent);

 private:
  RecoveryRules rules_;
  std::map<FailureId, Recovery> recoveries_;
  FailureId next_ = 1;
  FailureId latest_detected_ = 0;
  int open_ = 0;
  int undetected_ = 0; // struck, not detected, not over (awaiting_detection)
};

} // namespace ckptsim
