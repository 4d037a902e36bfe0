/* The parts of one HC3I node wired as hc3i::Node wires them (protocols/hc3i/node.hpp), for the
 * unit tests of each part (test_hc3i_*.cpp): the test calls a part directly on a fake node and
 * reads what the node was asked to do and what the parts now hold. The federation only lends its
 * layout and its fake nodes (sharing one Stats); its own agents are never started. */
#pragma once

#include "protocols/hc3i/messages.hpp"
#include "protocols/hc3i/node.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <memory>
#include <string>

namespace ckptsim::hc3i_test {

/** @p clusters clusters of @p nodes nodes each (each cluster led by its first node). */
inline Topology federation(int clusters, int nodes) { return test_support::clusters_of(clusters, nodes); }

/** @brief Node @p self's parts. The application gate holds the application as Node does and
 *  counts its calls. */
struct Parts : hc3i::AppGate {
  Parts(const FederationLayout& layout, NodeId self, hc3i::Options options = {})
      : place(layout, self)
      , deps(place, std::make_shared<hc3i::Shared>())
      , log(place, deps)
      , gc(place, deps, log)
      , mailbox(place, deps, options, log, participant, leader, recovery)
      , participant(place, deps, log, mailbox, leader, *this)
      , leader(place, deps, participant, recovery, alerts)
      , alerts(place, deps, log, mailbox, participant, leader, recovery)
      , recovery(place, deps, log, mailbox, participant, leader, alerts, *this) {}

  void update_app(NodeContext& ctx) override {
    gate_calls++;
    hc3i::gate_app(ctx, participant, recovery, deps);
  }

  hc3i::Membership place;
  hc3i::Dependencies deps;
  hc3i::InterClusterLog log;
  hc3i::GarbageCollector gc;
  hc3i::Mailbox mailbox;
  hc3i::ClcParticipant participant;
  hc3i::ClcLeader leader;
  hc3i::Alerts alerts;
  hc3i::Recovery recovery;
  int gate_calls = 0;
};

/** @brief A control message body with integer fields @p ints. */
inline hc3i::Body body_of(std::initializer_list<std::pair<const std::string, std::uint64_t>> ints) {
  hc3i::Body b;
  for (const auto& [k, v] : ints) b.ints[k] = v;
  return b;
}

/** @brief The body of the @p i-th control message @p node sent. */
inline const hc3i::Body& sent_hc3i_body(const test_support::FakeNode& node, std::size_t i) {
  return hc3i::body(node.controls.at(i).msg);
}

/** @brief Commits CLC @p number with DDV @p ddv on @p p (as a CLC_COMMIT would: stored, SN and
 *  DDV the cluster's), without running the CLC. */
inline void commit_clc(Parts& p, hc3i::Sn number, hc3i::Ddv ddv, bool forced = false) {
  p.deps.commit(hc3i::StoredClc{number, p.deps.intern(ddv), forced, p.deps.intern(p.deps.base_ddv(number))});
}

} // namespace ckptsim::hc3i_test

namespace ckptsim::hc3i_test {

/** @brief Message @p seq from @p src to @p dst with its piggyback: intra-cluster (the sender
 *  cluster's @p epoch only) unless @p inter, then also SN @p sn, the receiver's epoch as the
 *  sender knows it (@p view) and the channel index @p idx. */
inline std::pair<AppMessage, PayloadPtr> message(NodeId src, NodeId dst, std::uint64_t seq, bool inter = false,
                                                 hc3i::Sn sn = 0, std::uint64_t epoch = 0, std::uint64_t view = 0,
                                                 std::uint64_t idx = 0) {
  AppMessage m;
  m.src = src;
  m.dst = dst;
  m.seq = seq;
  m.size = 100;
  auto pb = std::make_shared<hc3i::Piggyback>();
  pb->inter = inter;
  pb->sn = sn;
  pb->epoch = epoch;
  pb->view = view;
  pb->idx = idx;
  return {m, pb};
}

} // namespace ckptsim::hc3i_test

namespace ckptsim::hc3i_test {

/** @brief What loading CLC @p sn with DDV @p ddv gives back on @p node (a fresh application). */
inline Snapshot clc_snapshot(const test_support::FakeNode& node, hc3i::Sn sn, hc3i::Ddv ddv) {
  hc3i::SavedState st;
  st.sn = sn;
  st.ddv = std::move(ddv);
  Snapshot s;
  s.app = node.fresh_app();
  s.protocol = st;
  return s;
}

/** @brief The sequence numbers of @p list (a fake node's sent, re-sent or delivered messages), in
 *  order. */
inline std::vector<std::uint64_t> seqs_of(const std::vector<std::pair<AppMessage, PayloadPtr>>& list) {
  std::vector<std::uint64_t> seqs;
  for (const auto& [m, pb] : list) seqs.push_back(m.seq);
  return seqs;
}

} // namespace ckptsim::hc3i_test
