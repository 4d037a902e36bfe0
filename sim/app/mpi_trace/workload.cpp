#include "sim/app/mpi_trace/workload.hpp"

#include "sim/config/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace ckptsim {

namespace {
// SMPI puts every message on the wire with a 16-byte MPI envelope (smpi_request.cpp): so do we.
constexpr double kEnvelope = 16;

[[noreturn]] void fail_placement(const std::string& where, const std::string& problem) {
  auto colon = where.find(": ");
  throw InputError(where.substr(0, colon), colon == std::string::npos ? "" : where.substr(colon + 2), problem);
}
} // namespace

MpiTraceWorkload::MpiTraceWorkload(const Application& app, const FederationLayout& layout)
    : program_(app.spec_as<MpiTraceSpec>().program)
    , scale_(app.spec_as<MpiTraceSpec>().compute_scale)
    , rendezvous_(app.spec_as<MpiTraceSpec>().rendezvous) {
  place(app.spec_as<MpiTraceSpec>(), layout);
  for (NodeId n = 0; n < layout.num_nodes(); n++) speed_.push_back(layout.cluster(layout.cluster_of(n)).speed / 1e9);
  consumer_.resize(program_->ranks.size());
  for (std::size_t r = 0; r < program_->ranks.size(); r++) {
    const auto& rp = program_->ranks[r];
    consumer_[r].assign(rp.recvs.size(), static_cast<std::uint32_t>(rp.ops.size()));
    for (std::uint32_t i = 0; i < rp.ops.size(); i++)
      if (rp.ops[i].kind == mpi::Op::Kind::Wait)
        for (std::uint32_t k = 0; k < rp.ops[i].count; k++)
          if (std::uint32_t e = rp.waits[rp.ops[i].first + k]; !(e & mpi::kSendEntry)) consumer_[r][e] = i;
  }
}

void MpiTraceWorkload::place(const MpiTraceSpec& spec, const FederationLayout& layout) {
  const int ranks = program_->num_ranks();
  const int nodes = layout.num_nodes();
  if (ranks > nodes)
    fail_placement(spec.where, fmt::format("the trace has {} ranks and the federation {} node{}: one rank per node",
                                           ranks, nodes, nodes == 1 ? "" : "s"));
  rank_of_.assign(static_cast<std::size_t>(nodes), -1);
  node_of_.assign(static_cast<std::size_t>(ranks), -1);
  auto assign = [&](int rank, NodeId node) {
    if (rank_of_[static_cast<std::size_t>(node)] >= 0)
      fail_placement(spec.where, fmt::format("ranks {} and {} are both placed on {}",
                                             rank_of_[static_cast<std::size_t>(node)], rank, layout.host_name(node)));
    rank_of_[static_cast<std::size_t>(node)] = rank;
    node_of_[static_cast<std::size_t>(rank)] = node;
  };
  switch (spec.placement) {
  case MpiTraceSpec::Placement::Linear:
    for (int r = 0; r < ranks; r++) assign(r, r);
    break;
  case MpiTraceSpec::Placement::RoundRobin: {
    // Rank i on the next cluster in turn that still has a free node, its nodes in order.
    std::vector<int> used(static_cast<std::size_t>(layout.num_clusters()), 0);
    ClusterId c = 0;
    for (int r = 0; r < ranks; r++) {
      while (used[static_cast<std::size_t>(c)] == layout.cluster(c).size) c = (c + 1) % layout.num_clusters();
      assign(r, layout.cluster(c).first + used[static_cast<std::size_t>(c)]++);
      c = (c + 1) % layout.num_clusters();
    }
    break;
  }
  case MpiTraceSpec::Placement::List:
    for (int r = 0; r < ranks; r++) {
      NodeId n = layout.resolve(spec.nodes[static_cast<std::size_t>(r)]);
      if (n < 0)
        fail_placement(spec.where,
                       fmt::format("rank {}: no node \"{}\" in the federation (a host name such as \"{}\" or an "
                                   "index below {})",
                                   r, spec.nodes[static_cast<std::size_t>(r)], layout.host_name(0), nodes));
      assign(r, n);
    }
    break;
  }
}

AppStateValue MpiTraceWorkload::initial_state(NodeId process, std::uint64_t seed) const {
  auto s = std::make_unique<MpiTraceState>();
  s->rng.reseed(mix_seed(seed, static_cast<std::uint64_t>(process), 0x3b1ace));
  s->digest = mix_seed(0x3b1ace, static_cast<std::uint64_t>(rank_of(process) + 1));
  return AppStateValue(std::move(s));
}

void MpiTraceWorkload::arrive(MpiTraceState& s, std::uint32_t recv, std::uint64_t digest) {
  auto it = std::lower_bound(s.arrived.begin(), s.arrived.end(), std::make_pair(recv, std::uint64_t{0}));
  if (it != s.arrived.end() && it->first == recv) return; // delivered twice: the first copy counts
  s.arrived.insert(it, {recv, digest});
}

std::optional<double> MpiTraceWorkload::advance(AppState& base, NodeId self, std::vector<AppMessage>& sends) const {
  auto& s = static_cast<MpiTraceState&>(base);
  const int rank = rank_of(self);
  if (rank < 0) {
    s.finished = true;
    return std::nullopt;
  }
  const mpi::RankProgram& rp = program_->ranks[static_cast<std::size_t>(rank)];
  while (s.pc < rp.ops.size()) {
    if (s.points_announced < rp.points.size() && rp.points[s.points_announced].op == s.pc)
      return 0.0; // a collective starts here: the process first stands at its point (next_point)
    const mpi::Op& op = rp.ops[s.pc];
    switch (op.kind) {
    case mpi::Op::Kind::Compute:
      s.pc++;
      return op.amount * scale_ / 1e9; // work is in seconds at 1 Gf
    case mpi::Op::Kind::Sleep:
      s.pc++;
      return op.amount * scale_ * speed_[static_cast<std::size_t>(self)];
    case mpi::Op::Kind::Send:
      if (op.peer == rank) {
        arrive(s, op.first, mix_seed(s.digest, op.first, 0x5e1f));
      } else {
        AppMessage m;
        m.src = self;
        m.dst = node_of(op.peer);
        m.seq = s.next_seq++;
        m.size = op.amount + kEnvelope;
        m.digest = message_digest(m, s.digest);
        m.awaited = rendezvous_ && op.amount >= mpi::kDetachedBelow;
        if (m.awaited) s.unfinished.push_back(m.seq); // until the node reports its transfer's end
        sends.push_back(m);
      }
      s.pc++;
      break;
    case mpi::Op::Kind::Wait: {
      for (std::uint32_t k = 0; k < op.count; k++) {
        std::uint32_t r = rp.waits[op.first + k];
        if (r & mpi::kSendEntry) {
          if (!sent(s, r & ~mpi::kSendEntry)) return std::nullopt; // its transfer has not ended
          continue;
        }
        auto it = std::lower_bound(s.arrived.begin(), s.arrived.end(), std::make_pair(r, std::uint64_t{0}));
        if (it == s.arrived.end() || it->first != r) return std::nullopt; // a message still on its way
      }
      for (std::uint32_t k = 0; k < op.count; k++) {
        std::uint32_t r = rp.waits[op.first + k];
        if (r & mpi::kSendEntry) continue;
        auto it = std::lower_bound(s.arrived.begin(), s.arrived.end(), std::make_pair(r, std::uint64_t{0}));
        s.digest = mix_seed(s.digest, it->second, r);
        s.arrived.erase(it);
      }
      s.pc++;
      break;
    }
    }
  }
  s.finished = true;
  return std::nullopt;
}

std::optional<AppPoint> MpiTraceWorkload::next_point(const AppState& base, NodeId self) const {
  const auto& s = static_cast<const MpiTraceState&>(base);
  const int rank = rank_of(self);
  if (rank < 0) return std::nullopt;
  const auto& points = program_->ranks[static_cast<std::size_t>(rank)].points;
  std::size_t k = s.points_announced;
  if (k >= points.size() || points[k].op != s.pc) return std::nullopt;
  // Collectives with no operation left on this rank start at the same place: the last one counts.
  while (k + 1 < points.size() && points[k + 1].op == s.pc) k++;
  return AppPoint{mpi::action_name(points[k].action), k + 1};
}

void MpiTraceWorkload::deliver(AppState& base, const AppMessage& msg) const {
  auto& s = static_cast<MpiTraceState&>(base);
  s.delivered++;
  const int src = rank_of(msg.src);
  const int dst = rank_of(msg.dst);
  if (src < 0 || dst < 0) throw std::logic_error("mpi-trace: a message between nodes that run no rank");
  const auto& matches = program_->ranks[static_cast<std::size_t>(src)].recv_of_send;
  if (msg.seq >= matches.size()) throw std::logic_error("mpi-trace: a message its sender's program never sends");
  const std::uint32_t r = matches[msg.seq];
  // A message for a receive already consumed is a duplicate (the first copy counted).
  if (consumer_[static_cast<std::size_t>(dst)][r] < s.pc) return;
  arrive(s, r, msg.digest);
}

bool MpiTraceWorkload::sent(const MpiTraceState& s, std::uint64_t seq) {
  return std::find(s.unfinished.begin(), s.unfinished.end(), seq) == s.unfinished.end();
}

bool MpiTraceWorkload::receive_posted(const AppState& base, const AppMessage& msg) const {
  const auto& s = static_cast<const MpiTraceState&>(base);
  const int src = rank_of(msg.src);
  const int dst = rank_of(msg.dst);
  if (src < 0 || dst < 0) throw std::logic_error("mpi-trace: a message between nodes that run no rank");
  const std::uint32_t r = program_->ranks[static_cast<std::size_t>(src)].recv_of_send.at(msg.seq);
  const std::uint32_t at = program_->ranks[static_cast<std::size_t>(dst)].recvs[r].posted_at;
  // pc is already past a computation under way (advance moves it when the step starts).
  return s.pc > at || (s.pc == at && s.step_remaining <= 0);
}

std::uint64_t MpiTraceWorkload::result_digest(const AppState& base) const {
  const auto& s = static_cast<const MpiTraceState&>(base);
  // 48 bits, as every kind's: the xor of the processes' digests stays exact as a JSON number.
  return s.finished ? s.digest & 0xffff'ffff'ffffULL : 0;
}

double MpiTraceWorkload::failure_free_work(NodeId process) const {
  const int rank = rank_of(process);
  if (rank < 0) return 0;
  const auto& rp = program_->ranks[static_cast<std::size_t>(rank)];
  return (rp.flops / 1e9 + rp.sleep * speed_[static_cast<std::size_t>(process)]) * scale_;
}

} // namespace ckptsim
